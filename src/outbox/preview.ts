/**
 * Preview of an Outbox run: which rows would be sent, which are invalid and why (the same
 * messages as the run and the service), the totals per operation and currency in integer
 * cents, and what deserves a second look. Sends nothing.
 */

import { formatCents, moneyText } from "../api";
import { type Language, type StringKey, translate } from "../i18n";
import type { Cents } from "./cells";
import {
  type CompanyDirectory,
  FIRST_COMPANY,
  ONE_COMPANY,
  resolveRowCompany,
  severalCompanies,
} from "./companies";
import { describeChanges, describeInFull, describeRequest, tooLongParams } from "./describe";
import { MONEY_OPERATIONS, type OutboxOperation, operationLabel } from "./operations";
import {
  cellTooLongToRecord,
  changedColumns,
  inFlightUntil,
  isUnsettled,
  recordCompany,
  type WriteRecord,
} from "./records";
import type { FieldProblem, WriteRequest } from "./requests";
import { type OutboxRow, problemsText, type RowContext, requestCells, requestFromRow } from "./rows";
import { confirmationKey, confirmedAs, FUND_NOT_FOUND } from "./run/confirmations";
import { likenessOf, mismatchOf, ownedRecords, ownersOfKeys } from "./run/ownership";

/** What the preview needs to know about a fund: from the Funds sheet or a fresh read. */
export interface FundFacts {
  currency: string;
  balance: Cents;
  flexible: boolean;
  /** 1 open; any other number is not open. */
  status: number;
}

