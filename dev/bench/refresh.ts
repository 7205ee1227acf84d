/**
 * `npm run bench`: refreshes of the BUILT add-on in the Apps Script emulation against the
 * sandbox (on a worker thread) with a latency injected into every API call, at several sizes.
 * For each size it prints: API calls made against the minimum possible (pages needed + funds
 * whose movements are fetched), spreadsheet write calls per sheet, wall time, and the speed-up
 * over fetching the same requests one after another; then a second refresh with no change,
 * which must make only the list calls.
 *
 *   npm run bench                                  # small and medium
 *   npm run bench -- --sizes small,medium,large    # up to 5,000 funds and 50,000 reports
 *   npm run bench -- --sizes two-small             # two companies of the small size in one spreadsheet
 *   npm run bench -- --latency 150 --page-size 100 --batch 25   # 100 per page (default: auto)
 *   npm run bench -- --bandwidth 100               # the bodies also cross a 100 Mbit/s link
 *   npm run bench -- --close                       # the month-end close's marking (close.ts)
 *   npm run bench -- --no-mark                     # companies without an account mark (no account check)
 */

import { readFileSync } from "node:fs";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { FIRST_COMPANY_KEY } from "../../src/company/model";
import { splitWindow } from "../../src/refresh/windows";
import { AUDIT_TABLE, headersOf } from "../../src/sheets/columns";
import { createEmulator, type Emulator } from "../emulator/index";
import { servicePrefix, storeCompanies, storeToken } from "../emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../sandbox/index";
import { buildIfNeeded, privateBuild } from "./build";
import { benchClose } from "./close";
import { CpuProfiler, type CpuSplit, partsLine, topFiles } from "./profile";
import { summaryLine, summaryMs } from "./summary";
import { warmUpStandIns } from "./warm-up";

/**
 * Funds and reports per company; `companies` (default 1): as many companies of that size in one
 * spreadsheet, each its own account of the sandbox (seeds 42, 43…), the same URL.
 */
const SIZES: Record<string, { funds: number; reports: number; companies?: number }> = {
  small: { funds: 200, reports: 2_000 },
  medium: { funds: 2_000, reports: 20_000 },
  large: { funds: 5_000, reports: 50_000 },
  "two-small": { funds: 200, reports: 2_000, companies: 2 },
};

const SHEETS = ["Funds", "Fund transactions", "Expense reports", "Audit"];
const TODAY = "2024-06-30";
const WINDOW = { since: "2019-07-01", until: TODAY };

