/**
 * "Mark the vouchers' reports integrated": the sidebar's one way to the marking. The approval is
 * checked first, every time (the Journal sheet's lines against the approval's digest, and four
 * eyes); only then are the approved journal's reports handed to the marking engine.
 */
import type { CloseMark, MarkOutcome } from "../close/types";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { approvedMarks, CLOSE_USED_CODES_KEY, parseJson } from "./close";
import { currentLanguage, entry } from "./entry";

export interface CloseMarkResult {
  ok: boolean;
  message: string;
  outcomes: MarkOutcome[];
  /** True when the marking stopped near the time limit: the sidebar calls again. */
  more: boolean;
}

/**
 * The marking engine's port: every report of `marks` marked once with its voucher's code (a
 * record before each call, done only once a read shows it, interrupted calls settled by reading).
 * This version has no engine: nothing is sent, and the sidebar says so.
 */
function markWithEngine(_marks: readonly CloseMark[]): { outcomes: MarkOutcome[]; more: boolean } | null {
  return null;
}

/** Sidebar: marks the approved journal's reports, once the approval holds for this user. */
export function closeMarkVouchers(): CloseMarkResult {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const ready = approvedMarks();
    if (!ready.ok) return { ok: false, message: ready.message, outcomes: [], more: false };
    const marked = markWithEngine(ready.marks);
    if (!marked)
      return { ok: false, message: translate(language, "close.mark.unavailable"), outcomes: [], more: false };
    const done = marked.outcomes.filter((o) => o.kind === "done");
    rememberMarkedVouchers(ready.marks, done);
    const ok = marked.outcomes.every((o) => o.kind === "done");
    return { ok, message: "", outcomes: marked.outcomes, more: marked.more };
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
