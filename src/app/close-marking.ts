/**
 * "Mark the vouchers' reports integrated": the sidebar's one way to the marking. The approval is
 * checked first, every time (the Journal sheet's lines against the approval's digest, and four
 * eyes); only then are the approved journal's reports handed to the marking engine. Near the
 * time limit the marking keeps where it stopped and goes on by itself: the sidebar calls
 * `closeContinueMarking` piece after piece while it is open, and a one-off clock trigger of the
 * user who pressed (`continueCloseMarking`, an hour ahead, the least an add-on's allows) goes on
 * when no sidebar does. Each piece checks the approval again (the same digest, four eyes), the
 * account and the lock; it stops, naming why, when any of them changed.
 */
import { parseApproval } from "../close/approval";
import { MARK_RECORD_PREFIX, type MarkRecord, type MarkRecordStore, markVouchers } from "../close/mark";
import type { CloseMark, MarkOutcome } from "../close/types";
import { markReasonText } from "../close/words";
import { runtime } from "../gas/runtime";
import { deleteMyTriggers } from "../gas/triggers";
import { type Language, translate } from "../i18n";
import { loadText } from "../refresh/stored-text";
import { approvedMarks, CLOSE_APPROVAL_KEY, CLOSE_USED_CODES_KEY, parseJson } from "./close";
import {
  arrangeFollowUp,
  askStop,
  type CloseChain,
  clearChain,
  forgetLastMarking,
  isMyChain,
  lastMarkingSeen,
  loadChain,
  markKeyOf,
  progressText,
  readLastMarking,
  saveChain,
  saveLastMarking,
  stopAsked,
  stopperOf,
  timeText,
} from "./close-continuation";
import { showMarkedVouchers } from "./close-journal-state";
import { currentLanguage, entry, executionBudget, withDocumentLock } from "./entry";
import { openWriteSession } from "./outbox";
import { currentUser } from "./schedule-state";

export interface CloseMarkResult {
  ok: boolean;
  message: string;
  outcomes: MarkOutcome[];
  /** True when the marking stopped near the time limit and goes on: the sidebar calls again. */
  more: boolean;
  /** Reports done so far, of how many. */
  progress?: { done: number; count: number };
}

/** What the sidebar shows of the marking when it opens, and between its pieces. */
export interface CloseMarkingStatus {
  /** "running": a marking goes on; "last": the last one's outcome; "none": neither. */
  state: "running" | "last" | "none";
  message: string;
  ok: boolean;
  /** The running marking is this user's: their sidebar goes on with it. */
  mine: boolean;
  progress?: { done: number; count: number };
}

/**
 * The marking's records of `company`, in document properties (`close.mark.…`), one per batch
 * sent. Only that company's: a record is settled by a read of its own company, through that
 * company's client, never another's (the same report Id is another report there).
 */
export function propertyRecords(company: string): MarkRecordStore {
  const props = runtime().documentProperties();
  return {
    all: () =>
      Object.entries(props.getProperties())
        .filter(([key]) => key.startsWith(MARK_RECORD_PREFIX))
        .flatMap(([, text]) => {
          const record = parseJson(text) as MarkRecord | null;
          return record &&
            typeof record.key === "string" &&
            Array.isArray(record.marks) &&
            record.company === company
            ? [record]
            : [];
        }),
    put: (record) => props.setProperty(record.key, JSON.stringify(record)),
    remove: (key) => props.deleteProperty(key),
  };
}

/** What one execution of the marking did. */
interface EngineRun {
  outcomes: MarkOutcome[];
  /** The marks not reached before the time budget ran out. */
  remaining: CloseMark[];
  /** Why no report could be sent (this user's token for the company gone, another account's). */
  unusable: string | null;
}

/**
 * The marking engine over every company of `marks`: each company's reports through this user's
 * client for that company (its token checked against the company's account mark first; every
 * call in the Audit sheet), a record before each batch, done only once a read shows it, within
 * this execution's time budget. A company this user cannot write to gets its marks refused,
 * naming why; nothing is sent to it.
 */
