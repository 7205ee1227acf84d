/**
 * Text from the server or the service shown in a page is text, never markup. Prefer
 * `textContent` and DOM nodes; where HTML must be built as a string, escape every value.
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** `value` as text safe inside HTML content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

/** Markup that is already safe (built by `html` or written in the code). */
export class SafeHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/** A template whose interpolated values are escaped, unless they are SafeHtml (or lists of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) out += part instanceof SafeHtml ? part.html : escapeHtml(part);
    out += strings[i + 1] ?? "";
  });
  return new SafeHtml(out);
}
