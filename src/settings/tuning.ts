/**
 * The two settings kept in the stored settings but not shown in the sidebar: a deployment's or
 * a benchmark's tuning. Their rules live here with the others' (src/settings/), and the refresh
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
