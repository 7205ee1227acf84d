/**
 * The month-end close's entry points: the menu item and its sidebar, reading the month and
 * building the journal (src/close/), the approval, the check before marking, and the CSV the
 * sidebar downloads. The marking itself goes through src/app/close-marking.ts.
 */
import { ownMember } from "../api/arguments";
import { moneyText } from "../api/money";
import type { ExpenseReport, Fund } from "../api/types";
import { ACCOUNT_KINDS, type AccountKind } from "../close/accounts";
import {
  type ApprovalCheck,
  approve,
  checkApproval,
  parseApproval,
  type SheetLine,
  type StoredApproval,
} from "../close/approval";
import { type AttentionItem, attentionItems } from "../close/attention";
import { type CsvOptions, csvOptions, journalCsv } from "../close/csv";
import { type BlockedReport, buildJournal, journalLines, journalProblems } from "../close/journal";
import {
  closedReportsQuery,
  integratedReportsQuery,
  openReportsQuery,
  parseMonth,
  previousMonth,
  readEveryPage,
} from "../close/month";
import {
  accountRows,
  accountsCompanyOf,
  journalRow,
  KIND_LABELS,
  kindFromLabel,
  linesOfSheet,
  sheetLines,
} from "../close/sheets";
import type { CloseMark } from "../close/types";
import { DEFAULT_VOUCHER_PATTERN, MAX_CODE_LENGTH } from "../close/voucher";
import {
  approvalText,
  attentionText,
  blockedText,
  patternText,
  problemsText,
  voucherText,
} from "../close/words";
import { type CompanyKey, FIRST_COMPANY_KEY, namedAs } from "../company/model";
import {
  appendAccountsRows,
  readAccountsSheet,
  readJournalSheet,
  recordRows,
  selectRow,
  showJournalSheet,
  writeJournalSheet,
} from "../gas/close-sheets";
import { runtime } from "../gas/runtime";
import { auditUser } from "../gas/session";
import { LANGUAGES, type Language, translate } from "../i18n";
import { clientReader } from "../refresh/reader";
import { loadText, saveText } from "../refresh/stored-text";
import { companyByKey, companyLabel, listedCompanies } from "../settings/companies";
import { currentLanguage, entry, settingsStore, tolerate, withDocumentLock } from "./entry";
import { loadWriteSettings, openWriteSession } from "./outbox";

/** Document properties of the close: the voucher pattern, four eyes, the approval. */
export const CLOSE_PATTERN_KEY = "close.pattern";
export const CLOSE_FOUR_EYES_KEY = "close.fourEyes";
/** Document property: who changed four eyes last, and when (`{by, at}`). */
export const CLOSE_FOUR_EYES_CHANGED_KEY = "close.fourEyes.changed";
export const CLOSE_APPROVAL_KEY = "close.approval";
/** Document property: the close the Journal sheet holds (company, month, currency). */
export const CLOSE_JOURNAL_KEY = "close.journal";
/** Document property: voucher codes already marked, per company (the sequence goes on past them). */
export const CLOSE_USED_CODES_KEY = "close.usedCodes";
/** User property: this user's CSV choices. */
export const CLOSE_CSV_KEY = "close.csv";

export interface CloseView {
  language: Language;
  companies: { key: string; name: string }[];
  month: string;
  pattern: string;
  /** The document's four eyes setting, and who changed it last and when (words). */
  fourEyes: boolean;
  fourEyesNote: string;
  csv: CsvOptions;
  /** The close the Journal sheet holds, and its approval, if any. */
  journal: { company: string; month: string; currency: string | null } | null;
  approval: string;
  /** The codes of the Journal sheet's vouchers, for the undo's pick. */
  vouchers: string[];
}

export interface CloseResult {
  ok: boolean;
  message: string;
  vouchers: string[];
  blocked: string[];
  attention: { text: string; kind: AttentionItem["kind"]; company: string; id: number }[];
}

/** Menu: opens the Month-end close sidebar. */
export function showCloseSidebar(): void {
  entry("menu", () => runtime().showSidebar("close", translate(currentLanguage(), "close.title")));
}

function documentProps() {
  return runtime().documentProperties();
}

