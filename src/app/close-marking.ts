/**
 * "Mark the vouchers' reports integrated": the sidebar's one way to the marking. The approval is
 * checked first, every time (the Journal sheet's lines against the approval's digest, and four
 * eyes); only then are the approved journal's reports handed to the marking engine.
 */
import { MARK_RECORD_PREFIX, type MarkRecord, type MarkRecordStore, markVouchers } from "../close/mark";
import type { CloseMark, MarkOutcome } from "../close/types";
import { markReasonText } from "../close/words";
import { runtime } from "../gas/runtime";
import { type Language, translate } from "../i18n";
import { createTimeBudget } from "../longrun/budget";
import { approvedMarks, CLOSE_USED_CODES_KEY, parseJson } from "./close";
import { showMarkedVouchers } from "./close-journal-state";
import { currentLanguage, entry, withDocumentLock } from "./entry";
import { openWriteSession } from "./outbox";

export interface CloseMarkResult {
  ok: boolean;
  message: string;
  outcomes: MarkOutcome[];
  /** True when the marking stopped near the time limit: the sidebar calls again. */
  more: boolean;
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

/**
 * The marking engine over every company of `marks`: each company's reports through this user's
 * client for that company (its token checked against the company's account mark first; every
 * call in the Audit sheet), a record before each batch, done only once a read shows it, within
 * this execution's time budget. A company this user cannot write to gets its marks refused,
 * naming why; nothing is sent to it.
 */
function markWithEngine(marks: readonly CloseMark[]): { outcomes: MarkOutcome[]; more: boolean } {
  const clock = { now: () => Date.now() };
  const budget = createTimeBudget({ clock });
  const outcomes: MarkOutcome[] = [];
  let more = false;
  for (const company of new Set(marks.map((m) => m.company))) {
    if (more) break;
    const own = marks.filter((m) => m.company === company);
    const session = openWriteSession("sidebar", company, "write");
    try {
      const port = session.companies(company);
      const refusal = session.unusable?.message ?? ("unusable" in port ? port.unusable : null);
      if (refusal) {
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
      more = result.mustContinue;
    } finally {
      session.finish();
    }
  }
  return { outcomes, more };
}

/** The marking's outcome in the user's words: the count done, then each report that is not. */
function markingText(
  marks: readonly CloseMark[],
  outcomes: readonly MarkOutcome[],
  more: boolean,
  language: Language,
): string {
  const numberOf = (id: number) => marks.find((m) => m.reportId === id)?.reportNumber || String(id);
  const done = outcomes.filter((o) => o.kind === "done").length;
  const lines = [translate(language, "close.mark.done", { done, count: marks.length })];
  for (const o of outcomes) {
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
  if (more) lines.push(translate(language, "close.mark.more"));
  return lines.join("\n");
}

/** Sidebar: marks the approved journal's reports, once the approval holds for this user. */
export function closeMarkVouchers(): CloseMarkResult {
  return entry("sidebar", () => {
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
        const marked = markWithEngine(ready.marks);
        const done = marked.outcomes.filter((o) => o.kind === "done");
        rememberMarkedVouchers(ready.marks, done);
        showMarkedVouchers(ready.marks, marked.outcomes, language);
        const ok = !marked.more && done.length === ready.marks.length;
        const message = markingText(ready.marks, marked.outcomes, marked.more, language);
        return { ok, message, outcomes: marked.outcomes, more: marked.more };
      },
    );
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
