/**
 * The self-check run once on a real deployment: each assumption the emulation makes that
 * Google's documentation does not settle, as one check. What was seen is gathered by
 * src/gas/diagnostics.ts into plain data; this turns it into the rows of the Diagnostics sheet
 * (check, result, details, when) in the user's language. docs/real-apps-script.md lists the
 * same checks with what the emulation does.
 */
import { type Language, type StringKey, translate } from "../i18n";

/** Document (or script) property that shows the Diagnostics menu item when it is "1". */
export const DIAGNOSTICS_ENABLED_KEY = "diagnostics.enabled";
/** Where the probe trigger leaves what it saw, for the next Diagnostics run to show. */
export const TRIGGER_REPORT_KEY = "diagnostics.trigger";
/** Where onOpen leaves what Session said in its mode, for the next Diagnostics run to show. */
export const OPEN_REPORT_KEY = "diagnostics.open";
/** When the last run's probe trigger was due (ms), for the next run to tell whether it fired. */
export const PROBE_DUE_KEY = "diagnostics.probeDue";
/**
 * How long past its due time a probe that has not run counts as never running: an add-on's
 * clock trigger may fire up to an hour late ("9 AM" fires between 9 and 10).
 */
export const PROBE_GRACE_MS = 3_600_000;
/** Handler of the probe trigger (an entry point). */
export const PROBE_HANDLER = "runDiagnosticsTrigger";
/** Name of the sheet the results go to, whatever the language. */
export const DIAGNOSTICS_SHEET = "Diagnostics";

/** The clock trigger whose acceptance is in question: a one-off after 60 s. */
export const SHORT_TRIGGER_MS = 60_000;
/** The probe trigger's delay when Google refuses 60 s: add-on clock triggers run at most hourly. */
export const HOURLY_TRIGGER_MS = 3_600_000;
/** The scratch write: 100,000 cells. */
export const SCRATCH_ROWS = 4000;
export const SCRATCH_COLUMNS = 25;
/** Outside every allowlist the add-on could ship with; reserved for examples (RFC 2606). */
export const OUTSIDE_ALLOWLIST_URL = "https://example.com/";

/** The checks, in the order of the sheet's rows. */
export const CHECK_IDS = [
  "clockTrigger60s",
  "userTriggersListClock",
  "triggerSpreadsheet",
  "triggerDocumentLock",
  "fetchOutsideAllowlist",
  "write100kCells",
  "plainTextFormula",
  "twoDocumentLocks",
  "sessionMenu",
  "sessionOpen",
  "sessionTrigger",
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** What one call to Google gave: its value, or the message it threw. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; message: string };

