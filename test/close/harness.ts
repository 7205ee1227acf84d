/**
 * The close's engines (the marking, the undo) against one sandbox per file over real HTTP: the
 * add-on's client over a synchronous transport (as UrlFetchApp's) that counts every batch it
 * sends, a clock the test moves, the sandbox's control API and its reports as stored, and the
 * marking's records in memory. `closeSandbox(options)` registers the file's hooks: the sandbox
 * started once (a snapshot taken), restored before each test, `sent` emptied and `now` reset.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type RunningSandbox, type SandboxOptions, startSandboxThread } from "../../dev/sandbox/index";
import { type Client, type ClientOptions, createClient } from "../../src/api/client";
import type { HttpRequest, Transport } from "../../src/api/transport";
import type { MarkDeps } from "../../src/close/mark";
import type { CloseMark } from "../../src/close/types";
import { type SyncTransport, syncTransport } from "../sandbox/sync-transport";

/** The marking's window for a call that may still land. */
export const WINDOW_MS = 180_000;
/** The clock's start before each test. */
export const START = Date.parse("2026-06-15T12:00:00Z");

/** A report as the sandbox stores it (`GET /_sandbox/state`). */
export interface StateReport {
  id: number;
  reportNumber: string;
  status: number;
  integrated: boolean;
  integrationExternalCode: string;
  closeDate: string;
  totalApprovedCents: number;
  currency: string;
  /** How many marks the sandbox applied to it. */
  integrationCalls?: number;
}

export interface CloseSandbox {
  readonly sandbox: RunningSandbox;
  /** The synchronous transport, not counted. */
  readonly http: SyncTransport;
  /** The same, counting each batch (one fetchAll) in `sent`. */
  readonly counted: Transport;
  /** The batches sent through `counted` since the test began (or since it was emptied). */
  sent: HttpRequest[][];
  /** The clients' and engines' clock. */
  now: number;
  /** A call to the sandbox's control API, which must answer 200. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  reports(): Promise<StateReport[]>;
  /** The requests sent through `counted` that are not reads. */
  writes(): HttpRequest[];
  /** The add-on's client of the first company over `counted`, on this clock. */
  client(more?: Partial<ClientOptions>): Client;
  /** The engines' deps: one such client, these records, this clock, the window, batches of 25. */
  deps(records: MarkDeps["records"], more?: Partial<MarkDeps>): MarkDeps;
}

/** The marking's records, in memory (`map` for the test to look into). */
export { memoryRecords } from "../support/memory-records";

/** One sandbox for the file (`today` 2026-06-15), its hooks registered. */
export function closeSandbox(options: Omit<SandboxOptions, "now">): CloseSandbox {
  let sandbox: RunningSandbox | undefined;
  let http: SyncTransport | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the sandbox is started in beforeAll");
    return value;
  };
  const h: CloseSandbox = {
    get sandbox() {
      return started(sandbox);
    },
    get http() {
      return started(http);
    },
    counted: {
      send: (request) => {
        h.sent.push([request]);
        return h.http.send(request);
      },
      sendAll: (requests) => {
        h.sent.push([...requests]);
        return h.http.sendAll(requests);
      },
    },
    sent: [],
    now: START,
    async control(method, path, body) {
      const res = await fetch(`${h.sandbox.origin}/_sandbox${path}`, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, path).toBe(200);
      return res.json();
    },
    reports: async () => ((await h.control("GET", "/state")) as { reports: StateReport[] }).reports,
    writes: () => h.sent.flat().filter((r) => r.method !== "GET"),
    client: (more = {}) =>
      createClient({
        transport: h.counted,
        baseUrl: h.sandbox.url,
        token: h.sandbox.token,
        clock: { now: () => h.now, sleep: () => {} },
        random: () => 0,
        ...more,
      }),
    deps: (records, more = {}) => {
      const client = h.client();
      return {
        clientOf: () => client,
        records,
        clock: { now: () => h.now },
        windowMs: WINDOW_MS,
        batchSize: 25,
        ...more,
      };
    },
  };
  beforeAll(async () => {
    sandbox = await startSandboxThread({ today: "2026-06-15", ...options });
    http = syncTransport();
    await h.control("POST", "/snapshot", {});
  });
  afterAll(async () => {
    await http?.close();
    await sandbox?.close();
  });
  beforeEach(async () => {
    await h.control("POST", "/restore", {});
    h.sent = [];
    h.now = START;
  });
  return h;
}

/** The first `count` closed reports not integrated, as CloseMarks over two vouchers. */
export async function closeMarks(h: CloseSandbox, count: number): Promise<CloseMark[]> {
  const open = (await h.reports()).filter((r) => r.status === 1 && !r.integrated).slice(0, count);
  expect(open.length).toBe(count);
  return open.map((r, i) => ({
    company: "c0",
    reportId: r.id,
    reportNumber: r.reportNumber,
    voucher: i % 2 === 0 ? "202605001" : "202605002",
    cents: r.totalApprovedCents,
    currency: r.currency,
    integrationDate: "2026-05-31 18:00:00",
  }));
}
