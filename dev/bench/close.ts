/**
 * `npm run bench -- --close`: the month-end close's marking of 2,000 closed reports of one month
 * (src/close/mark.ts) against the sandbox (on a worker thread) with a latency injected into every
 * API call, through the add-on's client over blocking HTTP with fetchAll concurrency (the
 * emulator's UrlFetch wire). Prints the calls by endpoint and method, the fetchAll rounds, the
 * wall time and the floor (rounds × latency); then the same marks again, which must find every
 * report done and send no write. Checks each report was marked exactly once (the sandbox counts).
 *
 *   npm run bench -- --close                      # 2,000 reports, latency 150 ms, 25 per fetchAll
 *   npm run bench -- --close --latency 150 --batch 25 --reports 2000
 */
import { createClient } from "../../src/api/client";
import type { HttpRequest, HttpResponse, Transport } from "../../src/api/transport";
import { type MarkRecord, markVouchers } from "../../src/close/mark";
import type { CloseMark } from "../../src/close/types";
import { createTimeBudget } from "../../src/longrun/budget";
import { SyncHttp } from "../emulator/url-fetch";
import { startSandboxThread } from "../sandbox/index";

export interface CloseBenchArgs {
  latencyMs: number;
  batch: number;
  reports: number;
}

const TODAY = "2026-05-31";
const MONTH = { since: "2026-05-01", until: TODAY };

/** The client's transport over the emulator's blocking HTTP: one fetchAll a sendAll. */
function wireTransport(http: SyncHttp, seen: HttpRequest[]): Transport {
  const sendAll = (requests: readonly HttpRequest[]): HttpResponse[] => {
    seen.push(...requests);
    const results = http.send(
      requests.map((r) => ({
        url: r.url,
        method: r.method,
        headers: r.headers,
        body: r.body === undefined ? undefined : Buffer.from(r.body, "utf8").toString("base64"),
        followRedirects: false,
        validateHttpsCertificates: true,
        timeoutMs: 60_000,
      })),
    );
    return results.map((result, i) => {
      if (!result.ok) throw new Error(`${result.code}: ${result.message} (${requests[i]?.url})`);
      const headers: Record<string, string> = {};
      for (let h = 0; h < result.rawHeaders.length; h += 2) {
        headers[result.rawHeaders[h] as string] = result.rawHeaders[h + 1] as string;
      }
      return { status: result.status, headers, body: Buffer.from(result.body).toString("utf8") };
    });
  };
  return { send: (request) => sendAll([request])[0] as HttpResponse, sendAll };
}

