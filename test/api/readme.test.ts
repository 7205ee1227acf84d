/** The endpoint table of src/api/README.md is the contract's own description, not a copy. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINT_NAMES, ENDPOINTS, type FieldSpec } from "../../src/api";

function describeField(name: string, f: FieldSpec): string {
  const optional = f.required ? "" : "?";
  switch (f.kind) {
    case "text":
      return `${name}${optional} (text ≤ ${f.maxLength})`;
    case "choice":
    case "word":
      return `${name}${optional} (${f.values.join("/")})`;
    case "integer":
      return `${name}${optional} (integer ≥ ${f.min ?? 0})`;
    default:
      return `${name}${optional} (${f.kind})`;
  }
}

describe("src/api/README.md", () => {
  it("lists every endpoint exactly as ENDPOINTS describes it", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../src/api/README.md"), "utf8");
    // Table rows with their cells trimmed, whatever padding the formatter adds.
    const rows = readme
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .map((line) =>
        line
          .split("|")
          .slice(1, -1)
          .map((cell) => cell.trim())
          .join(" | "),
      );
    for (const name of ENDPOINT_NAMES) {
      const e = ENDPOINTS[name];
      const fields = Object.entries(e.fields as Record<string, FieldSpec>)
        .map(([k, f]) => describeField(k, f))
        .join(", ");
      const method = `${e.method}${e.fallbackMethod ? ` (then ${e.fallbackMethod} on 404/405)` : ""}`;
      expect(rows).toContain(`${name} | ${method} | ${e.in} | ${e.kind} | ${fields}`);
    }
  });
});