/** Who acts now, for the approval and four eyes ("" when it cannot be told). */
function currentUser(): string {
  const who = auditUser("sidebar");
  return who === "unknown" ? "" : who;
}

export { currentUser as closeUser };

function now(format: string): string {
  const zone = runtime().spreadsheet().getSpreadsheetTimeZone();
  return runtime().formatDate(new Date(), zone, format);
}

/** Now in the spreadsheet's time zone, as the approval writes it. */
export function closeNow(): string {
  return now("yyyy-MM-dd HH:mm:ss");
}

/** Four eyes as the sidebar says it: on or off, and who changed it last and when. */
export function fourEyesLine(language: Language): string {
  const props = documentProps();
  const on = props.getProperty(CLOSE_FOUR_EYES_KEY) === "true";
  const changed = parseJson(props.getProperty(CLOSE_FOUR_EYES_CHANGED_KEY)) as {
    by?: unknown;
    at?: unknown;
  } | null;
  const state = translate(language, on ? "close.fourEyes.on" : "close.fourEyes.off");
  if (!changed || typeof changed.by !== "string" || typeof changed.at !== "string") return state;
  return `${state} ${translate(language, "close.fourEyes.changedBy", { who: changed.by, when: changed.at })}`;
}

export function storedApproval(): StoredApproval | null {
  return parseApproval(loadText(documentProps(), CLOSE_APPROVAL_KEY));
}

function approvalLine(approval: StoredApproval | null, language: Language): string {
  return approval
    ? translate(language, "close.approved", { who: approval.approvedBy, when: approval.approvedAt })
    : translate(language, "close.notApproved");
}

/** Sidebar: the companies, the month usually closed, the pattern, four eyes, the CSV choices. */
export function getCloseView(): CloseView {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const props = documentProps();
    const journal = readJournalMeta();
    return {
      language,
      companies: listedCompanies(settingsStore().companies()).map((c) => ({ key: c.key, name: c.name })),
      month: previousMonth(now("yyyy-MM-dd")),
      pattern: props.getProperty(CLOSE_PATTERN_KEY) ?? DEFAULT_VOUCHER_PATTERN,
      fourEyes: props.getProperty(CLOSE_FOUR_EYES_KEY) === "true",
      fourEyesNote: fourEyesLine(language),
      csv: csvOptions(parseJson(runtime().userProperties().getProperty(CLOSE_CSV_KEY))),
      journal,
      approval: journal ? approvalLine(storedApproval(), language) : "",
      vouchers: [...new Set(sheetLines(readJournalSheet()).map((l) => l.voucher))].filter((v) => v !== ""),
    };
  });
}

/** Runs `body` holding the document lock, as the close's every change does; busy: says who holds it. */
export function withCloseLock<T>(language: Language, body: () => T): T {
  return withDocumentLock(
    "form",
    30_000,
    (lock) => {
      throw new Error(lock ? lock.busyMessage(language, "busy.form") : translate(language, "busy.form"));
    },
    body,
  );
}

/** A stored JSON value, or null when there is none or it cannot be read. */
export function parseJson(text: string | null): unknown {
  if (!text) return null;
  return tolerate("unreadable", () => JSON.parse(text) as unknown, null);
}

function readJournalMeta(): CloseView["journal"] {
  const value = parseJson(documentProps().getProperty(CLOSE_JOURNAL_KEY)) as CloseView["journal"];
  return value && typeof value.company === "string" && typeof value.month === "string" ? value : null;
}

/** What the sidebar sends to build a journal, checked. */
interface CloseInput {
  company: CompanyKey;
  month: string;
  currency: string | null;
  pattern: string;
}

