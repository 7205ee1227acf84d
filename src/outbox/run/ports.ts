/**
 * Each company's port in a run, made here and nowhere else: a row is sent, and a write
 * settled, through its own company's port (this user's token for it, its audit and IdAdmin)
 * or not at all.
 */

import { type CompanyDirectory, FIRST_COMPANY_KEY, ONE_COMPANY } from "../../company/model";
import { type CompanyOfRow, companyOfRow } from "../companies";
import type { OutboxRow } from "../rows";
import type { AuditPort, ServicePort, WriteContext } from "../write";
import type { CompanyPort, RunContext, UnusableCompanyPort } from "./context";
import { type RunState, words } from "./state";

/** The document's companies (absent: the first company alone, unnamed). */
export function directoryOf(context: RunContext): CompanyDirectory {
  return context.directory ?? ONE_COMPANY;
}

/**
 * A company's port: its service (this user's client for that company), its audit, the IdAdmin
 * this user's writes to it carry and why that may not go. Every port is made here, the
 * session's (app/outbox.ts) and a run's without companies alike.
 */
export function companyPort(
  service: ServicePort,
  audit: AuditPort,
  adminId: number | null,
  adminIssue: string | null,
): CompanyPort {
  return { service, audit, adminId, adminIssue };
}

/**
 * The company's port, asked for once per run and kept in the run's state (the one cache of
 * ports): from `context.companies`, which says why a company is unusable; without it (a
 * document of one company), the context's own service for the first company, no other.
 */
export function portOf(
  context: RunContext,
  state: Pick<RunState, "ports">,
  company: string,
): CompanyPort | UnusableCompanyPort {
  let port = state.ports.get(company);
  if (port) return port;
  if (context.companies) port = context.companies(company);
  else if (company === FIRST_COMPANY_KEY)
    port = companyPort(context.service, context.audit, context.adminId, context.adminIssue ?? null);
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
    fieldName: (field: string) => context.words.field(field),
    service: port.service,
    audit: port.audit,
  };
}

/** The company's name as the rows show it (its key when the directory does not list it). */
export function companyName(context: RunContext, key: string): string {
  return directoryOf(context).entries.find((e) => e.key === key)?.name || key;
}

/** The company a row's Company cell names, or why it names none. */
export function companyOf(context: RunContext, row: OutboxRow): CompanyOfRow {
  return companyOfRow(row, directoryOf(context));
}
