/**
 * The fast readers of responses (no zod on the way when a body reads) give exactly what the
 * schemas give, and give up (so that the schema names the problem) whenever a schema refuses.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints";
import { readFast, responseSchemas, UNREAD } from "../../src/api/responses";

const { expenseReportListSchema, fundListSchema, fundSchema } = responseSchemas();

const dir = new URL("../fixtures/api/", import.meta.url);

function bothWays(
  schema: unknown,
  body: unknown,
): { fast: unknown; zod: { success: boolean; data?: unknown } } {
  const zod = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(body);
  return { fast: readFast(schema, body), zod };
}

describe("fast response readers", () => {
  it("read every fixture of a read endpoint exactly as its schema does", () => {
    let compared = 0;
    for (const file of readdirSync(dir)) {
      const name = file.split(".")[0] as keyof typeof ENDPOINTS;
      const endpoint = ENDPOINTS[name];
      if (!endpoint) continue;
      const body = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
      const { fast, zod } = bothWays(endpoint.response, body);
      if (zod.success) {
        if (fast !== UNREAD) compared++;
        if (fast !== UNREAD) expect(fast, file).toEqual(zod.data);
      } else expect(fast, file).toBe(UNREAD);
    }
    // Funds, reports and their lists, in both the spec's and the real service's shapes.
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it("give up wherever the schema refuses, and agree wherever it accepts (random member values)", () => {
    const base = JSON.parse(readFileSync(new URL("getFunds.real.json", dir), "utf8"));
    const report = JSON.parse(readFileSync(new URL("getExpenseReports.real.json", dir), "utf8"));
    const oddValue = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant(""),
      fc.constant("1"),
      fc.constant("x"),
      fc.constant("2024-02-30"),
      fc.constant("2024-02-29 10:00"),
      fc.constant("12.345"),
      fc.constant("1e3"),
      fc.constant(true),
      fc.constant([]),
      fc.constant({}),
      fc.integer(),
      fc.double(),
    );
    const cases: [unknown, string, Record<string, unknown>][] = [
      [fundListSchema, "Funds", base],
      [expenseReportListSchema, "ExpenseReports", report],
    ];
    for (const [schema, member, body] of cases) {
      const first = (body[member] as Record<string, unknown>[])[0] as Record<string, unknown>;
      const keys = Object.keys(first);
      fc.assert(
        fc.property(fc.constantFrom(...keys), oddValue, (key, value) => {
          const item = { ...first };
          if (value === undefined) delete item[key];
          else item[key] = value;
          const { fast, zod } = bothWays(schema, { ...body, [member]: [item] });
          if (!zod.success) return fast === UNREAD;
          return fast === UNREAD || JSON.stringify(fast) === JSON.stringify(zod.data);
        }),
        { numRuns: 400 },
      );
    }
    expect(readFast(fundSchema, { Id: "x" })).toBe(UNREAD);
  });
});
