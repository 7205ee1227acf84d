/**
 * In-memory stand-ins for the ports of the outbox core: a sheet that behaves like the Outbox
 * sheet (rows of cells, add-on block written separately), a small ledger of funds and reports
 * with the service's rules, faults that drop a write before or after it is applied, and an
 * audit that keeps every entry.
 */
import { createClient } from "../../src/api";
import type { Transport } from "../../src/api/transport";
import type { DateFormatter } from "../../src/outbox/cells";
import { type CellValue, OUTBOX_COLUMNS, OWNED_COLUMNS, type OwnedCells } from "../../src/outbox/columns";
import { previewOutbox } from "../../src/outbox/preview";
import { type RecordStore, textRecordStore, type WriteRecord } from "../../src/outbox/records";
import type { WriteRequest } from "../../src/outbox/requests";
import { readOutboxRow } from "../../src/outbox/rows";
import { type OutboxSheetPort, type RunContext, runOutbox } from "../../src/outbox/run";
import { runWords } from "../../src/outbox/run/words";
import { servicePort } from "../../src/outbox/service";
import type { FundListItem, FundState, ReportState } from "../../src/outbox/snapshot";
import { formWords } from "../../src/outbox/words";
import type { AuditPort, ServicePort, WriteFailure, WriteResult } from "../../src/outbox/write";
import { fakeClock } from "../api/fakes";

export const formatUtc: DateFormatter = (date, pattern) => {
  const iso = date.toISOString();
  return pattern === "yyyy-MM-dd" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
};

/** Thrown to stand for the end of an execution (the 6-minute limit): nothing after it runs. */
export class ExecutionStopped extends Error {}

export class FakeSheet implements OutboxSheetPort {
  rows: CellValue[][];
  halted = false;
  flushes = 0;
  writes: { rowNumber: number; cells: OwnedCells }[] = [];
  /** Runs after each write of the add-on's block: lets a test edit the sheet "during" a run. */
  afterWrite: ((rowNumber: number, cells: OwnedCells) => void) | null = null;

  constructor(userRows: CellValue[][]) {
    this.rows = [OUTBOX_COLUMNS.map((c) => c), ...userRows.map((r) => FakeSheet.pad(r))];
  }

  static pad(row: CellValue[]): CellValue[] {
    const out = [...row];
    while (out.length < OUTBOX_COLUMNS.length) out.push("");
    return out;
  }

  lastRow(): number {
    return this.rows.length;
  }
  readRow(rowNumber: number): CellValue[] {
    this.check();
    return [...(this.rows[rowNumber - 1] ?? OUTBOX_COLUMNS.map(() => ""))];
  }
  readAll(): CellValue[][] {
    this.check();
    return this.rows.slice(1).map((r) => [...r]);
  }
  readOperationKeys(): string[] {
    this.check();
    const index = OUTBOX_COLUMNS.indexOf("operationKey");
    return this.rows.slice(1).map((r) => String(r[index] ?? ""));
  }
  writeOwned(rowNumber: number, cells: OwnedCells): void {
    this.check();
    const row = this.rows[rowNumber - 1];
    if (!row) throw new Error(`no row ${rowNumber}`);
    for (const column of OWNED_COLUMNS) row[OUTBOX_COLUMNS.indexOf(column)] = cells[column];
    this.writes.push({ rowNumber, cells });
    this.afterWrite?.(rowNumber, cells);
  }
  flush(): void {
    this.flushes += 1;
  }
  cell(rowNumber: number, column: (typeof OUTBOX_COLUMNS)[number]): CellValue {
    return this.rows[rowNumber - 1]?.[OUTBOX_COLUMNS.indexOf(column)] ?? "";
  }
  setCell(rowNumber: number, column: (typeof OUTBOX_COLUMNS)[number], value: CellValue): void {
    const row = this.rows[rowNumber - 1];
    if (row) row[OUTBOX_COLUMNS.indexOf(column)] = value;
  }
  insertRowBefore(rowNumber: number, values: CellValue[]): void {
    this.rows.splice(rowNumber - 1, 0, FakeSheet.pad(values));
  }
  private check(): void {
    if (this.halted) throw new ExecutionStopped("Exceeded maximum execution time");
  }
}

/**
 * "late": no answer in time (the call reports an unknown outcome), and the request lands
 * `delayMs` later on the ledger's clock: the network is late, not just lost.
 */