/** What the sidebar sends to build a journal, checked (a `fourEyes` sent is not read: it is a setting). */
function closeInput(input: unknown, language: Language): CloseInput {
  const month = parseMonth(ownMember(input, "month"));
  if (!month) throw new Error(translate(language, "close.error.month"));
  const listed = listedCompanies(settingsStore().companies());
  const company = ownMember(input, "company") ?? FIRST_COMPANY_KEY;
  if (!listed.some((c) => c.key === company)) throw new Error(translate(language, "close.error.company"));
  const currency = ownMember(input, "currency");
  if (
    currency !== null &&
    currency !== "" &&
    (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency))
  ) {
    throw new Error(translate(language, "close.error.currency"));
  }
  const pattern = ownMember(input, "pattern") ?? DEFAULT_VOUCHER_PATTERN;
  if (typeof pattern !== "string" || pattern.length > MAX_CODE_LENGTH) {
    throw new Error(translate(language, "close.error.pattern"));
  }
  return {
    company: company as string,
    month,
    currency: currency ? (currency as string) : null,
    pattern: pattern.trim() === "" ? DEFAULT_VOUCHER_PATTERN : pattern,
  };
}

/** The month's lists of one company, every page: to book, still open, integrated; its funds. */
function readMonth(company: CompanyKey, input: CloseInput) {
  const session = openWriteSession("sidebar", company, "read");
  try {
    if (session.unusable) throw new Error(session.unusable.message);
    const reader = clientReader(session.client);
    const [closed = [], open = [], integrated = []] = readEveryPage<ExpenseReport>(
      (queries) => reader.reportPages(queries),
      [
        closedReportsQuery(input.month, input.currency),
        openReportsQuery(input.month, input.currency),
        integratedReportsQuery(input.month, input.currency),
      ],
    );
    const [funds = []] = readEveryPage<Fund>(
      (queries) => reader.fundPages(queries),
      [{ ResultsPerPage: 100 }],
    );
    return { closed, open, integrated, funds };
  } finally {
    session.finish();
  }
}

/** The Accounts sheet's rows, each Company cell resolved as every sheet's (accountsCompanyOf). */
function accountsOfSheet() {
  const companyOf = accountsCompanyOf(settingsStore().companies());
  const labels = (key: Parameters<typeof translate>[1]) => LANGUAGES.map((l) => translate(l, key));
  return accountRows(readAccountsSheet(), companyOf, (label) => kindFromLabel(label, labels));
}

/** Rows the Accounts sheet lacks for the reports blocked for want of an account. */
function missingAccountRows(blocked: readonly BlockedReport[], companyName: string, language: Language) {
  const present = new Set(readAccountsSheet().map((r) => `${String(r[1]).trim()}|${String(r[2]).trim()}`));
  const rows: string[][] = [];
  const add = (kind: AccountKind, key: string, name: string) => {
    const label = translate(language, KIND_LABELS[kind]);
    const seen =
      ACCOUNT_KINDS.includes(kind) && (present.has(`${label}|${key}`) || present.has(`${kind}|${key}`));
    if (seen) return;
    present.add(`${label}|${key}`);
    rows.push([companyName, label, key, name, ""]);
  };
  for (const reason of blocked.flatMap((b) => b.lacking)) {
    if (reason.code === "noPolicyAccount") add("policy", String(reason.policyId), reason.policyName);
    if (reason.code === "noFundAccount") add("fund", String(reason.fundId), reason.fundName);
    if (reason.code === "noEmployeeAccount") add("employee", "", "");
  }
  return rows;
}

function usedCodes(company: CompanyKey): Set<string> {
  const all = parseJson(documentProps().getProperty(CLOSE_USED_CODES_KEY)) as Record<string, unknown> | null;
  const codes = all?.[company];
  return new Set(Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : []);
}

/**
 * Sidebar: reads the chosen company's month (every page), builds its journal into the Journal
 * sheet (any earlier approval is void: a new journal), lists what needs attention and what is
 * blocked, and adds the rows the Accounts sheet lacks.
 */