export interface Total {
  /** The company's name, when the document has several (totals are then per company too). */
  company?: string;
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
  | { kind: "closedFund" | "blockedFund" | "notOpenFund"; rowNumber: number; fundId: number; status: number }
  | { kind: "unknownFund"; rowNumber: number; fundId: number }
  /** The same request as a done write (a copy of its row, or typed again), however old: sent only when confirmed as such. */
  | ({ kind: "sameAsDone"; rowNumber: number } & SameAs)
  /** The same request as a write not settled yet: it waits, sending nothing. */
  | { kind: "waitsForSame"; rowNumber: number; otherRow: number | null }
  /** Its key names a done or unsettled write whose cells it does not show (sorted, or copied and edited). */
  | { kind: "sortedOrEdited"; rowNumber: number; sent: string }
  /** Done typed or pasted on a row the add-on never wrote Done on: marked Refused, not sent. */
  | { kind: "doneNoKey"; rowNumber: number }
  /** Done shown without its key, on a row with that write's cells: its key is put back, nothing sent. */
  | { kind: "keyRestored"; rowNumber: number; doneAt: string }
  /** A done row whose cells were changed afterwards: nothing more is sent for it. */
  | { kind: "editedDone"; rowNumber: number; doneAt: string; changes: string }
  /** A done row whose State was cleared: restored, not sent. */
  | { kind: "restoreDone"; rowNumber: number; doneAt: string }
  /** Sending or Unknown typed on a row the add-on has no record of: marked Refused, not sent. */
  | { kind: "noRecord"; rowNumber: number }
  /** Its company is one this user may not write to now: left Pending, not sent. */
  | { kind: "companyUnusable"; rowNumber: number; message: string };

/** The earlier write a row's request equals: its row (null when none), when it ended, and how. */
export interface SameAs {
  otherRow: number | null;
  doneAt: string;
  /** Settled by hand as Refused (it may have been applied), not done. */
  byHand?: boolean;
}

/** What a row shown as the same as an earlier write says of it. */
function sameAsNote(language: Language, sameAs: SameAs): string {
  if (sameAs.byHand) return translate(language, "outbox.warn.sameAsRefusedByHand", { date: sameAs.doneAt });
  return sameAs.otherRow === null
    ? translate(language, "outbox.warn.sameAsDone", { date: sameAs.doneAt })
    : translate(language, "outbox.warn.copyOfDone", { other: sameAs.otherRow, date: sameAs.doneAt });
}

/** A write that may move money: a pending row, or an interrupted one that may be sent again. */
export interface MoneyItem {
  /** The company's name, when the document has several. */
  company?: string;
  rowNumber: number;
  request: WriteRequest;
  currency: string | null;
  /** Absent for a pending row; how an interrupted one is taken otherwise. */
  interrupted?: ToSettle;
  /** For a row with the same request as a done write: which, and when it was done. */
  sameAs?: SameAs;
}

/** A write left unsettled by an earlier run or a form: settled by reading before anything on its fund. */
export interface ToSettle {
  /** The key of the company it went to (absent: the first). */
  company?: string;
  /** Its row; null when the row is gone or the write came from a form. */
  rowNumber: number | null;
  /** What was sent (or was about to be). */
  request: WriteRequest;
  /** Until when it may still land (HH:mm in the spreadsheet's zone), when that is later than now. */
  waitingUntil: string | null;
  /** The row's changes since it was sent ("" when none): then nothing new is sent for it in this run. */
  changes: string;
  /**
   * Done or Refused typed in the row's State: it settles the write, nothing sent, if reading the
   * fund cannot tell. Any editor can type it, so the confirmation names it and the run takes it
   * only when confirmed so.
   */
  byHand?: "Done" | "Refused";
}

export interface OutboxPreview {
  toSend: {
    rowNumber: number;
    request: WriteRequest;
    sameAs?: SameAs;
    /** The key of the row's company (absent: the first). */
    company?: string;
  }[];
  /** Writes left unsettled: checked against the service before anything on their fund is sent. */
  toSettle: ToSettle[];
  invalid: { rowNumber: number; problems: FieldProblem[] }[];
  totals: Total[];
  warnings: Warning[];
  /** Every write that may move money, rows in order, for the confirmation to name one by one. */
  money: MoneyItem[];
  /**
   * Every write this run may send (pending rows, and interrupted ones that may be sent again),
   * rows in order: the confirmation names each one, or points to the sheet that lists them all.
   */
  operations: MoneyItem[];
  /**
   * The request cells of every row this preview says may be sent (`confirmationKey`): once the
   * user confirms, a run sends only rows among them (`RunContext.confirmed`).
   */
  confirmed: string[];
  /**
   * The currency the confirmation names for each deposit or withdrawal, by `confirmationKey`:
   * from the Funds sheet when it has the fund (a cell any editor can type), so a run sends the
   * row only if the fund read just before sending has that currency (`RunContext.currencies`).
   */
  currencies: Record<string, string>;
  /** The fund status the confirmation knew for each deposit or withdrawal (`RunContext.statuses`). */
  statuses: Record<string, number>;
}

function fundIdOf(request: WriteRequest): number | null {
  return "fundId" in request ? request.fundId : null;
}

function targetKey(request: WriteRequest, company: string): string {
  return `${company}|${targetOf(request)}`;
}

function targetOf(request: WriteRequest): string {
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

/**
 * What a run would do, decided the way the run decides it (src/outbox/run.ts): the records of
 * earlier writes, not the rows' State cells, say which rows were sent already.
 */
export function previewOutbox(
  rows: readonly OutboxRow[],
  fundFacts: (fundId: number, company: string) => FundFacts | null,
  context: RowContext,
  recordList: readonly WriteRecord[] = [],
  directory: CompanyDirectory = ONE_COMPANY,
  /**
   * The IdAdmin this user's writes to each company carry, or why they may not write to it now
   * (the run leaves such rows Pending). Absent: `context`'s, for every company.
   */
  writerOf?: (company: string) => Pick<RowContext, "adminId" | "adminIssue"> | { unusable: string },
): OutboxPreview {
  const preview: OutboxPreview = {
    toSend: [],
    toSettle: [],
    invalid: [],
    totals: [],
    warnings: [],
    money: [],
    operations: [],
    confirmed: [],
    currencies: {},
    statuses: {},
  };
  const language = context.language ?? "en";
  const now = context.now.getTime();
  const totals = new Map<string, Total>();
  // Per company and fund: equal ids of two companies are two funds.
  const balances = new Map<string, Cents>();
  const statuses = new Map<string, number>();
  const several = severalCompanies(directory);
  const nameOf = (company: string) =>
    directory.entries.find((e) => e.key === company)?.name || translate(language, "outbox.company.noCompany");
  const seen = new Map<string, number>();
  const records = new Map(recordList.map((r) => [r.key, r]));
  const owners = ownersOfKeys(rows, records);
  const ownerOf = (key: string) => owners.get(key) ?? null;
  const ownedBy = ownedRecords(owners, records);
  const stamp = (ms: number) => context.format(new Date(ms), "yyyy-MM-dd HH:mm:ss");

  const addTotal = (
    operation: OutboxOperation,
    currency: string | null,
    amount: Cents,
    company: string = FIRST_COMPANY,
  ) => {
    const key = `${several ? company : ""}|${operation}|${currency ?? ""}`;
    const total: Total = totals.get(key) ?? {
      ...(several ? { company: nameOf(company) } : {}),
      operation,
      currency,
      amount: 0,
      count: 0,
    };
    total.amount += amount;
    total.count += 1;
    totals.set(key, total);
  };
  const currencyOf = (request: WriteRequest, company: string = FIRST_COMPANY): string | null => {
    if (request.operation === "createFund") return request.currency;
    if (!MONEY_OPERATIONS.has(request.operation) || !("fundId" in request)) return null;
    return fundFacts(request.fundId, company)?.currency ?? FUND_NOT_FOUND;
  };

  /** A row the confirmation shows as possibly sent, and a movement's currency as it names it. */
  const confirm = (
    row: OutboxRow,
    request: WriteRequest,
    as: Parameters<typeof confirmedAs>[1],
    company: string,
  ) => {
    const key = confirmationKey(row, company);
    preview.confirmed.push(confirmedAs(row, as, company));
    if (MONEY_OPERATIONS.has(request.operation))
      preview.currencies[key] = currencyOf(request, company) || FUND_NOT_FOUND;
  };

  // Unsettled writes, oldest first, as the run takes them.
  const unsettled = recordList.filter(isUnsettled).sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const record of unsettled) {
    if (!record.request) continue;
    const company = recordCompany(record);
    const row = ownerOf(record.key);
    const until = inFlightUntil(record);
    const changed = row && record.cells ? changedColumns(record.cells, requestCells(row)) : [];
    const settle: ToSettle = {
      ...(company === FIRST_COMPANY ? {} : { company }),
      rowNumber: row?.rowNumber ?? null,
      request: record.request,
      waitingUntil: until > now ? stamp(until).slice(11, 16) : null,
      changes: row && record.cells ? describeChanges(language, record.cells, requestCells(row), changed) : "",
    };
    if (row && changed.length === 0 && (row.state === "Done" || row.state === "Refused")) {
      settle.byHand = row.state;
      preview.confirmed.push(confirmedAs(row, { byHand: record.key, state: row.state }, company));
    }
    preview.toSettle.push(settle);
    if (row && changed.length === 0) confirm(row, record.request, { interrupted: record.key }, company);
    // A resend of it goes only to a fund whose status is the one this confirmation names (a
    // fund not found counts as open: the currency check holds that row).
    if (row && changed.length === 0 && "amount" in record.request && "fundId" in record.request) {
      const fundId = record.request.fundId;
      const status = fundFacts(fundId, company)?.status ?? 1;
      preview.statuses[confirmationKey(row, company)] = status;
      if (status !== 1)
        preview.warnings.push({
          kind: status === 2 ? "closedFund" : status === 3 ? "blockedFund" : "notOpenFund",
          rowNumber: row.rowNumber,
          fundId,
          status,
        });
    }
    // Money that may move again: an unchanged row whose write turns out not to have been applied.
    if (row && changed.length === 0 && "amount" in record.request) {
      addTotal(record.request.operation, currencyOf(record.request, company), record.request.amount, company);
    }
  }

  for (const row of rows) {
    if (row.isEmpty) continue;
    const record = ownedBy.get(row) ?? records.get(row.operationKey);
    const owned = record !== undefined && ownerOf(record.key) === row;
    const cells = requestCells(row);
    if (owned && record.state === "done") {
      const doneAt = stamp(record.finishedAt ?? 0).slice(0, 16);
      const changed = record.cells ? changedColumns(record.cells, cells) : [];
      if (changed.length > 0) {
        preview.warnings.push({
          kind: "editedDone",
          rowNumber: row.rowNumber,
          doneAt,
          changes: describeChanges(language, record.cells ?? {}, cells, changed),
        });
      } else if (row.state !== "Done") {
        preview.warnings.push({ kind: "restoreDone", rowNumber: row.rowNumber, doneAt });
      } else if (row.operationKey !== record.key) {
        preview.warnings.push({ kind: "keyRestored", rowNumber: row.rowNumber, doneAt });
      }
      continue;
    }
    if (owned && record.state === "refused") {
      const unchanged = record.cells !== undefined && changedColumns(record.cells, cells).length === 0;
      if (unchanged && row.state !== "Pending") continue;
    } else if (owned) {
      continue; // Unsettled: listed above.
    } else {
      const mismatch = mismatchOf(row, owners, records);
      if (mismatch) {
        const sent = mismatch.request
          ? describeRequest(language, mismatch.request)
          : (mismatch.cells?.operation ?? "");
        preview.warnings.push({ kind: "sortedOrEdited", rowNumber: row.rowNumber, sent });
        continue;
      }
      // A form's record carries no cells: its key on a row names nothing of the row's.
      const key = record !== undefined && !record.cells ? "" : row.operationKey;
      if ((record === undefined && !owners.has(key)) || key === "") {
        // Done with no key was never written by the add-on (every Done it writes carries one): most
        // often a done row's visible cells pasted on a new line. Flagged, never taken as done nor sent.
        const doneWithoutKey = row.state === "Done" && key === "";
        if (row.state === null || (row.state === "Done" && !doneWithoutKey) || row.state === "Refused")
          continue;
        // Its visible cells copied from a row with a record (no key): taken as a copy of the
        // whole row would be, the same as that write.
        const built = key === "" ? requestFromRow(row, context) : null;
        const copied =
          built !== null && likenessOf(row, built.ok ? built.request : null, recordList).kind !== "new";
        if ((row.state === "Sending" || row.state === "Unknown" || doneWithoutKey || key !== "") && !copied) {
          preview.warnings.push({
            kind: doneWithoutKey ? "doneNoKey" : "noRecord",
            rowNumber: row.rowNumber,
          });
          continue;
        }
      }
    }
    // A new operation (pending, an edited refused row, or a copy of another row's key), to the
    // company its Company cell names; a row naming none that is live is refused, as the run does.
    const resolved = resolveRowCompany(row, directory, language);
    if (!resolved.ok) {
      preview.invalid.push({
        rowNumber: row.rowNumber,
        problems: [{ field: translate(language, "outbox.col.company"), message: resolved.message }],
      });
      continue;
    }
    const company = resolved.key;
    const writer = writerOf?.(company);
    if (writer && "unusable" in writer) {
      preview.warnings.push({ kind: "companyUnusable", rowNumber: row.rowNumber, message: writer.unusable });
      continue;
    }
    const built = requestFromRow(row, writer ? { ...context, ...writer } : context);
    // A row too long for its record is refused by the run before anything is stored or sent.
    const tooLong = cellTooLongToRecord(requestCells(row), built.ok ? built.request : undefined);
    if (tooLong) {
      const message = translate(language, "outbox.problem.cellTooLong", tooLongParams(language, tooLong));
      preview.invalid.push({ rowNumber: row.rowNumber, problems: [{ field: tooLong.column, message }] });
      continue;
    }
    const likeness = likenessOf(row, built.ok ? built.request : null, recordList, company);
    // The row itself when it is the write's own row (settled by hand as Refused, sent again).
    const otherOwner = likeness.kind === "new" ? null : ownerOf(likeness.record.key);
    const otherRow = otherOwner === null || otherOwner === row ? null : otherOwner.rowNumber;
    if (likeness.kind === "waits") {
      preview.warnings.push({ kind: "waitsForSame", rowNumber: row.rowNumber, otherRow });
      continue;
    }
    const sameAs: SameAs | undefined =
      likeness.kind === "sameAsDone"
        ? {
            otherRow,
            doneAt: stamp(likeness.record.finishedAt ?? likeness.record.sentAt ?? 0).slice(0, 16),
            ...(likeness.record.state === "refused" ? { byHand: true } : {}),
          }
        : undefined;
    if (sameAs) preview.warnings.push({ kind: "sameAsDone", rowNumber: row.rowNumber, ...sameAs });
    if (!built.ok) {
      preview.invalid.push({ rowNumber: row.rowNumber, problems: built.problems });
      continue;
    }
    const request = built.request;
    const inCompany = company === FIRST_COMPANY ? {} : { company };
    preview.toSend.push(
      sameAs
        ? { rowNumber: row.rowNumber, request, sameAs, ...inCompany }
        : { rowNumber: row.rowNumber, request, ...inCompany },
    );
    confirm(row, request, likeness.kind === "sameAsDone" ? { sameAs: likeness.record.key } : "new", company);

    const key = targetKey(request, company);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      preview.warnings.push({ kind: "duplicate", rowNumber: row.rowNumber, otherRow: earlier });
    else seen.set(key, row.rowNumber);

    if (request.operation === "createFund") {
      addTotal("createFund", request.currency, request.amount, company);
      continue;
    }
    const fundId = fundIdOf(request);
    if (fundId === null) {
      addTotal(request.operation, null, 0, company);
      continue;
    }
    const facts = fundFacts(fundId, company);
    if (!facts) {
      preview.warnings.push({ kind: "unknownFund", rowNumber: row.rowNumber, fundId });
      addTotal(
        request.operation,
        MONEY_OPERATIONS.has(request.operation) ? FUND_NOT_FOUND : null,
        "amount" in request ? request.amount : 0,
        company,
      );
      continue;
    }
    const fund = `${company}|${fundId}`;
    const status = statuses.get(fund) ?? facts.status;
    if (MONEY_OPERATIONS.has(request.operation)) preview.statuses[confirmationKey(row, company)] = status;
    if (status !== 1 && request.operation !== "setFundStatus") {
      preview.warnings.push({
        kind: status === 2 ? "closedFund" : status === 3 ? "blockedFund" : "notOpenFund",
        rowNumber: row.rowNumber,
        fundId,
        status,
      });
    }
    const balance = balances.get(fund) ?? facts.balance;
    if (request.operation === "deposit") {
      balances.set(fund, balance + request.amount);
      addTotal("deposit", facts.currency, request.amount, company);
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
      balances.set(fund, balance - request.amount);
      addTotal("withdraw", facts.currency, request.amount, company);
    } else {
      if (request.operation === "setFundStatus") statuses.set(fund, request.status);
      addTotal(request.operation, null, 0, company);
    }
  }
  preview.totals = [...totals.values()];
  preview.operations = operationItems(preview, currencyOf, several ? nameOf : null);
  preview.money = preview.operations.filter((item) => "amount" in item.request);
  return preview;
}

/** Every write in the preview that may be sent, rows in order. */
function operationItems(
  preview: OutboxPreview,
  currencyOf: (request: WriteRequest, company: string) => string | null,
  nameOf: ((company: string) => string) | null,
): MoneyItem[] {
  const items: MoneyItem[] = [];
  const named = (company = FIRST_COMPANY) => (nameOf ? { company: nameOf(company) } : {});
  for (const settle of preview.toSettle) {
    // A write whose row is gone is settled but never sent again.
    if (settle.rowNumber === null) continue;
    items.push({
      ...named(settle.company),
      rowNumber: settle.rowNumber,
      request: settle.request,
      currency: currencyOf(settle.request, settle.company ?? FIRST_COMPANY),
      interrupted: settle,
    });
  }
  for (const item of preview.toSend) {
    const listed: MoneyItem = {
      ...named(item.company),
      rowNumber: item.rowNumber,
      request: item.request,
      currency: currencyOf(item.request, item.company ?? FIRST_COMPANY),
    };
    if (item.sameAs) listed.sameAs = item.sameAs;
    items.push(listed);
  }
  return items.sort((a, b) => a.rowNumber - b.rowNumber);
}

/** One write the confirmation names: its row, what it does and every field it sends. */
export function operationLine(language: Language, item: MoneyItem): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  const row = item.rowNumber;
  const description =
    item.currency === FUND_NOT_FOUND
      ? `${describeInFull(language, item.request)} ${t("outbox.fundNotFound", {})}`
      : describeInFull(language, item.request, item.currency);
  const settle = item.interrupted;
  if (!settle && item.sameAs)
    return t("outbox.preview.rowLine", {
      row,
      text: `${description}: ${sameAsNote(language, item.sameAs)}`,
    });
  if (!settle) return t("outbox.preview.rowLine", { row, text: description });
  if (settle.changes !== "")
    return t("outbox.preview.interruptedEdited", { row, description, changes: settle.changes });
  if (settle.byHand !== undefined) {
    const typed = t(settle.byHand === "Done" ? "outbox.preview.byHandDone" : "outbox.preview.byHandRefused", {
      row,
      description,
    });
    const interrupted =
      settle.waitingUntil !== null
        ? t("outbox.preview.interruptedWaiting", { row, description, until: settle.waitingUntil })
        : t("outbox.preview.interrupted", { row, description });
    return `${interrupted} ${typed}`;
  }
  if (settle.waitingUntil !== null)
    return t("outbox.preview.interruptedWaiting", { row, description, until: settle.waitingUntil });
  return t("outbox.preview.interrupted", { row, description });
}

