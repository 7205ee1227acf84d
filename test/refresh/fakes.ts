/** In-memory stand-ins for the sheets, the service and the property store of a refresh. */
import { HttpError } from "../../src/api/errors";
import type { ExpenseReport, Fund } from "../../src/api/types";
import type {
  EngineDeps,
  ListPage,
  Read,
  RefreshOptions,
  RefreshReader,
  RefreshSheets,
  SheetTarget,
} from "../../src/refresh/engine";
import { type AccountMark, markOf } from "../../src/settings/account-mark";
import { applyToSheet, type SheetAccess } from "../../src/sheets/apply";
import type { CellValue } from "../../src/sheets/cells";
import type { RefreshPlan } from "../../src/sheets/merge";

export class MemorySheet implements SheetAccess {
  values: CellValue[][] = [];
  formulas: string[][] = [];
  formats: string[][] = [];
  keys: string[] | null = null;
  writes = 0;
  constructor(readonly name: string) {}
  read() {
    if (this.values.length === 0) return null;
    return { name: this.name, values: this.values, formulas: this.formulas, formats: this.formats };
  }
  write(plan: RefreshPlan) {
    this.writes++;
    this.values = plan.values.map((r) =>
      r.map((v) => (typeof v === "string" && v.startsWith("=") ? "(formula)" : v)),
    );
    this.formulas = plan.values.map((r) =>
      r.map((v) => (typeof v === "string" && v.startsWith("=") ? v : "")),
    );
    this.formats = plan.formats.map((r) => [...r]);
    // Trailing blank rows are not part of the used area.
    while (this.values.length > 1 && (this.values.at(-1) as CellValue[]).every((v) => v === "")) {
      this.values.pop();
      this.formulas.pop();
      this.formats.pop();
    }
    return true;
  }
  layout() {
    return this.keys;
  }
  saveLayout(keys: readonly string[]) {
    this.keys = [...keys];
  }
  /** Data rows' first cells. */
  ids(): CellValue[] {
    return this.values.slice(1).map((r) => r[0] as CellValue);
  }
}

export function memorySheets() {
  const sheets: Record<SheetTarget, MemorySheet> = {
    funds: new MemorySheet("Funds"),
    transactions: new MemorySheet("Fund transactions"),
    reports: new MemorySheet("Expense reports"),
    files: new MemorySheet("Report files"),
  };
  const port: RefreshSheets = {
    apply(target, update) {
      const plan = applyToSheet(sheets[target], update, {
        language: "en",
        mode: "keep",
        missingNote: "gone",
      });
      return plan.counts.updated + plan.counts.added;
    },
    isEmpty: (target) => sheets[target].values.length <= 1,
  };
  return { sheets, port };
}

export function memoryStore() {
  const data = new Map<string, string>();
  return {
    data,
    getProperty: (k: string) => data.get(k) ?? null,
    setProperty: (k: string, v: string) => data.set(k, v),
    deleteProperty: (k: string) => data.delete(k),
  };
}

