/**
 * What the Journal sheet's State column says of each voucher (a column the approval's digest
 * does not read): "Marked …" once every report of a voucher is marked, "Undone …" once a
 * voucher is undone, and the vouchers' codes kept for numbering (`close.usedCodes`): a code
 * undone is forgotten, so the voucher can be built, approved and marked again under it.
 */
import { JOURNAL_COLUMNS } from "../close/sheets";
import type { CloseMark, MarkOutcome } from "../close/types";
import { readJournalSheet, writeJournalStates } from "../gas/close-sheets";
import { runtime } from "../gas/runtime";
import type { Language, StringKey } from "../i18n";
import { translate } from "../i18n";
import { CLOSE_USED_CODES_KEY, closeNow, parseJson } from "./close";

const VOUCHER_AT = JOURNAL_COLUMNS.findIndex((c) => c.key === "voucher");
const COMPANY_AT = JOURNAL_COLUMNS.findIndex((c) => c.key === "companyKey");

/** The Journal sheet's rows of `company`'s voucher `code` (sheet row numbers). */
export function voucherRows(company: string, code: string): number[] {
  const rows: number[] = [];
  readJournalSheet().forEach((cells, i) => {
    if (String(cells[VOUCHER_AT] ?? "") === code && String(cells[COMPANY_AT] ?? "") === company)
      rows.push(i + 2);
  });
  return rows;
}

/** Writes `key`'s text in the State cell of every row of each voucher in `vouchers` ("company|code"). */
function writeStates(
  vouchers: ReadonlySet<string>,
  key: StringKey,
  params: Record<string, string | number>,
  language: Language,
): void {
  const states = new Map<number, string>();
  for (const voucher of vouchers) {
    const [company = "", code = ""] = voucher.split("|");
    for (const row of voucherRows(company, code))
      states.set(row, translate(language, key, { ...params, voucher: code }));
  }
  if (states.size > 0) writeJournalStates(states);
}

/** After a marking: "Marked …" on the vouchers whose every report the marking shows done. */
export function showMarkedVouchers(
  marks: readonly CloseMark[],
  outcomes: readonly MarkOutcome[],
  language: Language,
): void {
  const done = new Set(outcomes.filter((o) => o.kind === "done").map((o) => `${o.reportId}|${o.voucher}`));
  const byVoucher = new Map<string, boolean>();
  for (const m of marks) {
    const key = `${m.company}|${m.voucher}`;
    byVoucher.set(key, (byVoucher.get(key) ?? true) && done.has(`${m.reportId}|${m.voucher}`));
  }
  const complete = new Set([...byVoucher].filter(([, all]) => all).map(([key]) => key));
  writeStates(complete, "close.state.marked", { when: closeNow() }, language);
}

/** After an undo: the voucher's rows say undone (or how far it got), by whom and when. */
export function showUndoneVoucher(
  company: string,
  code: string,
  done: number,
  count: number,
  who: string,
  language: Language,
): void {
  const complete = done === count;
  writeStates(
    new Set([`${company}|${code}`]),
    complete ? "close.state.undone" : "close.state.undoPartial",
    { when: closeNow(), who: who || "?", done, count },
    language,
  );
}

/** Forgets `code` among `company`'s marked vouchers: a new journal may number a voucher with it again. */
export function forgetMarkedVoucher(company: string, code: string): void {
  const props = runtime().documentProperties();
  const stored = (parseJson(props.getProperty(CLOSE_USED_CODES_KEY)) ?? {}) as Record<string, unknown>;
  const codes = stored[company];
  if (!Array.isArray(codes) || !codes.includes(code)) return;
  stored[company] = codes.filter((c) => c !== code);
  props.setProperty(CLOSE_USED_CODES_KEY, JSON.stringify(stored));
}