export type Fault = {
  endpoint: WriteRequest["operation"] | "*";
  when: "before" | "after" | "halt-after" | "late";
  delayMs?: number;
};

export class FakeLedger implements ServicePort {
  funds = new Map<number, FundState>();
  reports = new Map<
    number,
    { id: number; integrated: boolean; code: string; date: string; customStatus: string }
  >();
  faults: Fault[] = [];
  sent: WriteRequest[] = [];
  reads = 0;
  adminAllowed = true;
  private nextId = 100;
  private tick = 0;
  /** Set by a test to make the whole execution stop after the call (sheet included). */
  onHalt: (() => void) | null = null;
  /** The clock late requests land by; with none, they never land. */
  clock: FakeClock | null = null;
  /** Requests that timed out and land later. */
  inFlight: { at: number; request: WriteRequest }[] = [];
  /** Funds whose totals the service reports beyond what can be read exactly. */
  unreadable = new Set<number>();
  /** Every movement applied, in order: what the service's ledger holds. */
  applied: WriteRequest[] = [];

  /** Applies the late requests whose time has come. */
  land(): void {
    if (!this.clock) return;
    const now = this.clock.ms;
    const due = this.inFlight.filter((r) => r.at <= now);
    this.inFlight = this.inFlight.filter((r) => r.at > now);
    for (const { request } of due) {
      try {
        this.apply(request);
      } catch (_err) {
        // A late request the service refuses changes nothing.
      }
    }
  }

  addFund(partial: Partial<FundState> & { id: number; balance: number }): FundState {
    const fund: FundState = {
      title: `Fund ${partial.id}`,
      code: "",
      currency: "CLP",
      employeeId: 7,
      status: 1,
      flexible: false,
      deposits: partial.balance,
      charges: 0,
      createdAt: this.stamp(),
      transactions: [{ type: 1, amount: partial.balance, date: "2026-01-01" }],
      ...partial,
    };
    this.funds.set(fund.id, fund);
    return fund;
  }

  addReport(id: number): void {
    this.reports.set(id, { id, integrated: false, code: "", date: "", customStatus: "" });
  }

  private stamp(): string {
    this.tick += 1;
    return `2026-01-01 00:${String(Math.floor(this.tick / 60)).padStart(2, "0")}:${String(this.tick % 60).padStart(2, "0")}`;
  }

  getFund(id: number): FundState {
    this.land();
    this.reads += 1;
    const fund = this.funds.get(id);
    if (!fund) throw { outcome: "refused", message: `Id: no fund ${id}`, status: 404 } satisfies WriteFailure;
    if (this.unreadable.has(id)) {
      return {
        ...structuredClone(fund),
        deposits: 0,
        charges: 0,
        balance: 0,
        unreadableTotals: `Deposits of fund ${id} is too large`,
      };
    }
    return structuredClone(fund);
  }

  getReport(id: number): ReportState {
    this.land();
    this.reads += 1;
    const report = this.reports.get(id);
    if (!report)
      throw { outcome: "refused", message: `Id: no report ${id}`, status: 404 } satisfies WriteFailure;
    return { ...report };
  }

