/** Scripted transport and fake clock for client tests: no network, no real sleeps. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Clock, HttpRequest, HttpResponse, Transport } from "../../src/api";
import { TransportError } from "../../src/api";

export const FIXTURES = join(import.meta.dirname, "../fixtures/api");

/** Text of a fixture file under test/fixtures/api. */
export function fixtureText(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

export function fixture(name: string): unknown {
  return JSON.parse(fixtureText(name));
}

export type Reply = HttpResponse | { transportError: string } | ((request: HttpRequest) => HttpResponse);

export function ok(body: unknown, status = 200, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, body: typeof body === "string" ? body : JSON.stringify(body) };
}

/** A transport answering from a queue of replies, recording every request sent. */
export function scriptedTransport(replies: Reply[]) {
  const sent: HttpRequest[] = [];
  const batches: HttpRequest[][] = [];
  const next = (request: HttpRequest): HttpResponse => {
    sent.push(request);
    const reply = replies.shift();
    if (reply === undefined) throw new Error(`no scripted reply for ${request.method} ${request.url}`);
    if (typeof reply === "function") return reply(request);
    if ("transportError" in reply) throw new TransportError(reply.transportError);
    return reply;
  };
  const transport: Transport = {
    send: next,
    sendAll(requests) {
      batches.push([...requests]);
      return requests.map(next);
    },
  };
  return { transport, sent, batches, replies };
}

/** A clock whose sleeps only move time forward and are recorded. */
export function fakeClock(start = Date.UTC(2024, 5, 15, 12, 0, 0)) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps, advance: (ms: number) => (now += ms) };
}