/**
 * What a warning says of its row, without the row's number: the note a preview writes on the
 * row. null for a warning on a done row, whose Result (what was done) is never written over.
 */
export function warningNote(language: Language, warning: Warning): string | null {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  switch (warning.kind) {
    case "overBalance":
      return t("outbox.warn.overBalance", {
        amount: moneyText(warning.amount, warning.currency, language),
        balance: moneyText(warning.balance, warning.currency, language),
        id: warning.fundId,
      });
    case "duplicate":
      return t("outbox.warn.duplicate", { other: warning.otherRow });
    case "closedFund":
      return t("outbox.warn.closedFund", { id: warning.fundId });
    case "blockedFund":
      return t("outbox.warn.blockedFund", { id: warning.fundId });
    case "notOpenFund":
      return t("outbox.warn.notOpenFund", { id: warning.fundId, status: warning.status });
    case "unknownFund":
      return t("outbox.warn.unknownFund", { id: warning.fundId });
    case "sameAsDone":
      return sameAsNote(language, warning);
    case "noRecord":
      return t("outbox.warn.noRecord", {});
    case "doneNoKey":
      return t("outbox.warn.doneNoKey", {});
    case "waitsForSame":
      return warning.otherRow === null
        ? t("outbox.warn.waitsForWrite", {})
        : t("outbox.warn.waitsForRow", { other: warning.otherRow });
    case "sortedOrEdited":
      return t("outbox.warn.sortedOrEdited", { sent: warning.sent });
    case "companyUnusable":
      return t("outbox.company.unusable", { message: warning.message });
    case "keyRestored":
      return null;
    default:
      return null;
  }
}

