/**
 * Secrets removed before anything reaches the audit sheet: the access token wherever it
 * appears, Authorization headers, and any field named like a token, secret, password or key.
 */

export const REDACTED = "[redacted]";

const SECRET_NAME = /token|secret|password|passwd|authorization|api[-_]?key|credential/i;

/** Whether a field of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * `text` with every known secret and every bearer credential replaced. The longest first: one
 * company's token may hold another's (Alpha's token plus "-2"), and replacing the shorter first
 * would leave the rest of the longer in the text.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  // Most of an audit row's texts are empty (no company, no target, no message).
  if (text === "") return text;
  let out = text;
  const longestFirst = secrets.filter((s) => s && s.length >= 4).sort((a, b) => b.length - a.length);
  for (const s of longestFirst) out = out.split(s).join(REDACTED);
  return out.replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`);
}

/** A deep copy of `value` with secret fields and known secrets replaced; cycles cut. */
export function redactValue(
  value: unknown,
  secrets: readonly string[] = [],
  seen = new Set<unknown>(),
): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[cycle]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretName(k) ? REDACTED : redactValue(v, secrets, seen);
  }
  return out;
}

/** Parameters as the audit shows them: compact JSON with secrets removed, cut to a cell's size. */
export function redactedParameters(
  params: unknown,
  secrets: readonly string[] = [],
  maxLength = 2000,
): string {
  if (params === undefined || params === null) return "";
  let text: string;
  try {
    text = JSON.stringify(redactValue(params, secrets)) ?? "";
  } catch (_err) {
    text = REDACTED;
  }
  // The JSON text itself is checked again: a secret may hide in a key or split across values.
  text = redactText(text, secrets);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
