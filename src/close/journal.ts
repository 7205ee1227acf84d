/**
 * The month's journal: one voucher per company, currency and month; per report a debit line
 * (its policy's expense account) and a credit line (its fund's account, or the employee payable
 * account) of ReportTotalApproved, in integer cents. Debits equal credits in every voucher and a
 * voucher holds one currency, checked as the journal is built (a journal that breaks either is
 * never returned). Each report is in exactly one voucher, or blocked with its reason.
 */
import type { ExpenseReport } from "../api/types";
import type { CompanyKey } from "../company/model";
import { type AccountRow, accountsOf, type BlockReason } from "./accounts";
import { inMonth, monthWindow } from "./month";
import { type PatternProblem, voucherCodes } from "./voucher";

/** One company's part of the close: its reports read, its accounts, its codes used before. */
export interface CompanyClose {
  company: CompanyKey;
  companyName: string;
  reports: readonly ExpenseReport[];
  /** Voucher codes this company's earlier journals of the month already hold. */
  usedCodes?: ReadonlySet<string>;
}

export interface JournalOptions {
  month: string;
  /** One currency, or null for all. */
  currency: string | null;
  pattern: string;
  accounts: readonly AccountRow[];
}

export interface JournalLine {
  voucher: string;
  company: CompanyKey;
  companyName: string;
  /** The voucher's date: the month's last day, "YYYY-MM-DD". */
  date: string;
  currency: string;
  account: string;
  costCentre: string;
  debitCents: number;
  creditCents: number;
  reportId: number;
  reportNumber: string;
  employeeName: string;
  /** Shown on the credit line of a report without a fund (the employee payable). */
  employeeIdentification: string;
  description: string;
}

export interface Voucher {
  code: string;
  company: CompanyKey;
  companyName: string;
  currency: string;
  month: string;
  date: string;
  lines: JournalLine[];
  debitCents: number;
  creditCents: number;
  reports: number;
}

export interface BlockedReport {
  company: CompanyKey;
  companyName: string;
  reportId: number;
  reportNumber: string;
  employeeName: string;
  currency: string;
  cents: number;
  reason: BlockReason;
  /** Every account the Accounts sheet lacks for it (the reason's among them when it is one). */
  lacking: BlockReason[];
}

export type JournalResult =
  | { ok: true; vouchers: Voucher[]; blocked: BlockedReport[] }
  | { ok: false; company: CompanyKey; companyName: string; problem: PatternProblem };

/** A report of the close: closed, not integrated, closed in the month, of the currency asked. */
function belongs(report: ExpenseReport, options: JournalOptions): boolean {
  return (
    report.status === 1 &&
    report.integrated !== true &&
    inMonth(report.closeDate, options.month) &&
    (options.currency === null || report.currency === options.currency)
  );
}

/** A line's description: the report number and the employee (language-free). */
function description(report: ExpenseReport, credit: "fund" | "employee" | null): string {
  const who =
    credit === "employee" && report.employeeIdentification.trim() !== ""
      ? `${report.employeeName} (${report.employeeIdentification})`
      : report.employeeName;
  return `${report.reportNumber} · ${who}`;
}