export function warningText(language: Language, warning: Warning): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  const row = warning.rowNumber;
  switch (warning.kind) {
    case "editedDone":
      return t("outbox.warn.editedDone", { row, date: warning.doneAt, changes: warning.changes });
    case "restoreDone":
      return t("outbox.warn.restoreDone", { row, date: warning.doneAt });
    case "keyRestored":
      return t("outbox.preview.rowLine", {
        row,
        text: t("outbox.warn.keyRestored", { date: warning.doneAt }),
      });
    default:
      return t("outbox.preview.rowLine", { row, text: warningNote(language, warning) ?? "" });
  }
}

/** Warnings and invalid rows listed by name in the preview's text; the rest are counted. */
export const PREVIEW_LIST_LIMIT = 15;
/**
 * Writes a dialog lists one by one, at most. Beyond it, the full list goes to the Outbox preview
 * sheet (`outbox.previewSheet.name`) and the dialog says how many and points there: a
 * confirmation always shows every operation, amount and target a person is about to send.
 */
export const DIALOG_LIST_LIMIT = 100;

/** Whether the confirmation's list of writes is on the Outbox preview sheet, not in the dialog. */
export function listedOnSheet(preview: OutboxPreview): boolean {
  return preview.operations.length > DIALOG_LIST_LIMIT;
}

