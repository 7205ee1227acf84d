/**
 * Funds and reports held in a run: while a write on one is unsettled (or may still land),
 * nothing else is sent on it, above or below, and rows on it say why. Reports too: a report's
 * later write must not be undone by an earlier one landing after it. Per company: equal ids of
 * two companies are two funds.
 */

import { inFlightUntil, type WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import type { RunContext } from "./context";
import { clock, type RunState, words } from "./state";

/** The fund or report a request acts on, within its company; undefined for a fund creation. */
export function heldKey(request: WriteRequest | undefined, company: string): string | undefined {
  if (request === undefined) return undefined;
  if ("fundId" in request) return `${company}|fund:${request.fundId}`;
  return "reportId" in request ? `${company}|report:${request.reportId}` : undefined;
}

/** Holds the request's fund or report with a message; the first hold's message stays. */
export function holdIn(
  state: Pick<RunState, "held">,
  request: WriteRequest | undefined,
  company: string,
  message: string,
): void {
  const key = heldKey(request, company);
  if (key !== undefined && !state.held.has(key)) state.held.set(key, message);
}

/** Why the request's fund or report is held, if it is. */
export function heldFor(
  state: Pick<RunState, "held">,
  request: WriteRequest | undefined,
  company: string,
): string | undefined {
  const key = heldKey(request, company);
  return key === undefined ? undefined : state.held.get(key);
}

/** What a row on a fund or report held by a row's write says. */
export function waitForRow(
  context: RunContext,
  request: WriteRequest | undefined,
  rowNumber: number,
): string {
  return words(context)(
    request && "reportId" in request ? "outbox.msg.waitingForRowReport" : "outbox.msg.waitingForRow",
    { row: rowNumber },
  );
}

/** What a row on a fund or report held by a write no row owns says (a form's, or a row gone). */
export function landingMessage(context: RunContext, rec: WriteRecord): string {
  const t = words(context);
  return rec.source === "form"
    ? rec.request && "reportId" in rec.request
      ? t("outbox.msg.heldByReportSidebar", { id: rec.request.reportId })
      : t("outbox.msg.heldBySidebar", { id: rec.fundId ?? "" })
    : t("outbox.msg.heldByLanding", { id: rec.fundId ?? "", until: clock(context, inFlightUntil(rec)) });
}
