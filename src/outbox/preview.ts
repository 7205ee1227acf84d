/**
 * Preview of an Outbox run: which rows would be sent, which are invalid and why (the same
 * messages as the run and the service), the totals per operation and currency in integer
 * cents, and what deserves a second look. Sends nothing.
 */

import { formatCents } from "../api";
import { type Language, type StringKey, translate } from "../ui/strings";
import type { Cents } from "./cells";
import { type FundStatus, MONEY_OPERATIONS, type OutboxOperation, operationLabel } from "./operations";
import type { FieldProblem, WriteRequest } from "./requests";
import { fingerprint, type OutboxRow, type RowContext, requestFromRow } from "./rows";

/** What the preview needs to know about a fund: from the Funds sheet or a fresh read. */
export interface FundFacts {
  currency: string;
  balance: Cents;
  flexible: boolean;
  status: FundStatus;
}

export interface Total {
  operation: OutboxOperation;
  /** null for operations that move no money. */
  currency: string | null;
  amount: Cents;
  count: number;
}

export type Warning =
  | {
      kind: "overBalance";
      rowNumber: number;
      fundId: number;
      amount: Cents;
      balance: Cents;
      currency: string;
    }
  | { kind: "duplicate"; rowNumber: number; otherRow: number }
  | { kind: "closedFund"; rowNumber: number; fundId: number }
  | { kind: "unknownFund"; rowNumber: number; fundId: number };

export interface OutboxPreview {
  toSend: { rowNumber: number; request: WriteRequest }[];
  /** Rows left in Sending or Unknown: checked against the service before anything is sent again. */
  toSettle: number[];
  invalid: { rowNumber: number; problems: FieldProblem[] }[];
  totals: Total[];
  warnings: Warning[];
}

/** The rows a run would act on, in order; Done rows and unedited Refused rows are left alone. */
export function isPendingRow(row: OutboxRow): boolean {
  if (row.isEmpty || row.state === null) return false;
  if (row.state === "Pending") return true;
  return row.state === "Refused" && row.snapshot?.fingerprint !== fingerprint(row);
}

function fundIdOf(request: WriteRequest): number | null {
  return "fundId" in request ? request.fundId : null;
}

function targetKey(request: WriteRequest): string {
  switch (request.operation) {
    case "createFund":
      return `createFund:${request.employeeId}:${request.name}:${request.code ?? ""}`;
    case "markIntegrated":
    case "markNotIntegrated":
      // Marking and unmarking the same report in one batch is the same target twice.
      return `integration:${request.reportId}`;
    case "setCustomStatus":
      return `customStatus:${request.reportId}`;
    default:
      return `${request.operation}:${request.fundId}`;
  }
}

export function previewOutbox(
  rows: readonly OutboxRow[],
  fundFacts: (fundId: number) => FundFacts | null,
  context: RowContext,
): OutboxPreview {
  const preview: OutboxPreview = { toSend: [], toSettle: [], invalid: [], totals: [], warnings: [] };
  const totals = new Map<string, Total>();
  const balances = new Map<number, Cents>();
  const statuses = new Map<number, FundStatus>();
  const seen = new Map<string, number>();

  const addTotal = (operation: OutboxOperation, currency: string | null, amount: Cents) => {
    const key = `${operation}|${currency ?? ""}`;
    const total = totals.get(key) ?? { operation, currency, amount: 0, count: 0 };
    total.amount += amount;
    total.count += 1;
    totals.set(key, total);
  };

  for (const row of rows) {
    if (!row.isEmpty && (row.state === "Sending" || row.state === "Unknown")) {
      preview.toSettle.push(row.rowNumber);
      continue;
    }
    if (!isPendingRow(row)) continue;
    const built = requestFromRow(row, context);
    if (!built.ok) {
      preview.invalid.push({ rowNumber: row.rowNumber, problems: built.problems });
      continue;
    }
    const request = built.request;
    preview.toSend.push({ rowNumber: row.rowNumber, request });

    const key = targetKey(request);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      preview.warnings.push({ kind: "duplicate", rowNumber: row.rowNumber, otherRow: earlier });
    else seen.set(key, row.rowNumber);

    if (request.operation === "createFund") {
      addTotal("createFund", request.currency, request.amount);
      continue;
    }
    const fundId = fundIdOf(request);
    if (fundId === null) {
      addTotal(request.operation, null, 0);
      continue;
    }
    const facts = fundFacts(fundId);
    if (!facts) {
      preview.warnings.push({ kind: "unknownFund", rowNumber: row.rowNumber, fundId });
      addTotal(
        request.operation,
        MONEY_OPERATIONS.has(request.operation) ? "?" : null,
        "amount" in request ? request.amount : 0,
      );
      continue;
    }
    const status = statuses.get(fundId) ?? facts.status;
    if (status === 2 && request.operation !== "setFundStatus") {
      preview.warnings.push({ kind: "closedFund", rowNumber: row.rowNumber, fundId });
    }
    const balance = balances.get(fundId) ?? facts.balance;
    if (request.operation === "deposit") {
      balances.set(fundId, balance + request.amount);
      addTotal("deposit", facts.currency, request.amount);
    } else if (request.operation === "withdraw") {
      if (!facts.flexible && request.amount > balance) {
        preview.warnings.push({
          kind: "overBalance",
          rowNumber: row.rowNumber,
          fundId,
          amount: request.amount,
          balance,
          currency: facts.currency,
        });
      }
      balances.set(fundId, balance - request.amount);
      addTotal("withdraw", facts.currency, request.amount);
    } else {
      if (request.operation === "setFundStatus") statuses.set(fundId, request.status);
      addTotal(request.operation, null, 0);
    }
  }
  preview.totals = [...totals.values()];
  return preview;
}