/** A service over arrays, paging like the spec says, logging every batch it receives. */
export class FakeService {
  batches: { endpoint: string; size: number; kinds?: string[] }[] = [];
  failReportsAt: number | null = null;
  /** Pages larger than this come back cut to it (Records.Pages counted at this size). */
  largestPage: number | null = null;
  /** A page size above this is refused with an HTTP 400 for the whole batch. */
  refusePagesAbove: number | null = null;
  constructor(
    public funds: Fund[],
    public reports: ExpenseReport[],
  ) {}
  private page<T>(list: T[], q: Record<string, unknown>): ListPage<T> {
    const asked = Number(q.ResultsPerPage);
    if (this.refusePagesAbove !== null && asked > this.refusePagesAbove) {
      throw new HttpError("list", 400, `ResultsPerPage must be at most ${this.refusePagesAbove}`, "refused");
    }
    const size = Math.min(asked, this.largestPage ?? asked);
    const page = Number(q.Page);
    return {
      items: list.slice((page - 1) * size, page * size),
      pages: Math.max(1, Math.ceil(list.length / size)),
      total: list.length,
    };
  }
  fundPages(queries: readonly Record<string, unknown>[]) {
    this.batches.push({ endpoint: "getFunds", size: queries.length });
    return queries.map((q) =>
      this.page(
        this.funds.map(({ transactions: _t, ...f }) => f as Fund),
        q,
      ),
    );
  }
  reportPages(queries: readonly Record<string, unknown>[]) {
    this.batches.push({ endpoint: "getExpenseReports", size: queries.length });
    if (
      this.failReportsAt !== null &&
      this.batches.filter((b) => b.endpoint === "getExpenseReports").length >= this.failReportsAt
    ) {
      throw new Error("getExpenseReports: the service answered HTTP 503.");
    }
    return queries.map((q) => {
      const since = String(q.Since);
      const until = String(q.Until);
      const inWindow = this.reports.filter(
        (r) => (r.closeDate ?? "") >= since && (r.closeDate ?? "") <= until,
      );
      return this.page(inWindow, q);
    });
  }
  fundsById(ids: readonly number[]) {
    this.batches.push({ endpoint: "getFund", size: ids.length });
    return ids.map((id) => this.funds.find((f) => f.id === id) ?? null);
  }
  reportsById(ids: readonly number[]) {
    this.batches.push({ endpoint: "getExpenseReport", size: ids.length });
    return ids.map((id) => this.reports.find((r) => r.id === id) ?? null);
  }
  calls(endpoint: string): number {
    return this.batches.filter((b) => b.endpoint === endpoint).reduce((n, b) => n + b.size, 0);
  }
}

/** The endpoint each kind of read calls. */
const READ_ENDPOINTS: Record<Read["kind"], string> = {
  fund: "getFund",
  report: "getExpenseReport",
  fundPage: "getFunds",
  reportPage: "getExpenseReports",
};

/**
 * The reader port of a FakeService (its list arrays are named like the port's methods); with
 * `mixed`, it also sends reads of several kinds in one batch, logged as one "batch" entry whose
 * `kinds` lists each read's endpoint.
 */
export function readerOf(service: FakeService, mixed = false): RefreshReader {
  const reader: RefreshReader = {
    fundPages: (q) => service.fundPages(q),
    reportPages: (q) => service.reportPages(q),
    funds: (ids) => service.fundsById(ids),
    reports: (ids) => service.reportsById(ids),
  };
  if (mixed) {
    reader.batch = (reads: readonly Read[]) => {
      const kinds = reads.map((r) => READ_ENDPOINTS[r.kind]);
      const before = service.batches.length;
      const results = reads.map((r) =>
        r.kind === "fund"
          ? (service.fundsById([r.id])[0] ?? null)
          : r.kind === "report"
            ? (service.reportsById([r.id])[0] ?? null)
            : r.kind === "fundPage"
              ? (service.fundPages([r.query])[0] as ListPage<Fund>)
              : (service.reportPages([r.query])[0] as ListPage<ExpenseReport>),
      );
      service.batches.splice(before);
      service.batches.push({ endpoint: "batch", size: reads.length, kinds });
      return results;
    };
  }
  return reader;
}

export function makeFund(id: number, movements: number[] = [1000]): Fund {
  const transactions = movements.map((cents, i) => ({
    type: (cents >= 0 ? 1 : 2) as 1 | 2,
    typeName: cents >= 0 ? "Deposit" : "Withdrawal",
    amountCents: Math.abs(cents),
    date: `2024-01-${String((i % 28) + 1).padStart(2, "0")}`,
  }));
  const deposits = movements.filter((c) => c >= 0).reduce((a, b) => a + b, 0);
  const withdrawals = -movements.filter((c) => c < 0).reduce((a, b) => a + b, 0);
  return {
    id,
    title: `Fund ${id}`,
    code: String(id).padStart(5, "0"),
    currency: "CLP",
    idAssignTo: 1,
    idCreator: 1,
    depositsCents: deposits,
    withdrawalsCents: withdrawals,
    balanceCents: deposits - withdrawals,
    status: 1,
    createdAt: "2024-01-01 10:00:00",
    expirationDate: null,
    flexibleFund: false,
    manualDeposit: false,
    automaticBlock: false,
    transactions,
  };
}