interface Args {
  sizes: string[];
  latencyMs: number;
  /** ResultsPerPage, or "auto": the add-on's default (the largest page the service accepts). */
  pageSize: number | "auto";
  batch: number;
  /** Measure the one-request-at-a-time refresh for real up to this many calls; estimate above. */
  sequentialUpTo: number;
  /** Profile the two refreshes of each size (CPU split between the add-on and the emulation). */
  profile: boolean;
  /**
   * Measure the live heap (after a full collection) at every spreadsheet read and write: the
   * add-on's data at its largest. The collections slow the run: its wall times do not count.
   */
  liveHeap: boolean;
  /**
   * Megabits per second of the link between the service and the script: each round also waits
   * for its bodies to cross it, and the floor counts that transfer (none: loopback, as before).
   */
  bandwidthMbit?: number;
  /** `--close`: the month-end close's marking instead of the refresh (close.ts). */
  close: boolean;
  /** Reports of the month the close marks (`--reports`, with --close). */
  closeReports: number;
  /**
   * Warm the stand-ins (the sandbox, the emulation's own code) before the timed refreshes;
   * `--cold` leaves them cold, as every run before this option did (warm-up.ts).
   */
  warm: boolean;
  /**
   * Each company's account marked, as its first connection test marks it, so that every
   * refresh makes the account check (`--no-mark`: none, no check).
   */
  mark: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    sizes: ["small", "medium"],
    latencyMs: 150,
    pageSize: "auto",
    batch: 25,
    sequentialUpTo: 400,
    profile: true,
    liveHeap: false,
    close: false,
    closeReports: 2_000,
    mark: true,
    warm: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1] ?? "";
    const number = (name: string, min: number, max: number) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < min || n > max) {
        throw new Error(`${name}: must be a whole number from ${min} to ${max} (got "${value}")`);
      }
      i++;
      return n;
    };
    if (flag === "--sizes") {
      args.sizes = value.split(",").map((s) => s.trim());
      for (const s of args.sizes) {
        if (!SIZES[s]) throw new Error(`--sizes: "${s}" is not one of ${Object.keys(SIZES).join(", ")}`);
      }
      i++;
    } else if (flag === "--latency") args.latencyMs = number("--latency", 0, 10_000);
    else if (flag === "--page-size" && value === "auto") {
      args.pageSize = "auto";
      i++;
    } else if (flag === "--page-size") args.pageSize = number("--page-size", 1, 1000);
    else if (flag === "--batch") args.batch = number("--batch", 1, 100);
    else if (flag === "--sequential-up-to") args.sequentialUpTo = number("--sequential-up-to", 0, 100_000);
    else if (flag === "--no-profile") args.profile = false;
    else if (flag === "--live-heap") args.liveHeap = true;
    else if (flag === "--bandwidth") args.bandwidthMbit = number("--bandwidth", 1, 100_000);
    else if (flag === "--close") args.close = true;
    else if (flag === "--reports") args.closeReports = number("--reports", 1, 20_000);
    else if (flag === "--no-mark") args.mark = false;
    else if (flag === "--cold") args.warm = false;
    else
      throw new Error(
        `Unknown option ${flag}. Options: --sizes, --latency, --page-size, --batch, --sequential-up-to, --no-profile, --live-heap, --bandwidth, --close, --reports, --no-mark, --cold`,
      );
  }
  return args;
}

interface RunFigures {
  calls: number;
  byEndpoint: Record<string, number>;
  writes: Record<string, number>;
  /** Cells read and written on every sheet (the emulator counts each range's rows × columns). */
  cells: { read: number; written: number };
  wallMs: number;
  executions: number;
  records: number;
  /** The refresh's own duration as the script measured it (emulated sheet time included). */
  scriptMs: number;
  /** fetchAll rounds and the real time blocked on them. */
  http: { batches: number; blockedMs: number; bytes: number };
  /** Highest V8 heap seen during the refresh above the heap before it (bytes). */
  peakHeapAbove: number;
  /**
   * CPU time of the script's thread (the add-on, the emulation and their garbage collection;
   * not the sandbox's or the HTTP thread's), or null where the system does not tell it.
   */
  threadCpuMs: number | null;
  /** With --live-heap: the largest live heap at a spreadsheet call, and what stays, above the start. */
  live?: { peakAbove: number; retainedAbove: number };
  cpu?: CpuSplit;
}

/** A full collection, when --live-heap asked for one (V8's gc made callable). */
let collect: (() => void) | null = null;
function enableCollect(): void {
  setFlagsFromString("--expose-gc");
  collect = runInNewContext("gc") as () => void;
  // Contexts made from now on (the emulated script's realm) must not see it.
  setFlagsFromString("--no-expose-gc");
}

/** The live heap: used after a full collection. */
function liveHeap(): number {
  collect?.();
  return getHeapStatistics().used_heap_size;
}

/** The highest used heap seen since `resetPeak` (sampled while the script waits on HTTP). */
const heap = {
  /** With --live-heap: the largest live heap at a spreadsheet call since resetPeak. */
  livePeak: 0,
  peak: 0,
  sample(): void {
    const used = getHeapStatistics().used_heap_size;
    if (used > heap.peak) heap.peak = used;
  },
  resetPeak(): number {
    heap.peak = getHeapStatistics().used_heap_size;
    return heap.peak;
  },
};

