/**
 * The settings not shown in the sidebar: a deployment's or a benchmark's tuning (two kept in
 * the stored settings, and the in-flight window, a script property only the deployer sets). Their rules live here with the others' (src/settings/), and the refresh
 * and the audit read them through these functions only.
 */

type Form = Partial<Record<string, string | undefined>>;

/**
 * Requests per fetchAll: enough to hide latency, few enough not to burst into the service's
 * undocumented rate limits (src/settings/README.md, "Page size and requests per batch").
 */
export const DEFAULT_BATCH_SIZE = 25;
/** Audit rows kept on the sheet, at most (the audit's own default and ceiling). */
export const MAX_AUDIT_ROWS = 50_000;

/** A setting that is set but breaks its rule: the field, and the rule in its message. */
export class SettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "SettingsError";
  }
}

/**
 * `fetchBatchSize`: requests per fetchAll, 1 to 100 (25 when empty). A deployment may raise it
 * where the service takes more; the benchmark sets it to 1 to compare with one request at a time.
 */
export function fetchBatchSize(form: Form): number {
  const raw = (form.fetchBatchSize ?? "").trim();
  if (raw === "") return DEFAULT_BATCH_SIZE;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100)
    throw new SettingsError(
      "fetchBatchSize",
      `fetchBatchSize must be a whole number from 1 to 100 (got "${raw}").`,
    );
  return Number(raw);
}

/**
 * `auditMaxRows`: audit rows kept on the sheet, 10 to 50,000; null (the audit's own bound) when
 * empty or outside that range, since a wrong value must never stop a run from being audited.
 */
export function auditMaxRows(form: Form): number | null {
  const asked = Number((form.auditMaxRows ?? "").trim());
  return Number.isInteger(asked) && asked >= 10 && asked <= MAX_AUDIT_ROWS ? asked : null;
}

/** Script property: the Outbox's in-flight window in seconds (the deployer's, like the allowlist). */
export const IN_FLIGHT_WINDOW_KEY = "tuning.inFlightWindowSeconds";
/** The window when the property is not set: 3 minutes (IN_FLIGHT_WINDOW_MS of src/outbox/records.ts). */
export const DEFAULT_IN_FLIGHT_WINDOW_SECONDS = 180;
/** Below this a request that timed out (about 60 s) could still land after its row is offered again. */
export const MIN_IN_FLIGHT_WINDOW_SECONDS = 120;
export const MAX_IN_FLIGHT_WINDOW_SECONDS = 3600;

/**
 * `inFlightWindowSeconds`: how long after a write request left the Outbox and the forms wait
 * before concluding anything from reading the fund, since it may still land. Google documents
 * no UrlFetch deadline (docs/real-apps-script.md), so a deployment that sees slower landings may
 * lengthen it; it can never go below the floor. In milliseconds; refused, naming the setting,
 * when not a whole number of seconds from the floor to an hour.
 */
export function inFlightWindowMs(raw: string | null | undefined): number {
  const text = (raw ?? "").trim();
  if (text === "") return DEFAULT_IN_FLIGHT_WINDOW_SECONDS * 1000;
  const seconds = Number(text);
  if (
    !/^\d+$/.test(text) ||
    seconds < MIN_IN_FLIGHT_WINDOW_SECONDS ||
    seconds > MAX_IN_FLIGHT_WINDOW_SECONDS
  ) {
    throw new SettingsError(
      "inFlightWindowSeconds",
      `inFlightWindowSeconds must be a whole number of seconds from ${MIN_IN_FLIGHT_WINDOW_SECONDS} to ${MAX_IN_FLIGHT_WINDOW_SECONDS} (got "${text}"): below ${MIN_IN_FLIGHT_WINDOW_SECONDS} s a request that timed out could still land after its row was offered again.`,
    );
  }
  return seconds * 1000;
}
