/**
 * The custom statuses the Report sidebar suggests: those already seen on reports of the same
 * policies (as the last refresh wrote them on the Expense reports sheet, and as the service
 * gave them for the selected reports). Suggestions only: the form still accepts any text, and
 * the service decides what a policy allows. Every cell is user input, so a value is kept only
 * as plain trimmed text of a sensible length.
 */
export const MAX_SUGGESTIONS = 50;
const MAX_LENGTH = 100;

/** Distinct (case-insensitively, as the service compares them) statuses of these policies, sorted. */
export function customStatusSuggestions(
  seen: readonly (readonly [policyId: unknown, status: unknown])[],
  policyIds: ReadonlySet<number>,
): string[] {
  const byKey = new Map<string, string>();
  for (const [policy, status] of seen) {
    if (!policyIds.has(Number(policy)) || typeof status !== "string") continue;
    const text = status.trim();
    if (text === "" || text.length > MAX_LENGTH) continue;
    const key = text.toLowerCase();
    if (!byKey.has(key)) byKey.set(key, text);
  }
  return [...byKey.values()].sort((a, b) => a.localeCompare(b)).slice(0, MAX_SUGGESTIONS);
}