/**
 * CPU time this thread (the bench's main thread, where the script runs) has used, in ms, from
 * Linux's /proc (10 ms ticks), or null elsewhere. Unlike the wall time or the profile's
 * samples, it does not grow when other processes share the machine's cores.
 */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Runs refreshAll until it is finished (a run stopped near the time limit is continued). */
function refreshAll(emulator: Emulator): RunFigures {
  emulator.resetCounters();
  const liveBefore = collect ? liveHeap() : 0;
  heap.livePeak = liveBefore;
  const heapBefore = heap.resetPeak();
  const cpuBefore = threadCpuMs();
  const started = performance.now();
  let executions = 0;
  let records = 0;
  let scriptMs = 0;
  for (;;) {
    executions++;
    const out = emulator.tryRun("refreshFromSidebar", ["all"]);
    if (!out.ok) throw new Error(`refresh failed: ${out.error}`);
    const summary = out.result as {
      ok: boolean;
      finished: boolean;
      records: number;
      message: string;
      seconds: number;
    };
    if (!summary.ok) throw new Error(`refresh failed: ${summary.message}`);
    records += summary.records;
    scriptMs += summary.seconds * 1000;
    heap.sample();
    if (summary.finished) break;
    if (executions > 20) throw new Error("refresh did not finish in 20 executions");
  }
  const wallMs = performance.now() - started;
  const cpuAfter = threadCpuMs();
  const counters = emulator.counters;
  const writes: Record<string, number> = {};
  for (const name of SHEETS) writes[name] = counters.sheets[name]?.writes ?? 0;
  const cells = { read: 0, written: 0 };
  for (const sheet of Object.values(counters.sheets)) {
    cells.read += sheet.cellsRead;
    cells.written += sheet.cellsWritten;
  }
  return {
    calls: counters.urlFetchTotal,
    byEndpoint: {},
    writes,
    cells,
    wallMs,
    executions,
    records,
    scriptMs,
    http: counters.http,
    peakHeapAbove: heap.peak - heapBefore,
    threadCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    ...(collect
      ? { live: { peakAbove: heap.livePeak - liveBefore, retainedAbove: liveHeap() - liveBefore } }
      : {}),
  };
}

/**
 * With --live-heap, every spreadsheet read and write of the script first measures the live
 * heap: at a write the records, the sheet as read and the plan are all alive.
 */
function watchLiveHeap(emulator: Emulator): void {
  if (!collect) return;
  const host = emulator.spreadsheetHost;
  const sample = () => {
    heap.livePeak = Math.max(heap.livePeak, liveHeap());
  };
  const read = host.countRead.bind(host);
  const write = host.countWrite.bind(host);
  host.countRead = (sheet, cells) => {
    sample();
    read(sheet, cells);
  };
  host.countWrite = (sheet, cells) => {
    sample();
    write(sheet, cells);
  };
}

/**
 * The CPU split of a first refresh and a refresh with nothing changed, each under the profiler,
 * in the spreadsheet `make` sets up (its own, so that the timed refreshes ran without it).
 */
async function profiledCpu(
  profiler: CpuProfiler,
  make: () => Emulator,
): Promise<{ first: RunFigures["cpu"]; second: RunFigures["cpu"] }> {
  const emulator = make();
  try {
    await profiler.start();
    refreshAll(emulator);
    const first = await profiler.stop();
    await profiler.start();
    refreshAll(emulator);
    const second = await profiler.stop();
    return { first, second };
  } finally {
    await emulator.close();
  }
}

/**
 * The HTTP floor: the time the calls need at `batch` requests per round of `latencyMs`, the
 * first pages of every list in the first round (they tell how many pages follow) and every
 * other call in full rounds after it.
 */
