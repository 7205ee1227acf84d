/**
 * What users must be told about the schedule the next time they open the document: the last
 * scheduled refresh failed, or the schedule seems to have stopped firing. And the e-mail sent
 * to the schedule's owner when a scheduled run fails (add-ons get no automatic failure e-mail).
 */

import type { RunRecord } from "./history";
import { allowedSilenceMs, type ScheduleState } from "./plan";

export type Notice =
  | { kind: "failed"; runId: string; at: number; message: string }
  | { kind: "stalled"; since: number; owner: string };

const UNATTENDED: ReadonlySet<string> = new Set(["schedule", "continuation"]);

/**
 * The notice to show, if any. A failed unattended run stays visible until a later unattended
 * run succeeds or someone dismisses it (`dismissedRunId`). A schedule whose owner's trigger
 * has been silent for longer than the schedule allows is "stalled" (only the owner's next
 * visit can re-create it, since nobody sees another user's triggers).
 */
export function currentNotice(
  runs: readonly RunRecord[],
  state: ScheduleState | null,
  nowMs: number,
  dismissedRunId: string | null = null,
): Notice | null {
  const unattended = runs
    .filter((r) => UNATTENDED.has(r.source) && r.outcome !== "running" && r.outcome !== "skipped")
    .sort((a, b) => b.startedAt - a.startedAt);
  const latest = unattended[0];
  if (
    latest &&
    (latest.outcome === "failed" || latest.outcome === "refused") &&
    latest.id !== dismissedRunId
  ) {
    return { kind: "failed", runId: latest.id, at: latest.startedAt, message: latest.message };
  }
  if (state && state.schedule.kind !== "off") {
    const lastFired = Math.max(
      state.installedAt,
      ...runs.filter((r) => r.source === "schedule").map((r) => r.startedAt),
    );
    if (nowMs - lastFired > allowedSilenceMs(state.schedule)) {
      return { kind: "stalled", since: lastFired, owner: state.ownerLabel };
    }
  }
  return null;
}

/**
 * Removes every occurrence of `secret` (or of each of several: one token per company) from
 * `text` (never let a token reach a mail or a log). The longest first, so that a token inside
 * another is not left half shown.
 */
export function withoutSecret(text: string, secret: string | readonly string[] | null | undefined): string {
  const secrets = (typeof secret === "string" ? [secret] : [...(secret ?? [])])
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  return secrets.reduce((out, s) => out.split(s).join("[hidden]"), text);
}