export function closeBuildJournal(input: unknown): CloseResult {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const close = closeInput(input, language);
    const props = documentProps();
    props.setProperty(CLOSE_PATTERN_KEY, close.pattern);
    const entryOf = listedCompanies(settingsStore().companies()).find((c) => c.key === close.company);
    const several = listedCompanies(settingsStore().companies()).length > 1;
    const companyName = entryOf?.name ?? "";
    const read = readMonth(close.company, close);
    const result = buildJournal(
      [{ company: close.company, companyName, reports: read.closed, usedCodes: usedCodes(close.company) }],
      { month: close.month, currency: close.currency, pattern: close.pattern, accounts: accountsOfSheet() },
    );
    const items = attentionItems(close.company, read, now("yyyy-MM-dd"), close.currency);
    const attention = items.map((item) => ({
      text: attentionText(item, language),
      kind: item.kind,
      company: item.company,
      id: item.id,
    }));
    if (!result.ok) {
      const message = patternText(result.problem, result.companyName, language);
      return { ok: false, message, vouchers: [], blocked: [], attention };
    }
    const missing = missingAccountRows(result.blocked, several ? companyName : "", language);
    return withDocumentLock(
      "form",
      30_000,
      (lock) => {
        throw new Error(lock ? lock.busyMessage(language, "busy.form") : translate(language, "busy.form"));
      },
      () => {
        if (missing.length > 0) appendAccountsRows(missing, language);
        const links = recordRows(loadWriteSettings().sheetNames.reports);
        const rows = journalLines(result.vouchers).map((line) =>
          journalRow(line, (l) => {
            const row = links?.rows.get(`${l.company}|${l.reportId}`);
            return links && row ? `#gid=${links.gid}&range=A${row}` : null;
          }),
        );
        writeJournalSheet(rows, language);
        saveText(props, CLOSE_APPROVAL_KEY, "");
        props.setProperty(
          CLOSE_JOURNAL_KEY,
          JSON.stringify({ company: close.company, month: close.month, currency: close.currency }),
        );
        showJournalSheet();
        const reports = result.vouchers.reduce((n, v) => n + v.reports, 0);
        const built = translate(language, "close.built", { vouchers: result.vouchers.length, reports });
        return {
          ok: true,
          message: missing.length > 0 ? `${built} ${translate(language, "close.accountsMade")}` : built,
          vouchers: result.vouchers.map((v) => voucherText(v, language, several)),
          blocked: result.blocked.map((b) => blockedText(b, language)),
          attention,
        };
      },
    );
  });
}

/** The Journal sheet's lines as they stand now. */
function currentLines(language: Language): SheetLine[] {
  const lines = sheetLines(readJournalSheet());
  if (lines.length === 0) throw new Error(translate(language, "close.error.noJournal"));
  return lines;
}

/** Sidebar: approves the Journal sheet's lines as they stand, by the current user, now. */
export function closeApproveJournal(): { message: string } {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const meta = readJournalMeta();
    const lines = currentLines(language);
    // Only a journal that balances, one currency a voucher, each report once, is approved.
    const problems = journalProblems(linesOfSheet(lines));
    if (problems.length > 0) throw new Error(problemsText(problems, language));
    const approval = approve(
      lines,
      meta?.month ?? "",
      currentUser() || "unknown",
      now("yyyy-MM-dd HH:mm:ss"),
      (t) => runtime().digest(t),
    );
    saveText(documentProps(), CLOSE_APPROVAL_KEY, JSON.stringify(approval));
    return { message: approvalLine(approval, language) };
  });
}

/** The approval's check of the current journal for the current user. */
function approvalCheck(lines: readonly SheetLine[]): {
  check: ApprovalCheck;
  approval: StoredApproval | null;
} {
  const approval = storedApproval();
  const fourEyes = documentProps().getProperty(CLOSE_FOUR_EYES_KEY) === "true";
  const check = checkApproval(approval, lines, (t) => runtime().digest(t), {
    required: fourEyes,
    user: currentUser(),
  });
  return { check, approval };
}

/**
 * The reports of the approved journal, to mark (one per report: its debit line), each with its
 * voucher's code and the integration date; or why not: not approved, changed since (named), or
 * four eyes.
 */
export function approvedMarks(): { ok: true; marks: CloseMark[] } | { ok: false; message: string } {
  const language = currentLanguage();
  const lines = currentLines(language);
  const { check, approval } = approvalCheck(lines);
  if (!check.ok) return { ok: false, message: approvalText(check, approval?.approvedBy ?? "", language) };
  const integrationDate = now("yyyy-MM-dd HH:mm:ss");
  const journalLines = linesOfSheet(lines);
  const wrongCompany = journalCompanyIssue(lines, journalLines, language);
  if (wrongCompany) return { ok: false, message: wrongCompany };
  const marks = journalLines
    .filter((l) => l.debitCents > 0)
    .map(
      (l): CloseMark => ({
        company: l.company,
        reportId: l.reportId,
        reportNumber: l.reportNumber,
        voucher: l.voucher,
        cents: l.debitCents,
        currency: l.currency,
        integrationDate,
      }),
    );
  return { ok: true, marks };
}