  listFundsNewestFirst(page: number): { funds: FundListItem[]; pages: number } {
    this.land();
    this.reads += 1;
    const all = [...this.funds.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    const size = 2;
    return {
      funds: all.slice((page - 1) * size, page * size).map((f) => ({
        id: f.id,
        title: f.title,
        code: f.code,
        employeeId: f.employeeId,
        createdAt: f.createdAt,
      })),
      pages: Math.max(1, Math.ceil(all.length / size)),
    };
  }

  send(request: WriteRequest): WriteResult {
    this.land();
    this.sent.push(request);
    const index = this.faults.findIndex((f) => f.endpoint === "*" || f.endpoint === request.operation);
    const fault = index >= 0 ? this.faults.splice(index, 1)[0] : undefined;
    if (fault?.when === "before")
      throw { outcome: "unknown", message: "connection dropped" } satisfies WriteFailure;
    if (fault?.when === "late") {
      this.inFlight.push({ at: (this.clock?.ms ?? 0) + (fault.delayMs ?? 75_000), request });
      throw { outcome: "unknown", message: "Timeout: the service did not answer" } satisfies WriteFailure;
    }
    if (!this.adminAllowed) {
      throw {
        outcome: "refused",
        message: "IdAdmin: not allowed to administer funds",
        status: 403,
      } satisfies WriteFailure;
    }
    const result = this.apply(request);
    if (fault?.when === "after")
      throw { outcome: "unknown", message: "connection dropped" } satisfies WriteFailure;
    if (fault?.when === "halt-after") {
      this.onHalt?.();
      throw new ExecutionStopped("Exceeded maximum execution time");
    }
    return result;
  }

  private fund(id: number): FundState {
    const fund = this.funds.get(id);
    if (!fund) throw { outcome: "refused", message: `Id: no fund ${id}`, status: 404 } satisfies WriteFailure;
    return fund;
  }

  private apply(request: WriteRequest): WriteResult {
    const result = this.applyOnce(request);
    this.applied.push(request);
    return result;
  }

  private applyOnce(request: WriteRequest): WriteResult {
    switch (request.operation) {
      case "createFund": {
        this.nextId += 1;
        const fund = this.addFund({
          id: this.nextId,
          balance: request.amount,
          title: request.name,
          code: request.code ?? "",
          currency: request.currency,
          employeeId: request.employeeId,
          flexible: request.flexible ?? false,
        });
        return { kind: "fund", fund: structuredClone(fund) };
      }
      case "updateFund": {
        const fund = this.fund(request.fundId);
        fund.title = request.name;
        if (request.code !== undefined) fund.code = request.code;
        if (request.flexible !== undefined) fund.flexible = request.flexible;
        return { kind: "fund", fund: structuredClone(fund) };
      }
      case "deposit":
      case "withdraw": {
        const fund = this.fund(request.fundId);
        const type = request.operation === "deposit" ? 1 : 2;
        fund.transactions.push({ type, amount: request.amount, date: "2026-02-01" });
        if (type === 1) fund.deposits += request.amount;
        else fund.charges += request.amount;
        fund.balance = fund.deposits - fund.charges;
        return { kind: "fund", fund: structuredClone(fund) };
      }
      case "setFundStatus": {
        const fund = this.fund(request.fundId);
        fund.status = request.status;
        return { kind: "fund", fund: structuredClone(fund) };
      }
      case "markIntegrated":
      case "markNotIntegrated":
      case "setCustomStatus": {
        const report = this.reports.get(request.reportId);
        if (!report)
          throw { outcome: "refused", message: `Id: no report ${request.reportId}` } satisfies WriteFailure;
        if (request.operation === "markIntegrated")
          Object.assign(report, { integrated: true, code: request.code, date: request.date });
        if (request.operation === "markNotIntegrated") Object.assign(report, { integrated: false, date: "" });
        if (request.operation === "setCustomStatus") report.customStatus = request.status;
        return {
          kind: "report",
          report: {
            id: report.id,
            title: "",
            reportNumber: String(report.id),
            integrated: report.integrated,
          },
        };
      }
    }
  }

  sentOf(operation: WriteRequest["operation"]): number {
    return this.sent.filter((r) => r.operation === operation).length;
  }
}

export interface AuditEntry {
  kind: "before" | "after" | "note";
  key: string;
  operation: string;
  outcome?: string;
  message?: string;
}

export class FakeAudit implements AuditPort {
  entries: AuditEntry[] = [];
  beforeWrite(entry: { key: string; request: WriteRequest }): unknown {
    this.entries.push({ kind: "before", key: entry.key, operation: entry.request.operation });
    return entry;
  }
  afterWrite(handle: unknown, end: { outcome: "ok" | "refused" | "unknown"; message: string }): void {
    const h = handle as { key: string; request: WriteRequest };
    this.entries.push({
      kind: "after",
      key: h.key,
      operation: h.request.operation,
      outcome: end.outcome,
      message: end.message,
    });
  }
  note(entry: { key: string; request: WriteRequest; message: string }): void {
    this.entries.push({
      kind: "note",
      key: entry.key,
      operation: entry.request.operation,
      message: entry.message,
    });
  }
}

/**
 * Document properties as a map: the records' store, which no cell can reach. A value longer
 * than Apps Script's 9 KB per property is refused with its message, as the real store does.
 */
export class MemoryProperties {
  values = new Map<string, string>();
  getProperty(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setProperty(key: string, value: string): void {
    if (Buffer.byteLength(key + value, "utf8") > 9 * 1024) throw new Error("Argument too large: value");
    this.values.set(key, value);
  }
  deleteProperty(key: string): void {
    this.values.delete(key);
  }
  getProperties(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

export function memoryRecords(): RecordStore & { properties: MemoryProperties } {
  const properties = new MemoryProperties();
  return Object.assign(textRecordStore(properties), { properties });
}

/** A clock that moves only when told to. */
export class FakeClock {
  constructor(public ms = Date.UTC(2026, 1, 2, 9, 0, 0)) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export function runContext(
  sheet: FakeSheet,
  ledger: FakeLedger,
  audit: FakeAudit,
  clock = new FakeClock(),
  records: RecordStore = memoryRecords(),
): RunContext {
  let n = 0;
  return {
    sheet,
    records,
    service: ledger,
    audit,
    now: clock.now,
    words: runWords("en"),
    format: formatUtc,
    newKey: () => {
      n += 1;
      return `key-${n}`;
    },
    budgetMs: 60_000,
    adminId: 1,
  };
}

/** A user row: operation label, target id, then named cells. */
export function userRow(
  operation: string,
  targetId: CellValue,
  cells: Partial<Record<(typeof OUTBOX_COLUMNS)[number], CellValue>> = {},
) {
  const row: CellValue[] = OUTBOX_COLUMNS.map(() => "");
  row[OUTBOX_COLUMNS.indexOf("operation")] = operation;
  row[OUTBOX_COLUMNS.indexOf("targetId")] = targetId;
  for (const [column, value] of Object.entries(cells)) {
    row[OUTBOX_COLUMNS.indexOf(column as (typeof OUTBOX_COLUMNS)[number])] = value as CellValue;
  }
  return row;
}

/** What the Preview reads of a fund in `ledger`: its currency, balance, flexibility and status. */
export function fundFacts(ledger: FakeLedger) {
  return (id: number) => {
    const fund = ledger.funds.get(id);
    return fund
      ? { currency: fund.currency, balance: fund.balance, flexible: fund.flexible, status: fund.status }
      : null;
  };
}

/** The Preview of the rows `context.sheet` holds now, of the funds in `ledger`, at the context's now. */
export function previewSheet(
  context: RunContext,
  sheet: FakeSheet,
  ledger: FakeLedger,
  records: RecordStore,
) {
  return previewOutbox(
    sheet.readAll().map((values, i) => readOutboxRow(values, i + 2)),
    fundFacts(ledger),
    { format: context.format, now: context.now(), adminId: 1 },
    records.all(),
  );
}

/**
 * A run of an hour's budget that `ledger` may halt (a fault's halt: the execution killed, the
 * sheet taking no more writes); the run ends there, as a killed one does, and the sheet writes
 * again for the next.
 */
export function haltingRun(context: RunContext, sheet: FakeSheet, ledger: FakeLedger): () => void {
  context.budgetMs = 60 * 60_000;
  ledger.onHalt = () => {
    sheet.halted = true;
  };
  return () => {
    try {
      runOutbox(context);
    } catch (error) {
      if (!(error instanceof ExecutionStopped)) throw error;
    }
    sheet.halted = false;
  };
}

/**
 * The Outbox core on in-memory ports, as most of its tests set it up: a ledger holding `funds`
 * and `reports`, whose late requests land by the run's clock; the sheet holding `rows`; an audit;
 * the records, holding `records`; the run's context; and the preview of the sheet as it is then.
 */
export function outboxCore(
  rows: ReturnType<typeof userRow>[],
  funds: Parameters<FakeLedger["addFund"]>[0][],
  options: { reports?: number[]; records?: WriteRecord[] } = {},
) {
  const ledger = new FakeLedger();
  for (const fund of funds) ledger.addFund(fund);
  for (const report of options.reports ?? []) ledger.addReport(report);
  const clock = new FakeClock();
  ledger.clock = clock;
  const sheet = new FakeSheet(rows);
  const audit = new FakeAudit();
  const records = memoryRecords();
  for (const record of options.records ?? []) records.put(record);
  const context = runContext(sheet, ledger, audit, clock, records);
  const preview = () => previewSheet(context, sheet, ledger, records);
  return { ledger, sheet, audit, clock, records, context, preview };
}

/** A write's context over the add-on's client on `transport` (admin 7), an audit in memory, the clock. */
export function clientWriteContext(transport: Transport) {
  const client = createClient({
    transport,
    baseUrl: "https://api.example.com/v1",
    token: "t0ken-t0ken-t0ken",
    clock: fakeClock().clock,
  });
  return {
    service: servicePort(client, 7),
    audit: new FakeAudit(),
    now: () => new Date(),
    words: formWords("en"),
  };
}
