/**
 * Diagnostics…: the self-check for a first real deployment (hidden unless the document property
 * diagnostics.enabled is "1"). It asks Google each question the emulation answers by assumption
 * and writes the answers to the sheet "Diagnostics"; a probe trigger and onOpen leave what they
 * saw for the next run to show. docs/real-apps-script.md lists the checks.
 */
import {
  CHECK_IDS,
  DIAGNOSTICS_SHEET,
  type DiagnosticsResults,
  diagnosticsRows,
  diagnosticsSheetValues,
  HOURLY_TRIGGER_MS,
  isDiagnosticsEnabled,
  OPEN_REPORT_KEY,
  OUTSIDE_ALLOWLIST_URL,
  PROBE_DUE_KEY,
  PROBE_HANDLER,
  parseSessionSeen,
  parseTriggerReport,
  probeNeverFired,
  SCRATCH_COLUMNS,
  SCRATCH_ROWS,
  type SessionSeen,
  SHORT_TRIGGER_MS,
  serializeSeen,
  TRIGGER_REPORT_KEY,
  type TriggerReport,
} from "../diagnostics/checks";
import {
  activeSpreadsheetId,
  createClockTriggerAfter,
  deleteMyTriggers,
  diagnosticsFlag,
  documentStoreAvailable,
  fetchStatus,
  formatWhen,
  listMyTriggers,
  readSeen,
  saveSeen,
  seeFromTrigger,
  seePlainTextFormula,
  seeSession,
  seeTwoDocumentLocks,
  timeCellWrite,
  toast,
  writeResultsSheet,
} from "../gas/diagnostics";
import { translate } from "../i18n";
import { currentLanguage, entry, tolerate } from "./entry";
import { DIAGNOSTICS_MENU_ITEM, type MenuItem } from "./menu";

/**
 * The Diagnostics menu item when the document turns it on, for onOpen (any mode but NONE);
 * while on, records what Session says in onOpen's mode.
 */
export function diagnosticsMenuItems(authMode: string): MenuItem[] {
  if (!tolerate("shown only", () => isDiagnosticsEnabled(diagnosticsFlag()), false)) return [];
  // The menu item matters more; the check then shows as pending.
  tolerate("shown only", () => saveSeen(OPEN_REPORT_KEY, serializeSeen(seeSession(authMode))), undefined);
  return [DIAGNOSTICS_MENU_ITEM];
}

/** Menu item: runs every check and writes one row per check to the sheet "Diagnostics". */
export function runDiagnostics(): void {
  // Anyone who can open a sidebar can call this too: its refusal is thrown to whoever called.
  entry("sidebar", diagnose);
}

function diagnose(): void {
  const language = currentLanguage();
  // Anyone who can open a sidebar can call this: it runs only where the document turned it on.
  if (!isDiagnosticsEnabled(diagnosticsFlag())) throw new Error(translate(language, "diagnostics.off"));
  const at = Date.now();
  const sessionMenu = seeSession("FULL");
  const triggerReport = newest(readSeen(TRIGGER_REPORT_KEY).map(parseTriggerReport));
  const sessionOpen = newest(readSeen(OPEN_REPORT_KEY).map(parseSessionSeen));
  const earlierDue = readSeen(PROBE_DUE_KEY).map(Number).filter(Number.isFinite);
  const earlierProbeDueAt = earlierDue.length > 0 ? Math.max(...earlierDue) : null;

  // A probe left by an earlier run that has not fired yet is replaced by this run's.
  deleteMyTriggers((t) => t.handler === PROBE_HANDLER);
  const shortTrigger = createClockTriggerAfter(PROBE_HANDLER, SHORT_TRIGGER_MS);
  if (shortTrigger.ok) {
    const uid = shortTrigger.value;
    deleteMyTriggers((t) => t.uid === uid);
  }
  const delay = shortTrigger.ok ? SHORT_TRIGGER_MS : HOURLY_TRIGGER_MS;
  const created = createClockTriggerAfter(PROBE_HANDLER, delay);
  const probe = created.ok
    ? { ok: true as const, value: { uid: created.value, dueAt: Date.now() + delay } }
    : created;
  const listing = listMyTriggers();
  // A probe that never fired stays the one to compare with: a later run must not hide it.
  if (probe.ok && !probeNeverFired(at, earlierProbeDueAt, triggerReport))
    saveSeen(PROBE_DUE_KEY, String(probe.value.dueAt));

  const results: DiagnosticsResults = {
    at,
    spreadsheetId: activeSpreadsheetId(),
    shortTrigger,
    probe,
    listing,
    triggerReport,
    earlierProbeDueAt,
    outsideFetch: fetchStatus(OUTSIDE_ALLOWLIST_URL),
    cellWrite: timeCellWrite(SCRATCH_ROWS, SCRATCH_COLUMNS),
    plainText: seePlainTextFormula(),
    twoLocks: seeTwoDocumentLocks(),
    sessionMenu,
    sessionOpen,
  };
  const rows = diagnosticsRows(results, language, formatWhen);
  writeResultsSheet(DIAGNOSTICS_SHEET, diagnosticsSheetValues(rows, language, formatWhen));
  toast(
    translate(language, "diagnostics.done", { count: CHECK_IDS.length, sheet: DIAGNOSTICS_SHEET }),
    translate(language, "diagnostics.title"),
  );
}

/** Handler of the probe trigger: records what a time trigger gets, then deletes itself. */
export function runDiagnosticsTrigger(e?: GoogleAppsScript.Events.TimeDriven): void {
  entry("trigger", () => recordWhatTriggerSees(e));
}

function recordWhatTriggerSees(e?: GoogleAppsScript.Events.TimeDriven): void {
  const event = (e ?? {}) as Partial<GoogleAppsScript.Events.TimeDriven>;
  const uid = typeof event.triggerUid === "string" ? event.triggerUid : "";
  if (uid) {
    // A one-off trigger may already be gone once it has fired, or there is no spreadsheet.
    tolerate("tried again later", () => deleteMyTriggers((t) => t.uid === uid), undefined);
  }
  // A trigger without document properties cannot read the flag: what it sees is the answer.
  if (documentStoreAvailable() && !isDiagnosticsEnabled(diagnosticsFlag())) return;
  const report = seeFromTrigger(event.authMode === undefined ? "" : String(event.authMode));
  saveSeen(TRIGGER_REPORT_KEY, serializeSeen(report));
}

function newest<T extends TriggerReport | SessionSeen>(seen: Array<T | null>): T | null {
  let best: T | null = null;
  for (const s of seen) if (s && (!best || s.at > best.at)) best = s;
  return best;
}