function markWithEngine(
  marks: readonly CloseMark[],
  source: "sidebar" | "schedule",
  startedAt: number,
): EngineRun {
  const clock = { now: () => Date.now() };
  const budget = executionBudget(startedAt);
  const outcomes: MarkOutcome[] = [];
  const remaining: CloseMark[] = [];
  let unusable: string | null = null;
  for (const company of new Set(marks.map((m) => m.company))) {
    const own = marks.filter((m) => m.company === company);
    if (remaining.length > 0) {
      remaining.push(...own);
      continue;
    }
    const session = openWriteSession(source, company, "write");
    try {
      const port = session.companies(company);
      const refusal = session.unusable?.message ?? ("unusable" in port ? port.unusable : null);
      if (refusal) {
        unusable = refusal;
        for (const m of own)
          outcomes.push({
            kind: "refused",
            reportId: m.reportId,
            voucher: m.voucher,
            reason: { code: "unusable", message: refusal },
          });
        continue;
      }
      const records = propertyRecords(company);
      const result = markVouchers(own, { clientOf: () => session.client, records, clock, budget });
      outcomes.push(...result.outcomes);
      remaining.push(...result.remaining);
    } finally {
      session.finish();
    }
  }
  return { outcomes, remaining, unusable };
}

/** The marking's outcome in the user's words: the count done, then each report that is not. */
function markingText(
  marks: readonly CloseMark[],
  done: number,
  others: readonly MarkOutcome[],
  count: number,
  language: Language,
): string {
  const numberOf = (id: number) => marks.find((m) => m.reportId === id)?.reportNumber || String(id);
  const lines = [translate(language, "close.mark.done", { done, count })];
  for (const o of others) {
    const report = numberOf(o.reportId);
    if (o.kind === "otherCode")
      lines.push(translate(language, "close.mark.otherCode", { report, code: o.code, voucher: o.voucher }));
    else if (o.kind === "unknown")
      lines.push(
        translate(language, "close.mark.unknown", {
          report,
          voucher: o.voucher,
          reason: markReasonText(o.reason, language),
        }),
      );
    else if (o.kind === "refused")
      lines.push(
        translate(language, "close.mark.refused", {
          report,
          voucher: o.voucher,
          reason: markReasonText(o.reason, language),
        }),
      );
  }
  return lines.join("\n");
}

/** The position key of the mark an outcome is of (none when it is not among `marks`). */
function keyOfOutcome(marks: readonly CloseMark[], o: MarkOutcome): string[] {
  const mark = marks.find((m) => m.reportId === o.reportId && m.voucher === o.voucher);
  return mark ? [markKeyOf(mark)] : [];
}

/** The approved journal's digest as stored with the approval ("" when none). */
function approvedDigest(): string {
  return parseApproval(loadText(runtime().documentProperties(), CLOSE_APPROVAL_KEY))?.digest ?? "";
}

/**
 * One execution of the marking: from the start (`chain` null) or from where `chain` stopped.
 * Past the time budget with reports left, where it stopped is kept and a follow-up arranged;
 * at the end (every report settled, or no report could be sent) the outcome is kept for the
 * sidebar and the notice on opening.
 */