/**
 * Why the journal's lines may not be marked for the company it was built for: a line whose
 * Company key cell is another company's, or whose Company cell does not name that company (key
 * and name must agree, as everywhere a row's company is read). Null when every line agrees.
 */
function journalCompanyIssue(
  sheet: readonly SheetLine[],
  lines: readonly { company: string; companyName: string }[],
  language: Language,
): string | null {
  const meta = readJournalMeta();
  const registry = settingsStore().companies();
  const company = meta ? companyByKey(registry, meta.company) : undefined;
  for (const [i, line] of lines.entries()) {
    const agrees =
      company !== undefined &&
      line.company === company.key &&
      (line.companyName === "" ? company.name === "" : namedAs(company, line.companyName) !== null);
    if (!agrees)
      return translate(language, "close.mark.companyDiffers", {
        row: sheet[i]?.row ?? i + 2,
        cell: line.companyName || line.company,
        company: company ? companyLabel(company, language) : (meta?.company ?? ""),
      });
  }
  return null;
}

/**
 * Sidebar: whether the journal may be marked now, and the confirmation's list (each voucher
 * with its count and totals); the refusal names what changed since the approval.
 */
export function closeCheckMarking(): { ok: boolean; message: string; vouchers: string[]; count: number } {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const ready = approvedMarks();
    if (!ready.ok) return { ok: false, message: ready.message, vouchers: [], count: 0 };
    const byVoucher = new Map<string, { count: number; cents: number; currency: string }>();
    for (const m of ready.marks) {
      const v = byVoucher.get(m.voucher) ?? { count: 0, cents: 0, currency: m.currency };
      v.count++;
      v.cents += m.cents;
      byVoucher.set(m.voucher, v);
    }
    const vouchers = [...byVoucher].map(([code, v]) =>
      translate(language, "close.voucherLine", {
        code,
        company: "",
        currency: v.currency,
        count: v.count,
        debit: moneyText(v.cents, v.currency, language),
        credit: moneyText(v.cents, v.currency, language),
      }),
    );
    const message = translate(language, "close.mark.ready", {
      count: ready.marks.length,
      vouchers: byVoucher.size,
    });
    return { ok: true, message, vouchers, count: ready.marks.length };
  });
}

/**
 * Sidebar: the Journal sheet's lines as a CSV in this user's choices (kept in their user
 * properties for next time); the sidebar downloads it, so no Drive permission is asked.
 */
export function closeExportCsv(options: unknown): { fileName: string; text: string; lines: number } {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const chosen = csvOptions(options);
    runtime().userProperties().setProperty(CLOSE_CSV_KEY, JSON.stringify(chosen));
    const lines = linesOfSheet(currentLines(language));
    const text = journalCsv(lines, chosen, (c) => c);
    const meta = readJournalMeta();
    const fileName = `journal-${meta?.month ?? "month"}${meta?.currency ? `-${meta.currency}` : ""}.csv`;
    const count = text.split("\r\n").length - 1 - (chosen.header ? 1 : 0);
    return { fileName, text, lines: count };
  });
}

/** Sidebar: selects the row of a report or fund the attention list names (false: no such row). */
export function closeShowRecord(input: unknown): boolean {
  return entry("sidebar", () => {
    const kind = ownMember(input, "kind") === "expiredFund" ? "funds" : "reports";
    const company = ownMember(input, "company");
    const id = ownMember(input, "id");
    if (typeof company !== "string" || typeof id !== "number") return false;
    const names = loadWriteSettings().sheetNames;
    const name = kind === "funds" ? names.funds : names.reports;
    const row = recordRows(name, kind)?.rows.get(`${company}|${id}`);
    if (!row) return false;
    selectRow(name, row);
    return true;
  });
}