/** Builds the journal of every company of the close. */
export function buildJournal(companies: readonly CompanyClose[], options: JournalOptions): JournalResult {
  const { until } = monthWindow(options.month);
  const vouchers: Voucher[] = [];
  const blocked: BlockedReport[] = [];
  for (const part of companies) {
    const accounts = accountsOf(options.accounts, part.company);
    const seen = new Set<number>();
    const byCurrency = new Map<string, { report: ExpenseReport; lines: [JournalLine, JournalLine] }[]>();
    const sorted = [...part.reports].sort((a, b) => a.id - b.id);
    for (const report of sorted) {
      // A report read twice (two pages overlapping) is booked once.
      if (seen.has(report.id) || !belongs(report, options)) continue;
      seen.add(report.id);
      const found = accounts.lookup(report);
      if (!found.ok) {
        blocked.push({
          company: part.company,
          companyName: part.companyName,
          reportId: report.id,
          reportNumber: report.reportNumber,
          employeeName: report.employeeName,
          currency: report.currency,
          cents: report.reportTotalApprovedCents,
          reason: found.reason,
          lacking: accounts.lacking(report),
        });
        continue;
      }
      const { debit, credit, creditTo, costCentre } = found.accounts;
      const common = {
        voucher: "",
        company: part.company,
        companyName: part.companyName,
        date: until,
        currency: report.currency,
        costCentre,
        reportId: report.id,
        reportNumber: report.reportNumber,
        employeeName: report.employeeName,
      };
      const cents = report.reportTotalApprovedCents;
      const lines: [JournalLine, JournalLine] = [
        {
          ...common,
          account: debit,
          debitCents: cents,
          creditCents: 0,
          employeeIdentification: "",
          description: description(report, null),
        },
        {
          ...common,
          account: credit,
          debitCents: 0,
          creditCents: cents,
          employeeIdentification: creditTo === "employee" ? report.employeeIdentification : "",
          description: description(report, creditTo),
        },
      ];
      byCurrency.set(report.currency, [...(byCurrency.get(report.currency) ?? []), { report, lines }]);
    }
    const currencies = [...byCurrency.keys()].sort();
    const codes = voucherCodes(
      options.pattern,
      part.companyName,
      options.month,
      currencies,
      part.usedCodes ?? new Set(),
    );
    if (!codes.ok)
      return { ok: false, company: part.company, companyName: part.companyName, problem: codes.problem };
    currencies.forEach((currency, i) => {
      const code = codes.codes[i] as string;
      const entries = byCurrency.get(currency) ?? [];
      const lines = entries.flatMap((e) => e.lines.map((line) => ({ ...line, voucher: code })));
      vouchers.push(
        balanced({
          code,
          company: part.company,
          companyName: part.companyName,
          currency,
          month: options.month,
          date: until,
          lines,
          debitCents: sum(lines, "debitCents"),
          creditCents: sum(lines, "creditCents"),
          reports: entries.length,
        }),
      );
    });
  }
  return { ok: true, vouchers, blocked };
}

function sum(lines: readonly JournalLine[], side: "debitCents" | "creditCents"): number {
  return lines.reduce((total, line) => total + line[side], 0);
}

/** The voucher, once its debits equal its credits and it holds one currency; else a thrown bug. */
export function balanced(voucher: Voucher): Voucher {
  const currencies = new Set(voucher.lines.map((l) => l.currency));
  if (
    voucher.debitCents !== voucher.creditCents ||
    currencies.size > 1 ||
    !Number.isSafeInteger(voucher.debitCents)
  ) {
    throw new Error(
      `Voucher ${voucher.code} is not balanced in one currency: debits ${voucher.debitCents}, credits ${voucher.creditCents}, currencies ${[...currencies].join(", ")}`,
    );
  }
  return voucher;
}

/** Every line of the journal, voucher by voucher. */
export function journalLines(vouchers: readonly Voucher[]): JournalLine[] {
  return vouchers.flatMap((v) => v.lines);
}

/** What makes a journal, as the sheet holds it, unfit to approve. */
export type JournalProblem =
  | { code: "unbalanced"; voucher: string; debitCents: number; creditCents: number }
  | { code: "mixedCurrencies"; voucher: string; currencies: string[] }
  | { code: "reportTwice"; reportId: number; vouchers: string[] }
  | { code: "noReport"; voucher: string };

/**
 * The journal's problems, voucher by voucher: debits that differ from credits, currencies
 * mixed, a report in two vouchers, a line without a report. None for a journal as built.
 */
export function journalProblems(lines: readonly JournalLine[]): JournalProblem[] {
  const problems: JournalProblem[] = [];
  const vouchers = new Map<string, JournalLine[]>();
  for (const line of lines) vouchers.set(line.voucher, [...(vouchers.get(line.voucher) ?? []), line]);
  const reportVouchers = new Map<string, Set<string>>();
  for (const [voucher, own] of vouchers) {
    const debitCents = sum(own, "debitCents");
    const creditCents = sum(own, "creditCents");
    if (debitCents !== creditCents) problems.push({ code: "unbalanced", voucher, debitCents, creditCents });
    const currencies = [...new Set(own.map((l) => l.currency))];
    if (currencies.length > 1) problems.push({ code: "mixedCurrencies", voucher, currencies });
    for (const line of own) {
      if (!Number.isInteger(line.reportId) || line.reportId <= 0) {
        problems.push({ code: "noReport", voucher });
        break;
      }
      const key = `${line.company}|${line.reportId}`;
      reportVouchers.set(key, (reportVouchers.get(key) ?? new Set()).add(voucher));
    }
  }
  for (const [key, codes] of reportVouchers) {
    if (codes.size > 1) {
      problems.push({ code: "reportTwice", reportId: Number(key.split("|")[1]), vouchers: [...codes] });
    }
  }
  return problems;
}
