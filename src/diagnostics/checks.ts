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
  /** UrlFetchApp.fetch of a URL outside the allowlist: the status when it was sent. */
  outsideFetch: Attempt<number>;
  cellWrite: Attempt<{ cells: number; ms: number }>;
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

function row(check: CheckId, result: string, details: string, at: number): DiagnosticsRow {
  return { check, result, details, at };
}

/** The rows of the Diagnostics sheet, one per check, in CHECK_IDS order. */
export function diagnosticsRows(
  results: DiagnosticsResults,
  language: Language,
  formatWhen: (ms: number) => string,
): DiagnosticsRow[] {
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const at = results.at;
  const report = results.triggerReport;
  const pending = (): string =>
    results.probe.ok
      ? t("diagnostics.details.pendingTrigger", {
          handler: PROBE_HANDLER,
          when: formatWhen(results.probe.value.dueAt),
        })
      : t("diagnostics.details.noProbe", { message: results.probe.message });
  const rows: DiagnosticsRow[] = [];

  const short = results.shortTrigger;
  rows.push(
    short.ok
      ? row("clockTrigger60s", t("diagnostics.result.accepted"), t("diagnostics.details.shortAccepted"), at)
      : row("clockTrigger60s", t("diagnostics.result.refused"), short.message, at),
  );

  if (!results.probe.ok) {
    rows.push(
      row(
        "userTriggersListClock",
        t("diagnostics.result.notChecked"),
        t("diagnostics.details.noProbe", { message: results.probe.message }),
        at,
      ),
    );
  } else if (!results.listing.ok) {
    rows.push(row("userTriggersListClock", t("diagnostics.result.failed"), results.listing.message, at));
  } else {
    const uid = results.probe.value.uid;
    const listed = results.listing.value.some((x) => x.uid === uid);
    const list = results.listing.value.map((x) => `${x.handler} (${x.eventType})`).join(", ") || "—";
    rows.push(
      row(
        "userTriggersListClock",
        t(listed ? "diagnostics.result.listed" : "diagnostics.result.notListed"),
        t("diagnostics.details.listing", { count: results.listing.value.length, list }),
        at,
      ),
    );
  }

  if (!report) {
    rows.push(row("triggerSpreadsheet", t("diagnostics.result.pending"), pending(), at));
    rows.push(row("triggerDocumentLock", t("diagnostics.result.pending"), pending(), at));
  } else {
    const ss = report.spreadsheet;
    const props = report.documentProperties;
    const propsText = props.ok ? props.value : props.message;
    rows.push(
      ss.ok
        ? row(
            "triggerSpreadsheet",
            t(
              ss.value === null
                ? "diagnostics.result.null"
                : ss.value === results.spreadsheetId
                  ? "diagnostics.result.thisSpreadsheet"
                  : "diagnostics.result.otherSpreadsheet",
            ),
            t("diagnostics.details.triggerSpreadsheet", {
              authMode: report.session.authMode,
              properties: propsText,
            }),
            report.at,
          )
        : row("triggerSpreadsheet", t("diagnostics.result.failed"), ss.message, report.at),
    );
    const lock = report.documentLock;
    rows.push(
      lock.ok
        ? row(
            "triggerDocumentLock",
            t(
              lock.value === "acquired"
                ? "diagnostics.result.acquired"
                : lock.value === "busy"
                  ? "diagnostics.result.notAcquired"
                  : "diagnostics.result.null",
            ),
            t("diagnostics.details.triggerLock"),
            report.at,
          )
        : row("triggerDocumentLock", t("diagnostics.result.failed"), lock.message, report.at),
    );
  }

  const fetched = results.outsideFetch;
  rows.push(
    fetched.ok
      ? row(
          "fetchOutsideAllowlist",
          t("diagnostics.result.notRefused"),
          t("diagnostics.details.fetchSent", { url: OUTSIDE_ALLOWLIST_URL, status: fetched.value }),
          at,
        )
      : row("fetchOutsideAllowlist", t("diagnostics.result.refused"), fetched.message, at),
  );

  const cells = results.cellWrite;
  rows.push(
    cells.ok
      ? row(
          "write100kCells",
          t("diagnostics.result.ms", { ms: cells.value.ms }),
          t("diagnostics.details.cells", {
            cells: cells.value.cells,
            rows: SCRATCH_ROWS,
            columns: SCRATCH_COLUMNS,
          }),
          at,
        )
      : row("write100kCells", t("diagnostics.result.failed"), cells.message, at),
  );

  const session = (check: CheckId, seen: SessionSeen | null, missing: string): DiagnosticsRow => {
    if (!seen) return row(check, t("diagnostics.result.pending"), missing, at);
    const email = (a: Attempt<string>) =>
      a.ok ? a.value || t("diagnostics.result.empty") : `⚠ ${a.message}`;
    return row(
      check,
      email(seen.active),
      t("diagnostics.details.session", {
        active: email(seen.active),
        effective: email(seen.effective),
        authMode: seen.authMode || "—",
      }),
      seen.at,
    );
  };
  rows.push(session("sessionMenu", results.sessionMenu, ""));
  rows.push(session("sessionOpen", results.sessionOpen, t("diagnostics.details.pendingOpen")));
  rows.push(session("sessionTrigger", report?.session ?? null, pending()));
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

function isAttempt(value: unknown): value is Attempt<unknown> {
  if (!value || typeof value !== "object") return false;
  const a = value as Record<string, unknown>;
  return a.ok === true ? "value" in a : a.ok === false && typeof a.message === "string";
}

function isSession(value: unknown): value is SessionSeen {
  if (!value || typeof value !== "object") return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.at === "number" &&
    typeof s.authMode === "string" &&
    isAttempt(s.active) &&
    isAttempt(s.effective)
  );
}

/** What onOpen stored, or null when nothing (readable) is there. */
export function parseSessionSeen(text: string | null): SessionSeen | null {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    return isSession(value) ? value : null;
  } catch (_err) {
    return null;
  }
}

/** What the probe trigger stored, or null when nothing (readable) is there. */
export function parseTriggerReport(text: string | null): TriggerReport | null {
  try {
    const value: unknown = text ? JSON.parse(text) : null;
    if (!value || typeof value !== "object") return null;
    const r = value as Record<string, unknown>;
    const ok =
      typeof r.at === "number" &&
      isSession(r.session) &&
      isAttempt(r.spreadsheet) &&
      isAttempt(r.documentLock) &&
      isAttempt(r.documentProperties);
    return ok ? (value as TriggerReport) : null;
  } catch (_err) {
    return null;
  }
}