export function warningText(language: Language, warning: Warning): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  switch (warning.kind) {
    case "overBalance":
      return t("outbox.warn.overBalance", {
        row: warning.rowNumber,
        amount: formatCents(warning.amount, { language }),
        currency: warning.currency,
        balance: formatCents(warning.balance, { language }),
        id: warning.fundId,
      });
    case "duplicate":
      return t("outbox.warn.duplicate", { row: warning.rowNumber, other: warning.otherRow });
    case "closedFund":
      return t("outbox.warn.closedFund", { row: warning.rowNumber, id: warning.fundId });
    case "unknownFund":
      return t("outbox.warn.unknownFund", { row: warning.rowNumber, id: warning.fundId });
  }
}

/** The preview as the text of an alert (or of the run's confirmation). */
/** Warnings and invalid rows listed by name in the preview's text; the rest are counted. */
export const PREVIEW_LIST_LIMIT = 15;

export function previewText(language: Language, preview: OutboxPreview): string {
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const lines: string[] = [];
  if (preview.toSend.length === 0 && preview.toSettle.length === 0 && preview.invalid.length === 0) {
    return t("outbox.preview.nothing");
  }
  lines.push(t("outbox.preview.rows", { count: preview.toSend.length }));
  if (preview.toSettle.length > 0)
    lines.push(t("outbox.preview.reconcile", { count: preview.toSettle.length }));
  if (preview.totals.length > 0) {
    lines.push("", t("outbox.preview.totals"));
    for (const total of preview.totals) {
      const operation = operationLabel(language, total.operation);
      lines.push(
        total.currency === null
          ? `• ${t("outbox.total.noCurrency", { operation, count: total.count })}`
          : `• ${t("outbox.total.line", { operation, currency: total.currency, amount: formatCents(total.amount, { language }), count: total.count })}`,
      );
    }
  }
  // An alert stays readable: the first few of each list, then how many more.
  const listed = <T>(items: readonly T[], line: (item: T) => string) => {
    for (const item of items.slice(0, PREVIEW_LIST_LIMIT)) lines.push(`• ${line(item)}`);
    if (items.length > PREVIEW_LIST_LIMIT)
      lines.push(t("outbox.preview.more", { count: items.length - PREVIEW_LIST_LIMIT }));
  };
  if (preview.warnings.length > 0) {
    lines.push("", t("outbox.preview.warnings"));
    listed(preview.warnings, (warning) => warningText(language, warning));
  }
  if (preview.invalid.length > 0) {
    lines.push("", t("outbox.preview.invalid", { count: preview.invalid.length }));
    listed(preview.invalid, (row) => `${row.rowNumber}: ${row.problems.map((p) => p.message).join("; ")}`);
  }
  return lines.join("\n");
}
