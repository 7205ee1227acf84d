/** Employees' names as a refresh learns them from the reports it reads (../employees.ts). */
import type { ExpenseReport, Fund } from "../../api/types";
import { learnEmployeeNames, saveEmployeeNames } from "../employees";
import type { RefreshRun } from "./state";

/**
 * Adds the names `reports` carry to the run's names and stores them, those of `funds`'
 * employees kept first; whether any was new.
 */
export function learnNames(
  run: RefreshRun,
  reports: readonly ExpenseReport[],
  funds?: readonly Fund[] | null,
): boolean {
  const { deps } = run;
  const next = deps.employeeNames ? learnEmployeeNames(run.names, reports) : null;
  if (!next || !deps.employeeNames) return false;
  saveEmployeeNames(
    deps.employeeNames,
    next,
    funds ? new Set(funds.map((f) => f.idAssignTo)) : undefined,
    deps.namesMine,
  );
  run.names = next;
  return true;
}