function markPiece(
  ready: readonly CloseMark[],
  chain: CloseChain | null,
  source: "sidebar" | "schedule",
  startedAt: number,
  language: Language,
): CloseMarkResult {
  const left = chain ? new Set(chain.cursor.remaining) : null;
  const marks = chain
    ? ready
        .filter((m) => left?.has(markKeyOf(m)))
        .map((m) => ({ ...m, integrationDate: chain.cursor.integrationDate }))
    : ready;
  const run = markWithEngine(marks, source, startedAt);
  const doneNow = run.outcomes.filter((o) => o.kind === "done");
  rememberMarkedVouchers(marks, doneNow);
  showMarkedVouchers(marks, run.outcomes, language);
  const total = chain?.cursor.total ?? ready.length;
  const done = (chain?.cursor.done ?? 0) + doneNow.length;
  const unknown = run.outcomes.filter((o) => o.kind === "unknown");
  const notes = [
    ...(chain?.cursor.notes ?? []),
    ...run.outcomes.filter((o) => o.kind !== "done" && o.kind !== "unknown"),
  ];
  const goesOn = run.remaining.length > 0 && run.unusable === null && !(chain && stopAsked(chain));
  if (goesOn) {
    const me = currentUser();
    const next: CloseChain = {
      chainId: chain?.chainId ?? runtime().uuid(),
      ownerKey: me.key,
      ownerLabel: me.label,
      startedBy: chain?.startedBy ?? source,
      savedAt: Date.now(),
      executions: (chain?.executions ?? 0) + 1,
      calls: 0,
      records: done,
      settingsFingerprint: chain?.settingsFingerprint ?? approvedDigest(),
      cursor: {
        total,
        done,
        integrationDate: chain?.cursor.integrationDate ?? marks[0]?.integrationDate ?? "",
        // The marks not confirmed yet are read again first: a record settles them, never a second mark.
        remaining: [...unknown.flatMap((o) => keyOfOutcome(marks, o)), ...run.remaining.map(markKeyOf)],
        notes,
        triggerAt: null,
      },
    };
    next.cursor.triggerAt = arrangeFollowUp();
    saveChain(next);
    const message = progressText(next, language, true);
    return { ok: true, message, outcomes: run.outcomes, more: true, progress: { done, count: total } };
  }
  // Stopped: a continuation that found no report it could send (the token gone), or a stop asked.
  const stoppedBy = chain && stopAsked(chain) ? stopperOf() : null;
  const reason =
    chain && run.unusable !== null
      ? run.unusable
      : stoppedBy !== null && run.remaining.length > 0
        ? translate(language, "close.continue.cancelled", { who: stoppedBy })
        : null;
  const text = markingText(ready, done, [...notes, ...unknown], total, language);
  const message = reason
    ? `${translate(language, "close.continue.stopped", { done, count: total, reason })}\n${text}`
    : text;
  const ok = done === total;
  clearChain();
  saveLastMarking(ok, message, source === "sidebar");
  return { ok, message, outcomes: run.outcomes, more: false, progress: { done, count: total } };
}

/** Sidebar: marks the approved journal's reports, once the approval holds for this user. */
export function closeMarkVouchers(): CloseMarkResult {
  return entry("sidebar", () => {
    const startedAt = Date.now();
    const language = currentLanguage();
    const ready = approvedMarks();
    if (!ready.ok) return { ok: false, message: ready.message, outcomes: [], more: false };
    // One marking at a time per document: its records and the reports' reads are the document's.
    return withDocumentLock(
      "form",
      30_000,
      (lock) => {
        throw new Error(lock ? lock.busyMessage(language, "busy.form") : translate(language, "busy.form"));
      },
      () => {
        // Pressed again: this marking replaces any under way (what is done reads as done).
        clearChain();
        forgetLastMarking();
        return markPiece(ready.marks, null, "sidebar", startedAt, language);
      },
    );
  });
}

/**
 * One more piece of the marking under way, for the user who started it: the sidebar's loop, and
 * the follow-up trigger. The approval must still be the one it started from and hold (the
 * journal's digest unchanged, four eyes), else it stops naming the change.
 */
function continueMarking(source: "sidebar" | "schedule", startedAt: number): CloseMarkResult {
  const language = currentLanguage();
  const found = loadChain();
  if (!found) return statusResult(language);
  if (!isMyChain(found)) {
    const message = translate(language, "close.continue.notMine", { who: found.ownerLabel });
    return { ok: false, message, outcomes: [], more: false };
  }
  return withDocumentLock(
    "form",
    30_000,
    (lock) => {
      // The trigger finding the document busy comes back later; a sidebar says so and calls again.
      if (source === "schedule") arrangeFollowUp();
      throw new Error(lock ? lock.busyMessage(language, "busy.form") : translate(language, "busy.form"));
    },
    () => {
      // Read again under the lock: another piece (the trigger, another sidebar) may have gone on.
      const chain = loadChain();
      if (!chain || !isMyChain(chain)) return statusResult(language);
      const ready = approvedMarks();
      const reason = !ready.ok
        ? ready.message
        : approvedDigest() !== chain.settingsFingerprint
          ? translate(language, "close.continue.reapproved")
          : stopAsked(chain)
            ? translate(language, "close.continue.cancelled", { who: stopperOf() })
            : null;
      if (reason !== null || !ready.ok) return stopChain(chain, reason ?? "", source, language);
      // The trigger that fired is gone: its successor is in place before any call leaves, so an
      // execution killed at any point is still followed by one that settles its records.
      if (source === "schedule") arrangeFollowUp();
      return markPiece(ready.marks, chain, source, startedAt, language);
    },
  );
}