function floorMs(calls: number, firstPages: number, batch: number, latencyMs: number): number {
  const first = Math.ceil(firstPages / batch);
  return (first + Math.ceil(Math.max(0, calls - firstPages) / batch)) * latencyMs;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1_048_576)} MB`;
}

/** The per-size lines on time: floor, wall, HTTP, CPU split, heap. */
function timeLines(label: string, run: RunFigures, floor: number): string[] {
  const cpu = run.cpu;
  const lines = [
    `| ${label} | ${seconds(floor)} | ${seconds(run.wallMs)} | ${floor > 0 ? `×${(run.wallMs / floor).toFixed(2)}` : "–"} | ${run.http.batches} / ${seconds(run.http.blockedMs)} | ` +
      `${cpu ? seconds(cpu.addOnMs) : "–"} | ${cpu ? seconds(cpu.emulationMs) : "–"} | ${cpu ? seconds(cpu.gcMs) : "–"} | ` +
      `${run.cells.read.toLocaleString("en")} / ${run.cells.written.toLocaleString("en")} | ${megabytes(run.peakHeapAbove)} |`,
  ];
  return lines;
}

/** The Audit sheet's Endpoint header in the bench's document (English). */
const ENDPOINT_HEADER = headersOf(AUDIT_TABLE, "en")[
  AUDIT_TABLE.columns.findIndex((c) => c.key === "endpoint")
];

/** Endpoint of each audit row appended since `fromRow` (with "every read", one row per call). */
function auditEndpoints(emulator: Emulator, fromRow: number): Record<string, number> {
  const sheet = emulator.spreadsheet.sheetByName("Audit");
  const out: Record<string, number> = {};
  if (!sheet) return out;
  // The Endpoint column found by its header (the layout gains columns from version to version).
  let column = 0;
  for (let c = 1; c <= sheet.lastColumn(); c++) if (sheet.cell(1, c)?.value === ENDPOINT_HEADER) column = c;
  if (column === 0) throw new Error(`the Audit sheet has no "${ENDPOINT_HEADER}" column`);
  for (let r = fromRow; r <= sheet.lastRow(); r++) {
    const endpoint = String(sheet.cell(r, column)?.value ?? "");
    out[endpoint] = (out[endpoint] ?? 0) + 1;
  }
  return out;
}

async function pagesNeeded(
  sandbox: RunningSandbox,
  pageSize: number,
  token: string = sandbox.token,
): Promise<{ funds: number; reports: number }> {
  const get = async (path: string) => {
    const response = await fetch(`${sandbox.url}/${path}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return (await response.json()) as { Records: { Pages: number } };
  };
  const [fundsPath, ...reportPaths] = firstPagePaths(pageSize) as [string, ...string[]];
  const funds = (await get(fundsPath)).Records.Pages;
  let reports = 0;
  for (const path of reportPaths) reports += Math.max(1, (await get(path)).Records.Pages);
  return { funds: Math.max(1, funds), reports };
}

/** The first page of each list a refresh reads: the funds, then each one-year piece of reports. */
function firstPagePaths(pageSize: number): string[] {
  return [
    `getFunds?ResultsPerPage=${pageSize}&Page=1`,
    ...splitWindow(WINDOW).map(
      (piece) =>
        `getExpenseReports?ResultsPerPage=${pageSize}&Page=1&TypeDateFilter=2&Since=${piece.since}&Until=${piece.until}`,
    ),
  ];
}

/**
 * The script thread's CPU time (threadCpuMs) against the floor: the floor plus that time is
 * what the wall would be on an idle machine with the service answering within its latency.
 */
function threadCpuLine(first: RunFigures, second: RunFigures, floors: [number, number]): string {
  const part = (run: RunFigures, floor: number) => {
    const cpu = run.threadCpuMs ?? 0;
    return `${(cpu / 1000).toFixed(2)} s (floor + it: ×${floor > 0 ? ((floor + cpu) / floor).toFixed(2) : "–"})`;
  };
  return (
    `Script thread CPU (the add-on, the emulation and their GC; not the sandbox's): ` +
    `${part(first, floors[0])} first, ${part(second, floors[1])} no change.`
  );
}

/**
 * The bodies received, and what moving them alone takes at 100 Mbit/s: time the HTTP floor
 * (calls, concurrency and latency) does not count.
 */