export function makeReport(id: number, closeDate: string, extra: Record<string, string> = {}): ExpenseReport {
  return {
    id,
    title: `Report ${id}`,
    reportNumber: String(id).padStart(6, "0"),
    sendDate: closeDate,
    closeDate,
    employeeId: 1,
    employeeName: "Ana",
    employeeIdentification: "",
    approverId: 2,
    approverName: "Luis",
    policyId: 3,
    policyName: "General",
    status: 1,
    customStatus: "",
    fundId: 0,
    fundName: "",
    reportTotalCents: 12345,
    reportTotalApprovedCents: 12345,
    currency: "CLP",
    note: "",
    integrated: false,
    integrationDate: null,
    integrationExternalCode: "",
    integrationInternalCode: "",
    nbrExpenses: 1,
    nbrApprovedExpenses: 1,
    nbrRejectedExpenses: 0,
    extraFields: Object.entries(extra).map(([name, value]) => ({ name, value, code: "" })),
    files: [],
  };
}

/** Refresh options of small pages and batches: reports of the first half of 2024, rows kept, English. */
export function smallRefreshOptions() {
  return {
    pageSize: 10,
    batchSize: 4,
    fundFilters: {},
    reportWindow: { since: "2024-01-01", until: "2024-06-30" },
    reportFilters: {},
    missingRows: "keep" as const,
  };
}

/**
 * The engine tests' options: pages of 10, batches of 4, funds in ascending order, reports closed
 * from 2022 to mid-2024 by their date, rows kept, English.
 */
export function engineOptions(): RefreshOptions {
  return {
    pageSize: 10,
    batchSize: 4,
    fundFilters: { Order: "ASC" },
    reportWindow: { since: "2022-01-01", until: "2024-06-30" },
    reportFilters: { TypeDateFilter: 1 },
    missingRows: "keep",
  };
}

/**
 * A refresh's deps over `service` (its reader `mixed` or not): the sheets and the fingerprints in
 * memory (`sheets`, `store`), with `options` and `more`.
 */
export function refreshSetup(
  service: FakeService,
  options: RefreshOptions,
  more: Partial<EngineDeps> = {},
  mixed = false,
) {
  const { sheets, port } = memorySheets();
  const store = memoryStore();
  const deps: EngineDeps = {
    reader: readerOf(service, mixed),
    sheets: port,
    fingerprints: store,
    options,
    ...more,
  };
  return { service, sheets, store, deps };
}

/** The account check's service: 35 funds, and 45 reports over three one-year pieces (2022–2024). */
export function accountService(): FakeService {
  return new FakeService(
    Array.from({ length: 35 }, (_v, i) => makeFund(i + 1, [1000, -200 * (i % 3)])),
    Array.from({ length: 45 }, (_v, i) => makeReport(1000 + i, `202${2 + (i % 3)}-0${(i % 6) + 1}-15`)),
  );
}

/** The mark of the fake service's account: its oldest funds as it serves them. */
export const ownMark = () =>
  markOf(
    [1, 2, 3].map((id) => makeFund(id)),
    1,
  ) as AccountMark;

/** Another account's: the same Ids, created elsewhere. */
export const otherMark = (): AccountMark => ({
  funds: [1, 2, 3].map((id) => ({ id, createdAt: "2020-02-02 09:00:00", creator: 2001 })),
  at: 1,
});
