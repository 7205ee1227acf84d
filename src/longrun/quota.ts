/**
 * UrlFetch quota accounting. Google allows 20,000 calls a day to a consumer account and
 * 100,000 to a Workspace account, per user across every script and document; past it, every
 * fetch throws until the quota resets, 24 hours after the first request (not at midnight).
 * So calls are counted per user in that rolling window (in user properties, which are per user
 * across documents, like the quota), and a refresh that cannot finish within what is left is
 * refused before it starts.
 */

export type AccountKind = "consumer" | "workspace";

export const DAILY_URLFETCH_QUOTA: Record<AccountKind, number> = { consumer: 20_000, workspace: 100_000 };

/** Above this share of the quota after the refresh, the user is warned before it starts. */
export const WARN_SHARE = 0.8;

/**
 * Why the account kind is what it is: the user said so in Settings, or nobody did and the
 * smaller consumer quota is assumed. It is not guessed from the e-mail address (a consumer
 * account can use any address, and Google documents no signal that tells the two apart).
 */
export type AccountKindSource = "setting" | "assumed" | "deployment";

/**
 * Script property: the account kind of users who have not said theirs, set by the deployer
 * ("workspace" for a private Marketplace add-on, which only Workspace accounts can install).
 * Anything else, or nothing, is consumer.
 */
export const DEFAULT_ACCOUNT_KIND_KEY = "settings.defaultAccountKind";

/** The deployment's default account kind from its script property's text. */
export function deploymentAccountKind(raw: string | null | undefined): AccountKind {
  return (raw ?? "").trim().toLowerCase() === "workspace" ? "workspace" : "consumer";
}

/**
 * The account kind the quota is planned with: the user's setting, else the deployment's
 * default (workspace when its deployer said so), else consumer.
 */
export function accountKind(
  setting: AccountKind | "auto",
  deploymentDefault: AccountKind = "consumer",
): { kind: AccountKind; source: AccountKindSource } {
  if (setting !== "auto") return { kind: setting, source: "setting" };
  return deploymentDefault === "workspace"
    ? { kind: "workspace", source: "deployment" }
    : { kind: "consumer", source: "assumed" };
}

/** The daily quota of the account kind the user set, or of the deployment's default when not set. */
export function dailyQuota(
  setting: AccountKind | "auto",
  deploymentDefault: AccountKind = "consumer",
): number {
  return DAILY_URLFETCH_QUOTA[accountKind(setting, deploymentDefault).kind];
}

/**
 * Google's quota "day": "Quotas are per user and reset 24 hours after the first request"
 * (Apps Script quotas page). Not a calendar day: a window that opens with the first call after
 * the previous window closed, and lasts 24 hours.
 */
export const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Calls counted in the current quota window. */
export interface QuotaLedger {
  /** When the window opened: the first call after the previous window closed (ms since epoch). */
  since: number;
  calls: number;
}

/** Calls counted in the window open at `nowMs` (0 when the window has closed or none opened). */
export function callsInWindow(ledger: QuotaLedger | null, nowMs: number): number {
  return ledger && nowMs < ledger.since + QUOTA_WINDOW_MS ? ledger.calls : 0;
}

/** When the quota frees up again: 24 hours after the window's first call (null with no calls). */
export function quotaResetsAt(ledger: QuotaLedger | null, nowMs: number): number | null {
  return callsInWindow(ledger, nowMs) > 0 && ledger ? ledger.since + QUOTA_WINDOW_MS : null;
}

/** The ledger after `calls` more calls at `nowMs`: a closed window gives way to one opening now. */
export function addCalls(ledger: QuotaLedger | null, nowMs: number, calls: number): QuotaLedger {
  if (!Number.isInteger(calls) || calls < 0)
    throw new Error(`calls: must be a whole number ≥ 0, got ${calls}`);
  const open = ledger !== null && nowMs < ledger.since + QUOTA_WINDOW_MS;
  return open ? { since: ledger.since, calls: ledger.calls + calls } : { since: nowMs, calls };
}

/**
 * Reads the stored ledger. One written before the rolling window (`{day, calls}`, a Pacific
 * calendar day) is read as opened at that day's last moment, the latest its first call can have
 * been: its calls are counted for as long as Google may still count them.
 */
export function parseLedger(text: string | null | undefined): QuotaLedger | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as { since?: unknown; calls?: unknown; day?: unknown };
    if (!Number.isInteger(raw.calls) || (raw.calls as number) < 0) return null;
    if (typeof raw.since === "number" && Number.isFinite(raw.since)) {
      return { since: raw.since, calls: raw.calls as number };
    }
    if (typeof raw.day === "string" && /^\d{4}-\d{2}-\d{2}$/.test(raw.day)) {
      // Pacific midnight is 08:00 UTC at the latest (PST); the day's last moment is 24 h later.
      const since = Date.parse(`${raw.day}T08:00:00Z`) + QUOTA_WINDOW_MS - 1;
      return Number.isFinite(since) ? { since, calls: raw.calls as number } : null;
    }
    return null;
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
  /** Calls left in the quota window before the refresh. */
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