function downloadLine(first: number, second: number, latencyMs: number): string {
  const at100Mbits = (bytes: number) => seconds((bytes * 8) / 100_000);
  const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
  return (
    `Downloaded: ${mb(first)} (first), ${mb(second)} (no change); at 100 Mbit/s moving them takes ` +
    `${at100Mbits(first)} and ${at100Mbits(second)}, which the floor (${latencyMs} ms per round) does not count.`
  );
}

/**
 * With `--bandwidth`: the floor counting the bodies' transfer too (the rounds' latency plus the
 * bytes ÷ bandwidth, the bodies of a round sharing the link), and the wall against it.
 */
function transferLine(first: RunFigures, second: RunFigures, floors: [number, number], mbit: number): string {
  const transfer = (bytes: number) => (bytes * 8) / (mbit * 1000);
  const [a, b] = [floors[0] + transfer(first.http.bytes), floors[1] + transfer(second.http.bytes)];
  const ratio = (wall: number, floor: number) => (floor > 0 ? `×${(wall / floor).toFixed(2)}` : "–");
  return (
    `Link at ${mbit} Mbit/s (the bodies cross it, in the wall times above): floor with transfer ` +
    `${seconds(a)} (first: ${seconds(floors[0])} of rounds + ${seconds(transfer(first.http.bytes))} of transfer), ` +
    `${seconds(b)} (no change: ${seconds(floors[1])} + ${seconds(transfer(second.http.bytes))}); ` +
    `wall ÷ floor with transfer: ${ratio(first.wallMs, a)} (first), ${ratio(second.wallMs, b)} (no change).`
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function benchSize(
  name: string,
  dist: string,
  args: Args,
  profiler: CpuProfiler | null,
): Promise<string[]> {
  const size = SIZES[name] as { funds: number; reports: number; companies?: number };
  const companyCount = size.companies ?? 1;
  const sandbox = await startSandboxThread({
    seed: 42,
    funds: size.funds,
    reports: size.reports,
    latencyMs: args.latencyMs,
    today: TODAY,
    companies: companyCount,
  });
  const user = "bench@example.com";
  const form = (batch: number) =>
    JSON.stringify({
      baseUrl: sandbox.url,
      pageSize: args.pageSize === "auto" ? "" : String(args.pageSize),
      windowMode: "range",
      windowFrom: WINDOW.since,
      windowTo: WINDOW.until,
      reportTypeDateFilter: "2",
      fetchBatchSize: String(batch),
      // A row per call, so that the calls per endpoint can be counted from the audit.
      auditReads: "every",
    });
  /**
   * A spreadsheet of every company (the document's list, the user's token and IdAdmin for each,
   * through the settings store), or of company `only` alone as a one-company spreadsheet.
   */
  const setUp = (em: Emulator, formText: string, only?: number) => {
    em.documentPropertiesData.values.set("settings.form", formText);
    const companies = sandbox.companies.map((c) => ({
      name: c.name,
      apiUrl: sandbox.url,
      token: c.token,
      adminId: c.adminId,
    }));
    let keys = [FIRST_COMPANY_KEY];
    if (only === undefined && companies.length > 1) keys = storeCompanies(em, companies, user);
    else storeToken(em, user, sandbox.companies[only ?? 0]?.token ?? sandbox.token, sandbox.url);
    if (!args.mark) return;
    // Each company's account marked as a user's first connection test marks it (one getFunds
    // each, before the counters are reset): every refresh then makes the account check.
    for (const key of keys) {
      const tested = em.tryRun("testSettingsConnection", [{ key }], { as: "script.run", user });
      if (!tested.ok) throw new Error(`connection test of ${key}: ${tested.error}`);
      const check = tested.result as { ok: boolean; message: string };
      if (!check.ok) throw new Error(`connection test of ${key}: ${check.message}`);
    }
  };
  /** A spreadsheet of its own (no heap sampling), set up as setUp does with these settings. */
  const ownSpreadsheet = (formText: string, only?: number) => {
    const em = createEmulator({
      distDir: dist,
      users: [user],
      timeZone: "America/Santiago",
      urlFetchAllowlist: [servicePrefix(sandbox.url)],
      bandwidthMbit: args.bandwidthMbit,
    });
    setUp(em, formText, only);
    return em;
  };
  const emulator = createEmulator({
    distDir: dist,
    users: [user],
    timeZone: "America/Santiago",
    urlFetchAllowlist: [servicePrefix(sandbox.url)],
    onBlock: () => heap.sample(),
    bandwidthMbit: args.bandwidthMbit,
  });
  const lines: string[] = [];
  watchLiveHeap(emulator);
  try {
    setUp(emulator, form(args.batch));
    // The sandbox takes pages of up to 1,000: what "auto" settles on.
    const pageSize = args.pageSize === "auto" ? 1000 : args.pageSize;
    const perCompany = await Promise.all(
      sandbox.companies.map((c) => pagesNeeded(sandbox, pageSize, c.token)),
    );
    const pages = {
      funds: perCompany.reduce((n, p) => n + p.funds, 0),
      reports: perCompany.reduce((n, p) => n + p.reports, 0),
    };
    const fundsWithMovements = size.funds * companyCount;

    // Several companies: each refreshed alone first, in a one-company spreadsheet of its own,
    // for the rounds the companies together are held to (no more than the larger alone).
    const alone: Array<{ name: string; figures: RunFigures }> = [];
    if (companyCount > 1) {
      for (const [i, company] of sandbox.companies.entries()) {
        const own = ownSpreadsheet(form(args.batch), i);
        alone.push({ name: company.name, figures: refreshAll(own) });
        await own.close();
      }
    }

    // The stand-ins warmed first, in a spreadsheet and an execution of their own (warm-up.ts).
    const warmed = args.warm
      ? await warmUpStandIns({
          dist,
          baseUrl: sandbox.url,
          token: sandbox.companies[0]?.token ?? sandbox.token,
          listPaths: firstPagePaths(pageSize),
        })
      : null;

    // The connection tests' rows (the marks) are not the refresh's.
    const auditBefore = emulator.spreadsheet.sheetByName("Audit")?.lastRow() ?? 1;
    // Timed without the profiler: it records every function the execution compiles, and a
    // small refresh under it took about a twentieth longer. The profile comes from the same
    // two refreshes of a spreadsheet of their own, after the timed ones (profiledCpu).
    const first = refreshAll(emulator);
    first.byEndpoint = auditEndpoints(emulator, auditBefore + 1);
    const firstSummaryMs = summaryMs(emulator);
    const auditRows = emulator.spreadsheet.sheetByName("Audit")?.lastRow() ?? 1;
    // The account check: one getFunds per marked company and execution.
    const checks = args.mark ? companyCount : 0;
    const minimum = pages.funds + pages.reports + fundsWithMovements + checks;

    // The same refresh one request at a time, measured for real when small enough, else estimated
    // from the per-call time of a measured sample.
    let sequentialMs: number;
    let sequentialNote: string;
    // (Several companies are always estimated: one request per fetchAll is per company.)
    if (first.calls <= args.sequentialUpTo && companyCount === 1) {
      const fresh = ownSpreadsheet(form(1));
      sequentialMs = refreshAll(fresh).wallMs;
      await fresh.close();
      sequentialNote = "measured";
    } else {
      const sample = ownSpreadsheet(
        JSON.stringify({ ...JSON.parse(form(1)), fundStatus: "3", windowFrom: "2024-06-01" }),
        0,
      );
      const measured = refreshAll(sample);
      await sample.close();
      const perCall = measured.wallMs / Math.max(1, measured.calls);
      sequentialMs = perCall * first.calls;
      sequentialNote = `estimated: ${first.calls} calls × ${perCall.toFixed(0)} ms measured one at a time`;
    }

    const second = refreshAll(emulator);
    if (profiler) {
      const cpu = await profiledCpu(profiler, () => {
        return ownSpreadsheet(form(args.batch));
      });
      first.cpu = cpu.first;
      second.cpu = cpu.second;
    }
    second.byEndpoint = auditEndpoints(emulator, auditRows + 1);
    const secondSummaryMs = summaryMs(emulator);
    const listCalls = pages.funds + pages.reports + checks;
    const firstPages = 1 + splitWindow(WINDOW).length;
    // Companies' reads share each round, `--batch` per company: the floor is the larger company's.
    const floorOf = (calls: number[]) =>
      Math.max(...calls.map((n) => floorMs(n, firstPages, args.batch, args.latencyMs)));
    const firstFloor = floorOf(alone.length > 0 ? alone.map((a) => a.figures.calls) : [first.calls]);
    const secondFloor = floorOf(
      alone.length > 0 ? perCompany.map((p) => p.funds + p.reports + (args.mark ? 1 : 0)) : [second.calls],
    );
    const onlyLists = (second.byEndpoint.getFund ?? 0) === 0 && second.calls === listCalls;
    const fundRows = (emulator.spreadsheet.sheetByName("Funds")?.lastRow() ?? 1) - 1;

    const sizeText = `${size.funds.toLocaleString("en")} funds, ${size.reports.toLocaleString("en")} reports`;
    lines.push(
      `## ${name}: ${companyCount > 1 ? `${companyCount} companies of ${sizeText} each` : sizeText} ` +
        `(latency ${args.latencyMs} ms per call, ${args.pageSize === "auto" ? "page size found by the add-on" : `${args.pageSize} per page`}, ${args.batch} requests per fetchAll${args.bandwidthMbit ? `, link at ${args.bandwidthMbit} Mbit/s` : ""})`,
      "",
      "| refresh | API calls | minimum | getFunds / getFund / getExpenseReports | writes: Funds / Transactions / Reports / Audit | wall time | one at a time | speed-up |",
      "|---|---|---|---|---|---|---|---|",
      `| first | ${first.calls} | ${minimum} | ${first.byEndpoint.getFunds ?? 0} / ${first.byEndpoint.getFund ?? 0} / ${first.byEndpoint.getExpenseReports ?? 0} | ${SHEETS.map((s) => first.writes[s]).join(" / ")} | ${seconds(first.wallMs)} | ${seconds(sequentialMs)} (${sequentialNote}) | ×${(sequentialMs / first.wallMs).toFixed(1)} |`,
      `| no change | ${second.calls} | ${listCalls} | ${second.byEndpoint.getFunds ?? 0} / ${second.byEndpoint.getFund ?? 0} / ${second.byEndpoint.getExpenseReports ?? 0} | ${SHEETS.map((s) => second.writes[s]).join(" / ")} | ${seconds(second.wallMs)} | | |`,
      "",
      "| refresh | HTTP floor | wall | wall ÷ floor | fetchAll rounds / blocked on HTTP | add-on CPU | emulation CPU | GC | cells read / written | peak heap above start |",
      "|---|---|---|---|---|---|---|---|---|---|",
      ...timeLines("first", first, firstFloor),
      ...timeLines("no change", second, secondFloor),
      "",
      ...(first.cpu && second.cpu
        ? [
            `Add-on CPU by file, first: ${topFiles(first.cpu.addOnFiles, 6)}.`,
            `Add-on CPU by file, no change: ${topFiles(second.cpu.addOnFiles, 6)}.`,
            `Add-on CPU by part, first: ${partsLine(first.cpu.addOnFiles)}; no change: ${partsLine(second.cpu.addOnFiles)}.`,
            `Emulation CPU by file, first: ${topFiles(first.cpu.emulationFiles, 5)}.`,
            `Emulation CPU by file, no change: ${topFiles(second.cpu.emulationFiles, 5)}.`,
            "",
          ]
        : []),
      ...(first.live && second.live
        ? [
            `Live heap at the largest (after a full collection, at a spreadsheet call) above the start: ${megabytes(first.live.peakAbove)} (first), ${megabytes(second.live.peakAbove)} (no change); ` +
              `still held after the refresh (the emulated spreadsheet's growth): ${megabytes(first.live.retainedAbove)} and ${megabytes(second.live.retainedAbove)}. Wall times of this run include the collections.`,
            "",
          ]
        : []),
      ...(first.threadCpuMs !== null && second.threadCpuMs !== null
        ? [threadCpuLine(first, second, [firstFloor, secondFloor]), ""]
        : []),
      warmed
        ? `Stand-ins warmed before the timed refreshes (not the add-on): ${warmed.funds} funds and ${warmed.reports.toLocaleString("en")} reports read, ${warmed.cells.toLocaleString("en")} cells written, in ${seconds(warmed.ms)} (\`--cold\`: without).`
        : "Stand-ins cold (`--cold`): the sandbox's and the emulation's code compiled during the first refresh.",
      "",
      `${downloadLine(first.http.bytes, second.http.bytes, args.latencyMs)}`,
      "",
      ...(args.bandwidthMbit
        ? [transferLine(first, second, [firstFloor, secondFloor], args.bandwidthMbit), ""]
        : []),
      `Cells read / written: ${first.cells.read.toLocaleString("en")} / ${first.cells.written.toLocaleString("en")} (first), ` +
        `${second.cells.read.toLocaleString("en")} / ${second.cells.written.toLocaleString("en")} (no change).`,
      "",
      `${summaryLine(firstSummaryMs, first.scriptMs)} No change: ${summaryLine(secondSummaryMs, second.scriptMs)}`,
      "",
      `Records written: ${first.records.toLocaleString("en")} (first), ${second.records.toLocaleString("en")} (second); ` +
        `executions: ${first.executions} and ${second.executions}. ` +
        (onlyLists
          ? "Second refresh made only the list calls: OK."
          : `Second refresh made ${second.calls > listCalls ? "more than" : "other calls than"} the list calls: FAILED.`),
      "",
    );
    if (!onlyLists) process.exitCode = 1;
    if (alone.length > 0) {
      const larger = Math.max(...alone.map((a) => a.figures.http.batches));
      const fewEnough = first.http.batches <= larger;
      const everyCompany = fundRows === fundsWithMovements;
      lines.push(
        "| companies | API calls | fetchAll rounds | wall time |",
        "|---|---|---|---|",
        ...alone.map(
          (a) =>
            `| ${a.name} alone | ${a.figures.calls} | ${a.figures.http.batches} | ${seconds(a.figures.wallMs)} |`,
        ),
        `| ${alone.map((a) => a.name).join(" and ")} | ${first.calls} | ${first.http.batches} | ${seconds(first.wallMs)} |`,
        "",
        `Funds rows after the first refresh: ${fundRows.toLocaleString("en")} of ${fundsWithMovements.toLocaleString("en")} (every company's): ` +
          (everyCompany ? "OK." : "FAILED (not every company was refreshed)."),
        `${companyCount} companies in ${first.http.batches} fetchAll rounds, the larger alone in ${larger}: ` +
          (fewEnough ? "OK." : "FAILED (more rounds than the larger company alone)."),
        "",
      );
      if (!fewEnough || !everyCompany) process.exitCode = 1;
    }
  } finally {
    await emulator.close();
    await sandbox.close();
  }
  return lines;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.close) {
    const lines = await benchClose({
      latencyMs: args.latencyMs,
      batch: args.batch,
      reports: args.closeReports,
    });
    for (const line of lines) console.log(line);
    return;
  }
  const build = buildIfNeeded();
  if (build.error)
    console.error(`npm run build failed (${build.error}); measuring a build of the script alone.`);
  const dist = privateBuild();
  const profiler = args.profile ? new CpuProfiler(dist) : null;
  if (args.liveHeap) enableCollect();
  console.log(
    `# Refresh benchmark (${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node})\n`,
  );
  for (const name of args.sizes) {
    for (const line of await benchSize(name, dist, args, profiler)) console.log(line);
  }
  profiler?.close();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
