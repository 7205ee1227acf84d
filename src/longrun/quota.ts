/**
 * UrlFetch quota accounting. Google allows 20,000 calls a day to a consumer account and
 * 100,000 to a Workspace account, per user across every script and document; past it, every
 * fetch throws for the rest of the day. So calls are counted per user per day (in user
 * properties, which are per user across documents, like the quota), and a refresh that cannot
 * finish within what is left is refused before it starts.
 */

export type AccountKind = "consumer" | "workspace";

export const DAILY_URLFETCH_QUOTA: Record<AccountKind, number> = { consumer: 20_000, workspace: 100_000 };

/** Above this share of the quota after the refresh, the user is warned before it starts. */
export const WARN_SHARE = 0.8;

/**
 * Guesses the account kind from the active user's email: gmail.com is a consumer account,
 * any other domain is Workspace. An empty email (consumers of other domains, simple triggers)
 * says nothing: null, and callers assume the smaller consumer quota.
 */
export function detectAccountKind(email: string | null | undefined): AccountKind | null {
  const domain = /@([^@\s]+)$/.exec(email ?? "")?.[1]?.toLowerCase();
  if (!domain) return null;
  return domain === "gmail.com" || domain === "googlemail.com" ? "consumer" : "workspace";
}

/** The daily quota: the user's setting when given, else the detected kind, else consumer. */
export function dailyQuota(setting: AccountKind | "auto", detected: AccountKind | null): number {
  const kind = setting === "auto" ? (detected ?? "consumer") : setting;
  return DAILY_URLFETCH_QUOTA[kind];
}

/** Calls counted for one day. */
export interface QuotaLedger {
  /** `YYYY-MM-DD` of the quota's day (Google counts quotas by Pacific time days). */
  day: string;
  calls: number;
}

/** The quota day of `nowMs` as Google counts it: the date in Pacific time, given its offset. */
export function quotaDay(nowMs: number, pacificOffsetMinutes = -480): string {
  return new Date(nowMs + pacificOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/** Calls made so far on `day` according to `ledger` (0 on another day). */
export function callsToday(ledger: QuotaLedger | null, day: string): number {
  return ledger && ledger.day === day ? ledger.calls : 0;
}

/** The ledger after `calls` more calls on `day`. */
export function addCalls(ledger: QuotaLedger | null, day: string, calls: number): QuotaLedger {
  if (!Number.isInteger(calls) || calls < 0)
    throw new Error(`calls: must be a whole number ≥ 0, got ${calls}`);
  return { day, calls: callsToday(ledger, day) + calls };
}

export function parseLedger(text: string | null | undefined): QuotaLedger | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Partial<QuotaLedger>;
    if (typeof raw.day !== "string" || !Number.isInteger(raw.calls)) return null;
    return { day: raw.day, calls: raw.calls as number };
  } catch (_err) {
    return null;
  }
}

export type QuotaVerdict = "ok" | "warn" | "refuse";

export interface QuotaCheck {
  verdict: QuotaVerdict;
  used: number;
  limit: number;
  /** Calls the refresh is expected to need. */
  estimate: number;
  /** Calls left today before the refresh. */
  remaining: number;
}

/**
 * Whether a refresh estimated at `estimate` calls may start: refused when it would go past
 * the daily quota (it could not finish), a warning when it would take usage above 80%.
 */
export function checkQuota(used: number, limit: number, estimate: number): QuotaCheck {
  const remaining = Math.max(0, limit - used);
  let verdict: QuotaVerdict = "ok";
  if (used + estimate > limit) verdict = "refuse";
  else if (used + estimate > limit * WARN_SHARE) verdict = "warn";
  return { verdict, used, limit, estimate, remaining };
}

/**
 * Calls the next refresh is expected to need: what the last complete refresh took, with a
 * margin for growth; a small guess when there is no history yet.
 */
export function estimateRefreshCalls(lastCompleteCalls: number | null): number {
  if (lastCompleteCalls === null) return 10;
  return lastCompleteCalls + Math.ceil(lastCompleteCalls / 10);
}