async function control(origin: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${origin}/_sandbox${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Per endpoint and method, e.g. "getExpenseReport GET": count. */
function tally(requests: readonly HttpRequest[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const key = `${new URL(r.url).pathname.split("/").pop()} ${r.method}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n.toLocaleString("en")} ${k}`).join(", ");
}

export async function benchClose(args: CloseBenchArgs): Promise<string[]> {
  const sandbox = await startSandboxThread({ today: TODAY, seed: 42, funds: 20, reports: 0 });
  const http = new SyncHttp();
  try {
    // The month's closed reports: sent and closed today (a day of the month), none integrated.
    const users = (await control(sandbox.origin, "GET", "/users")) as {
      Users: Array<{ Id: number; Roles: string[] }>;
    };
    const employees = users.Users.filter((u) => u.Roles.includes("employee")).map((u) => u.Id);
    for (let i = 0; i < args.reports; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, args.reports - i) }, async (_, k) => {
          const draft = (await control(sandbox.origin, "POST", "/reports", {
            EmployeeId: employees[(i + k) % employees.length],
            ReportTotal: 1000 + ((i + k) % 97) * 10,
          })) as { Id: number };
          await control(sandbox.origin, "POST", `/reports/${draft.Id}/send`, {});
          await control(sandbox.origin, "POST", `/reports/${draft.Id}/close`, {});
        }),
      );
    }
    await control(sandbox.origin, "POST", "/faults", { latencyMs: args.latencyMs, rules: [] });
    const seen: HttpRequest[] = [];
    const transport = wireTransport(http, seen);
    const clock = { now: () => Date.now(), sleep: () => {} };
    const client = createClient({ transport, baseUrl: sandbox.url, token: sandbox.token, clock });
    // The month as the close reads it (§4.8), every page.
    const list = client.getExpenseReports({
      Since: MONTH.since,
      Until: MONTH.until,
      TypeDateFilter: 1,
      Status: 1,
      IntegrationStatus: 0,
      ResultsPerPage: 1000,
    });
    const pages = client.readMany(
      "getExpenseReports",
      Array.from({ length: Math.max(0, list.records.pages - 1) }, (_, i) => ({
        Since: MONTH.since,
        Until: MONTH.until,
        TypeDateFilter: 1,
        Status: 1,
        IntegrationStatus: 0,
        ResultsPerPage: 1000,
        Page: i + 2,
      })),
    );
    const found = [...list.expenseReports, ...pages.flatMap((p) => (p.ok ? p.value.expenseReports : []))];
    const marks: CloseMark[] = found.map((r, i) => ({
      company: "c0",
      reportId: r.id,
      reportNumber: r.reportNumber,
      voucher: `202605${String(1 + (i % 4)).padStart(3, "0")}`,
      cents: r.reportTotalApprovedCents,
      currency: r.currency,
      integrationDate: "2026-05-31 18:00:00",
    }));
    const store = new Map<string, MarkRecord>();
    const records = {
      all: () => [...store.values()],
      put: (r: MarkRecord) => void store.set(r.key, structuredClone(r)),
      remove: (key: string) => void store.delete(key),
    };
    const run = () => {
      seen.length = 0;
      const before = { ...http.waited };
      const started = performance.now();
      const budget = createTimeBudget({ clock: { now: () => Date.now() } });
      const result = markVouchers(marks, {
        clientOf: () => client,
        records,
        clock,
        budget,
        batchSize: args.batch,
      });
      return {
        result,
        wallMs: performance.now() - started,
        rounds: http.waited.batches - before.batches,
        calls: seen.length,
        byEndpoint: tally(seen),
        writes: seen.filter((r) => r.method !== "GET").length,
      };
    };
    const first = run();
    const second = run();
    const state = (await control(sandbox.origin, "GET", "/state")) as {
      reports: Array<{ id: number; integrationCalls?: number; integrationExternalCode: string }>;
    };
    const byId = new Map(state.reports.map((r) => [r.id, r]));
    const once = marks.every((m) => {
      const r = byId.get(m.reportId);
      return r?.integrationCalls === 1 && r.integrationExternalCode === m.voucher;
    });
    const done = (x: typeof first) => x.result.outcomes.filter((o) => o.kind === "done").length;
    const floor = (rounds: number) => `${((rounds * args.latencyMs) / 1000).toFixed(1)} s`;
    const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    return [
      `# Month-end close benchmark (${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node})`,
      "",
      `${marks.length.toLocaleString("en")} closed reports of ${MONTH.since.slice(0, 7)} (read in ${list.records.pages} page(s)), 4 vouchers; latency ${args.latencyMs} ms per call, ${args.batch} marks per fetchAll`,
      "",
      "| run | done | API calls | writes | fetchAll rounds | floor (rounds × latency) | wall time |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      `| marking | ${done(first).toLocaleString("en")} | ${first.calls.toLocaleString("en")} | ${first.writes.toLocaleString("en")} | ${first.rounds} | ${floor(first.rounds)} | ${secs(first.wallMs)} |`,
      `| again (all done) | ${done(second).toLocaleString("en")} | ${second.calls.toLocaleString("en")} | ${second.writes} | ${second.rounds} | ${floor(second.rounds)} | ${secs(second.wallMs)} |`,
      "",
      `Calls of the marking: ${first.byEndpoint}.`,
      `Each report marked exactly once (the sandbox's count): ${once ? "OK" : "FAILED"}; continuation needed: ${first.result.mustContinue ? "yes" : "no"}.`,
    ];
  } finally {
    await http.close();
    await sandbox.close();
  }
}
