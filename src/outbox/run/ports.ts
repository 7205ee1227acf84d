/**
 * Each company's port in a run, made here and nowhere else: a row is sent, and a write
 * settled, through its own company's port (this user's token for it, its audit and IdAdmin)
 * or not at all.
 */

import { type CompanyDirectory, FIRST_COMPANY_KEY, ONE_COMPANY } from "../../company/model";
import { resolveRowCompany } from "../companies";
import { fieldLabel, type OutboxRow } from "../rows";
import type { WriteContext } from "../write";
import type { CompanyPort, RunContext, UnusableCompanyPort } from "./context";
import { type RunState, words } from "./state";

/** The document's companies (absent: the first company alone, unnamed). */
export function directoryOf(context: RunContext): CompanyDirectory {
  return context.directory ?? ONE_COMPANY;
}

/** The company's port, asked for once per run; a company other than the first needs `companies`. */
export function portOf(
  context: RunContext,
  state: Pick<RunState, "ports">,
  company: string,
): CompanyPort | UnusableCompanyPort {
  let port = state.ports.get(company);
  if (port) return port;
  if (context.companies) port = context.companies(company);
  else if (company === FIRST_COMPANY_KEY)
    port = {
      service: context.service,
      audit: context.audit,
      adminId: context.adminId,
      adminIssue: context.adminIssue ?? null,
    };
  else port = { unusable: words(context)("outbox.company.noConnection", { company }) };
  state.ports.set(company, port);
  return port;
}

/**
 * What a write through the port is given. A refusal before sending names the row's column,
 * not the service's field.
 */
export function writingTo(context: RunContext, port: CompanyPort): WriteContext {
  return {
    ...context,
    fieldName: (field: string) => fieldLabel(context.language, field),
    service: port.service,
    audit: port.audit,
  };
}

/** The company's name as the rows show it (its key when the directory does not list it). */
export function companyName(context: RunContext, key: string): string {
  return directoryOf(context).entries.find((e) => e.key === key)?.name || key;
}

/** The company a row's Company cell names, or why it names none. */
export function companyOf(context: RunContext, row: OutboxRow) {
  return resolveRowCompany(row, directoryOf(context), context.language);
}