/** Items grouped by their company's name, in order of first appearance (one group, undefined, without companies). */
function byCompany<T extends { company?: string }>(items: readonly T[]): Map<string | undefined, T[]> {
  const groups = new Map<string | undefined, T[]>();
  for (const item of items) groups.set(item.company, [...(groups.get(item.company) ?? []), item]);
  return groups;
}

/** The preview as the text of an alert (or of the run's confirmation). */

export function previewText(language: Language, preview: OutboxPreview): string {
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const lines: string[] = [];
  if (
    preview.toSend.length === 0 &&
    preview.toSettle.length === 0 &&
    preview.invalid.length === 0 &&
    preview.warnings.length === 0
  ) {
    return t("outbox.preview.nothing");
  }
  lines.push(t("outbox.preview.rows", { count: preview.toSend.length }));
  if (preview.toSettle.length > 0)
    lines.push(t("outbox.preview.reconcile", { count: preview.toSettle.length }));
  const operations = preview.operations;
  if (listedOnSheet(preview)) {
    lines.push(
      "",
      t("outbox.preview.onSheet", { count: operations.length, sheet: t("outbox.previewSheet.name") }),
    );
  } else if (operations.length > 0) {
    lines.push("", t("outbox.preview.operations"));
    // With several companies, each company's writes under its name.
    for (const [company, items] of byCompany(operations)) {
      if (company !== undefined) lines.push(t("outbox.preview.company", { company }));
      for (const item of items) lines.push(`• ${operationLine(language, item)}`);
    }
  }
  if (preview.totals.length > 0) {
    lines.push("", t("outbox.preview.totals"));
    const totalLine = (total: Total) => {
      const operation = operationLabel(language, total.operation);
      return total.currency === null
        ? `• ${t("outbox.total.noCurrency", { operation, count: total.count })}`
        : `• ${t("outbox.total.line", { operation, currency: total.currency === FUND_NOT_FOUND ? t("outbox.fundNotFound") : total.currency, amount: formatCents(total.amount, { language, decimalsOf: total.currency }), count: total.count })}`;
    };
    const groups = byCompany(preview.totals);
    for (const [company, totals] of groups) {
      if (company !== undefined) lines.push(t("outbox.preview.company", { company }));
      for (const total of totals) lines.push(totalLine(total));
    }
    if (groups.size > 1) {
      // And per currency across the companies, for the money as a whole.
      lines.push(t("outbox.preview.allCompanies"));
      const all = new Map<string, Total>();
      for (const total of preview.totals) {
        if (total.currency === null) continue;
        const key = `${total.operation}|${total.currency}`;
        const sum = all.get(key) ?? {
          operation: total.operation,
          currency: total.currency,
          amount: 0,
          count: 0,
        };
        sum.amount += total.amount;
        sum.count += total.count;
        all.set(key, sum);
      }
      for (const total of all.values()) lines.push(totalLine(total));
    }
    if (preview.toSettle.some((s) => s.rowNumber !== null && s.changes === "" && "amount" in s.request))
      lines.push(t("outbox.preview.totalsNote"));
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
    listed(preview.invalid, (row) =>
      t("outbox.preview.rowLine", {
        row: row.rowNumber,
        text: problemsText(row.problems),
      }),
    );
  }
  return lines.join("\n");
}