/** Runs `call`, keeping what it threw as a message instead of letting it stop the run. */
export function attempt<T>(call: () => T): Attempt<T> {
  try {
    return { ok: true, value: call() };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}

export function messageOf(err: unknown): string {
  if (err && typeof err === "object" && "message" in err)
    return String((err as { message: unknown }).message);
  return String(err);
}

/** True when the flag's stored value turns Diagnostics on. */
export function isDiagnosticsEnabled(value: string | null | undefined): boolean {
  return (value ?? "").trim() === "1";
}

/** What Session said about the user in one kind of run. */
export interface SessionSeen {
  at: number;
  /** The run's AuthMode as Apps Script names it (FULL, LIMITED…), or "" when not given. */
  authMode: string;
  active: Attempt<string>;
  effective: Attempt<string>;
}

/** What the probe trigger saw when it ran. */
export interface TriggerReport {
  at: number;
  session: SessionSeen;
  /** getActiveSpreadsheet(): the id of the spreadsheet it gave, or null. */
  spreadsheet: Attempt<string | null>;
  /** getDocumentLock(), then tryLock: acquired, not acquired, or a null lock. */
  documentLock: Attempt<"acquired" | "busy" | "null">;
  documentProperties: Attempt<"available" | "null">;
}

/** A trigger as getUserTriggers lists it. */
export interface TriggerListing {
  uid: string;
  handler: string;
  eventType: string;
}

/** "=1+1" written with setValues into a cell formatted "@" (plain text), then read back. */
export interface PlainTextSeen {
  /** getFormulas() of the cell: "" when the text stayed text. */
  formula: string;
  /** getValues() of the cell, as text. */
  value: string;
}

/** Two getDocumentLock() objects of one execution: whether the second sees the first's lock. */
export interface TwoLocksSeen {
  /** first.tryLock(1000). */
  firstAcquired: boolean;
  /** second.hasLock() while the first holds the lock. */
  secondHasLock: boolean;
  /** second.tryLock(100) while the first holds the lock. */
  secondAcquired: boolean;
}

/** Everything one Diagnostics run gathered. */
export interface DiagnosticsResults {
  at: number;
  /** The spreadsheet Diagnostics runs in. */
  spreadsheetId: string | null;
  /** A one-off trigger after 60 s: its id when Google accepted it (it is deleted at once). */
  shortTrigger: Attempt<string>;
  /** The probe trigger left to run: its id and when it is due. */
  probe: Attempt<{ uid: string; dueAt: number }>;
  /** getUserTriggers(spreadsheet) right after the probe was created. */
  listing: Attempt<TriggerListing[]>;
  /** What the last probe trigger saw, if one has run. */
  triggerReport: TriggerReport | null;
  /** When the probe of an earlier run was due, if one was left (null when none). */
  earlierProbeDueAt: number | null;
  /** UrlFetchApp.fetch of a URL outside the allowlist: the status when it was sent. */
  outsideFetch: Attempt<number>;
  cellWrite: Attempt<{ cells: number; ms: number }>;
  /** The formula-injection defence's premise: setValues keeps "=…" literal in a "@" cell. */
  plainText: Attempt<PlainTextSeen>;
  /** Whether two document lock objects of one execution share state (only observed). */
  twoLocks: Attempt<TwoLocksSeen>;
  sessionMenu: SessionSeen;
  /** What onOpen saw, if it ran since Diagnostics was turned on. */
  sessionOpen: SessionSeen | null;
}

export interface DiagnosticsRow {
  check: CheckId;
  result: string;
  details: string;
  /** When it was observed (ms since the epoch). */
  at: number;
}

/** The ends of the catalogue's keys that start with P. */
type KeysAfter<P extends string, K = StringKey> = K extends `${P}${infer R}` ? R : never;
type Result = KeysAfter<"diagnostics.result.">;
type Detail = KeysAfter<"diagnostics.details.">;

/**
 * Whether the probe an earlier run left (due at `due`) never fired: long past due, and no
 * trigger has reported since it was made. Where triggers do not fire (a test deployment of an
 * editor add-on), the trigger checks cannot be measured.
 */
export function probeNeverFired(at: number, due: number | null, report: TriggerReport | null): boolean {
  return due !== null && at > due + PROBE_GRACE_MS && (report === null || report.at < due - SHORT_TRIGGER_MS);
}

/** The rows of the Diagnostics sheet, one per check, in CHECK_IDS order. */
export function diagnosticsRows(
  results: DiagnosticsResults,
  language: Language,
  formatWhen: (ms: number) => string,
): DiagnosticsRow[] {
  const result = (key: Result, params?: Record<string, number>) =>
    translate(language, `diagnostics.result.${key}` as StringKey, params);
  const detail = (key: Detail, params?: Record<string, string | number>) =>
    translate(language, `diagnostics.details.${key}` as StringKey, params);
  const { at, probe, listing, shortTrigger, outsideFetch, cellWrite } = results;
  const report = results.triggerReport;
  const rows: DiagnosticsRow[] = [];
  const row = (check: CheckId, text: string, details: string, when = at) => {
    rows.push({ check, result: text, details, at: when });
  };
  /** The row of an attempt: `ok` makes it from the value, a refusal shows Google's message. */
  const answer = <T>(
    check: CheckId,
    seen: Attempt<T>,
    ok: (value: T) => [string, string],
    refused: Result = "failed",
    when = at,
  ) => {
    if (seen.ok) row(check, ...ok(seen.value), when);
    else row(check, result(refused), seen.message, when);
  };
  const noProbe = () => detail("noProbe", { message: probe.ok ? "" : probe.message });
  const pending = () =>
    probe.ok
      ? detail("pendingTrigger", { handler: PROBE_HANDLER, when: formatWhen(probe.value.dueAt) })
      : noProbe();

  answer("clockTrigger60s", shortTrigger, () => [result("accepted"), detail("shortAccepted")], "refused");
  if (probe.ok) {
    answer("userTriggersListClock", listing, (list) => [
      result(list.some((x) => x.uid === probe.value.uid) ? "listed" : "notListed"),
      detail("listing", {
        count: list.length,
        list: list.map((x) => `${x.handler} (${x.eventType})`).join(", ") || "—",
      }),
    ]);
  } else row("userTriggersListClock", result("notChecked"), noProbe());

  // An earlier probe long overdue, with nothing reported since it was due: no trigger fires
  // here, as on a test deployment of an editor add-on. What a trigger sees cannot be measured.
  const due = results.earlierProbeDueAt;
  const neverFired = probeNeverFired(at, due, report);
  const notMeasurable = () =>
    detail("notMeasurable", { handler: PROBE_HANDLER, when: formatWhen(due ?? at) });
  if (neverFired) {
    row("triggerSpreadsheet", result("notMeasurable"), notMeasurable());
    row("triggerDocumentLock", result("notMeasurable"), notMeasurable());
  } else if (report) {
    const props = report.documentProperties;
    answer(
      "triggerSpreadsheet",
      report.spreadsheet,
      (id) => [
        result(id === null ? "null" : id === results.spreadsheetId ? "thisSpreadsheet" : "otherSpreadsheet"),
        detail("triggerSpreadsheet", {
          authMode: report.session.authMode,
          properties: props.ok ? props.value : props.message,
        }),
      ],
      "failed",
      report.at,
    );
    answer(
      "triggerDocumentLock",
      report.documentLock,
      (lock) => [
        result(lock === "acquired" ? "acquired" : lock === "busy" ? "notAcquired" : "null"),
        detail("triggerLock"),
      ],
      "failed",
      report.at,
    );
  } else {
    row("triggerSpreadsheet", result("pending"), pending());
    row("triggerDocumentLock", result("pending"), pending());
  }

  answer(
    "fetchOutsideAllowlist",
    outsideFetch,
    (status) => [result("notRefused"), detail("fetchSent", { url: OUTSIDE_ALLOWLIST_URL, status })],
    "refused",
  );
  answer("write100kCells", cellWrite, ({ cells, ms }) => [
    result("ms", { ms }),
    detail("cells", { cells, rows: SCRATCH_ROWS, columns: SCRATCH_COLUMNS }),
  ]);

  answer("plainTextFormula", results.plainText, ({ formula, value }) => [
    result(formula === "" ? "keptAsText" : "becameFormula"),
    detail("plainText", { formula: formula || "—", value }),
  ]);
  answer("twoDocumentLocks", results.twoLocks, (locks) => [
    result(!locks.firstAcquired ? "notAcquired" : locks.secondHasLock ? "shared" : "separate"),
    detail("twoLocks", {
      first: String(locks.firstAcquired),
      has: String(locks.secondHasLock),
      second: String(locks.secondAcquired),
    }),
  ]);

  const email = (a: Attempt<string>) => (a.ok ? a.value || result("empty") : `⚠ ${a.message}`);
  const session = (check: CheckId, seen: SessionSeen | null | undefined, missing: string) => {
    if (!seen) row(check, result("pending"), missing);
    else {
      const details = detail("session", {
        active: email(seen.active),
        effective: email(seen.effective),
        authMode: seen.authMode || "—",
      });
      row(check, email(seen.active), details, seen.at);
    }
  };
  session("sessionMenu", results.sessionMenu, "");
  session("sessionOpen", results.sessionOpen, detail("pendingOpen"));
  if (neverFired) row("sessionTrigger", result("notMeasurable"), notMeasurable());
  else session("sessionTrigger", report?.session, pending());
  return rows;
}

/** The sheet's cells: a header row, then one row per check (every cell text). */
export function diagnosticsSheetValues(
  rows: readonly DiagnosticsRow[],
  language: Language,
  formatWhen: (ms: number) => string,
): string[][] {
  const t = (key: StringKey) => translate(language, key);
  return [
    [
      t("diagnostics.header.check"),
      t("diagnostics.header.result"),
      t("diagnostics.header.details"),
      t("diagnostics.header.when"),
    ],
    ...rows.map((r) => [
      t(`diagnostics.check.${r.check}` as StringKey),
      r.result,
      r.details,
      formatWhen(r.at),
    ]),
  ];
}

/** Stored form of what a trigger or onOpen saw (a document property value, well under 9 KB). */
export function serializeSeen(value: TriggerReport | SessionSeen): string {
  return JSON.stringify(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object";

function isAttempt(value: unknown): value is Attempt<unknown> {
  return (
    isObject(value) &&
    (value.ok === true ? "value" in value : value.ok === false && typeof value.message === "string")
  );
}

function isSession(value: unknown): value is SessionSeen {
  return (
    isObject(value) &&
    typeof value.at === "number" &&
    typeof value.authMode === "string" &&
    isAttempt(value.active) &&
    isAttempt(value.effective)
  );
}

/** `text` as JSON when it reads and `is` takes it; else null. */
function parsed<T>(text: string | null, is: (value: unknown) => boolean): T | null {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return is(value) ? (value as T) : null;
  } catch (_err) {
    return null;
  }
}

/** What onOpen stored, or null when nothing (readable) is there. */
export function parseSessionSeen(text: string | null): SessionSeen | null {
  return parsed(text, isSession);
}

/** What the probe trigger stored, or null when nothing (readable) is there. */
export function parseTriggerReport(text: string | null): TriggerReport | null {
  return parsed(
    text,
    (r) =>
      isObject(r) &&
      typeof r.at === "number" &&
      isSession(r.session) &&
      isAttempt(r.spreadsheet) &&
      isAttempt(r.documentLock) &&
      isAttempt(r.documentProperties),
  );
}