/** Ends `chain` before its next piece, naming why; the outcome is kept for the sidebar and the notice. */
function stopChain(
  chain: CloseChain,
  reason: string,
  source: "sidebar" | "schedule",
  language: Language,
): CloseMarkResult {
  const { done, total: count } = chain.cursor;
  const message = translate(language, "close.continue.stopped", { done, count, reason });
  clearChain();
  saveLastMarking(false, message, source === "sidebar");
  return { ok: false, message, outcomes: [], more: false, progress: { done, count } };
}

/** No piece to run: the marking's status as a result. */
function statusResult(language: Language): CloseMarkResult {
  const status = markingStatus(language);
  return { ok: status.ok, message: status.message, outcomes: [], more: false };
}

/** Sidebar: one more piece of this user's marking under way (the sidebar calls again while `more`). */
export function closeContinueMarking(): CloseMarkResult {
  return entry("sidebar", () => continueMarking("sidebar", Date.now()));
}

/** Handler of the one-off trigger that goes on with a marking stopped near the time limit. */
export function continueCloseMarking(e?: GoogleAppsScript.Events.TimeDriven): void {
  entry("trigger", () => {
    const startedAt = Date.now();
    const spreadsheet = runtime().spreadsheet();
    if (!spreadsheet) throw new Error(translate(currentLanguage(), "close.continue.noSpreadsheet"));
    // One-off triggers stay listed (and count against the 20 allowed) until deleted.
    if (e?.triggerUid) deleteMyTriggers(spreadsheet, [e.triggerUid]);
    continueMarking("schedule", startedAt);
  });
}

/**
 * Sidebar: stops the marking under way, whoever started it (stopping sends nothing). A piece
 * running now stops at its end; nothing is marked twice either way.
 */
export function closeStopMarking(): CloseMarkingStatus {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const chain = loadChain();
    if (!chain) return markingStatus(language);
    askStop(chain);
    return withDocumentLock<CloseMarkingStatus>(
      "form",
      5_000,
      () => ({
        state: "running",
        message: translate(language, "close.continue.stopping"),
        ok: true,
        mine: isMyChain(chain),
      }),
      () => {
        const now = loadChain();
        if (now && now.chainId === chain.chainId)
          stopChain(
            now,
            translate(language, "close.continue.cancelled", { who: currentUser().label }),
            "sidebar",
            language,
          );
        return markingStatus(language);
      },
    );
  });
}

/** What the sidebar shows of the marking: the one under way, or the last one's outcome. */
function markingStatus(language: Language): CloseMarkingStatus {
  const chain = loadChain();
  if (chain) {
    const mine = isMyChain(chain);
    const progress = { done: chain.cursor.done, count: chain.cursor.total };
    return { state: "running", message: progressText(chain, language, mine), ok: true, mine, progress };
  }
  const last = readLastMarking();
  if (!last)
    return { state: "none", message: translate(language, "close.continue.none"), ok: true, mine: false };
  const when = timeText(last.at, "yyyy-MM-dd HH:mm");
  const message = `${translate(language, "close.continue.last", { when })}\n${last.message}`;
  return { state: "last", message, ok: last.ok, mine: false };
}

/**
 * Sidebar, on opening: the marking under way (its progress; this user's own goes on from the
 * sidebar), or the last marking's outcome, which is then not shown again on opening the
 * spreadsheet.
 */
export function getCloseMarkingStatus(): CloseMarkingStatus {
  return entry("sidebar", () => {
    const status = markingStatus(currentLanguage());
    const last = status.state === "last" ? readLastMarking() : null;
    if (last) lastMarkingSeen(last);
    return status;
  });
}

/** Keeps the codes of vouchers with a report marked: a later journal of the month numbers past them. */
export function rememberMarkedVouchers(marks: readonly CloseMark[], done: readonly MarkOutcome[]): void {
  const props = runtime().documentProperties();
  const stored = (parseJson(props.getProperty(CLOSE_USED_CODES_KEY)) ?? {}) as Record<string, string[]>;
  for (const outcome of done) {
    const mark = marks.find((m) => m.reportId === outcome.reportId && m.voucher === outcome.voucher);
    if (!mark) continue;
    const codes = new Set(stored[mark.company] ?? []);
    codes.add(mark.voucher);
    // The latest few hundred are enough to number a month past them.
    stored[mark.company] = [...codes].slice(-300);
  }
  props.setProperty(CLOSE_USED_CODES_KEY, JSON.stringify(stored));
}
