/**
 * Employees' names as the expense reports give them (EmployeeId, EmployeeName): the service
 * has no employee endpoint, so a name is known once a report of that employee was read. Kept
 * in document properties (cut into values, ./stored-text.ts) so that a refresh of the funds, or
 * one whose report pages come after the funds' pages, still shows them: a fund's name is never
 * written as an id first and as a name again. Past MAX_NAME_CHARS the names seen longest ago
 * are dropped, those of the funds' employees last.
 */
import type { ExpenseReport } from "../api/types";
import { loadText, saveText, type TextStore } from "./stored-text";

export type EmployeeNames = Map<number, string>;

export const EMPLOYEE_NAMES_KEY = "refresh.employeeNames";
/** Characters of the stored list: about 2,400 names in 20 values, 60 KB of the document's 500 KB. */
export const MAX_NAME_CHARS = 60_000;
const MAX_NAME_LENGTH = 80;

/**
 * This user's mark on the list they saved (its digest in their own properties): any editor can
 * rewrite the document's list, naming their own employee id after a colleague, and a fund
 * created from the Fund sidebar's list would then go to the wrong person.
 */
export interface NamesMark {
  is(text: string): boolean;
  keep(text: string): void;
}

/** The stored names; none when `mine` is given and the list is not the one this user saved. */
export function loadEmployeeNames(store: TextStore, mine?: NamesMark): EmployeeNames {
  const names: EmployeeNames = new Map();
  try {
    // The list in one value, as it was kept before it could take more than 9 KB, is read too.
    const text = loadText(store, EMPLOYEE_NAMES_KEY) ?? store.getProperty(EMPLOYEE_NAMES_KEY) ?? "[]";
    if (mine && !mine.is(text)) return names;
    const stored: unknown = JSON.parse(text);
    if (Array.isArray(stored))
      for (const pair of stored)
        if (Array.isArray(pair) && Number.isSafeInteger(pair[0]) && typeof pair[1] === "string")
          names.set(pair[0], pair[1]);
  } catch {
    // A damaged value is forgotten: names come back with the next reports read.
  }
  return names;
}

/**
 * `known` with the names of `reports` added (the latest first), or null when nothing changed.
 * A report without a name, or with an id that is not one, teaches nothing.
 */
export function learnEmployeeNames(
  known: EmployeeNames,
  reports: readonly Pick<ExpenseReport, "employeeId" | "employeeName">[],
): EmployeeNames | null {
  const seen: EmployeeNames = new Map();
  for (const r of reports) {
    const name = (r.employeeName ?? "").trim().slice(0, MAX_NAME_LENGTH);
    if (Number.isSafeInteger(r.employeeId) && r.employeeId > 0 && name) seen.set(r.employeeId, name);
  }
  if ([...seen].every(([id, name]) => known.get(id) === name)) return null;
  const next: EmployeeNames = new Map(seen);
  for (const [id, name] of known) if (!next.has(id)) next.set(id, name);
  return next;
}

/**
 * Saves `names` (latest first), the names of `first` (the funds' employees) before the others,
 * leaving out the rest past MAX_NAME_CHARS.
 */
export function saveEmployeeNames(
  store: TextStore,
  names: EmployeeNames,
  first?: ReadonlySet<number>,
  mine?: NamesMark,
): void {
  const pairs: string[] = [];
  let chars = 2;
  const ordered = first ? [...names].sort(([a], [b]) => Number(first.has(b)) - Number(first.has(a))) : names;
  for (const pair of ordered) {
    const text = JSON.stringify(pair);
    chars += text.length + 1;
    if (chars > MAX_NAME_CHARS) break;
    pairs.push(text);
  }
  const text = `[${pairs.join(",")}]`;
  saveText(store, EMPLOYEE_NAMES_KEY, text);
  mine?.keep(text);
}
