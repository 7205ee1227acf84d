/**
 * Employees' names as the expense reports give them (EmployeeId, EmployeeName): the service
 * has no employee endpoint, so a name is known once a report of that employee was read. Kept
 * in one document property so that a refresh of the funds alone still shows them; the value
 * stays under the 9 KB a property holds by dropping the names seen longest ago.
 */
import type { ExpenseReport } from "../api/types";
import type { TextStore } from "./stored-text";

export type EmployeeNames = Map<number, string>;

export const EMPLOYEE_NAMES_KEY = "refresh.employeeNames";
/** UTF-8 bytes of the stored value: under the 9 KB of one property, with room to spare. */
export const MAX_NAME_BYTES = 8_000;
const MAX_NAME_LENGTH = 80;

export function loadEmployeeNames(store: TextStore): EmployeeNames {
  const names: EmployeeNames = new Map();
  try {
    const stored: unknown = JSON.parse(store.getProperty(EMPLOYEE_NAMES_KEY) ?? "[]");
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

/** Saves `names` (latest first), leaving out the oldest past MAX_NAME_BYTES. */
export function saveEmployeeNames(store: TextStore, names: EmployeeNames): void {
  const pairs: string[] = [];
  let bytes = 2;
  for (const pair of names) {
    const text = JSON.stringify(pair);
    bytes += utf8Length(text) + 1;
    if (bytes > MAX_NAME_BYTES) break;
    pairs.push(text);
  }
  store.setProperty(EMPLOYEE_NAMES_KEY, `[${pairs.join(",")}]`);
}

function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
