import { describe, expect, it } from "vitest";
import { customStatusSuggestions, MAX_SUGGESTIONS } from "../../src/sheets/custom-statuses";

describe("the custom statuses the Report sidebar suggests", () => {
  it("are those of the same policies, trimmed, once each whatever their case, sorted", () => {
    const seen = [
      [7, "Observado"],
      ["7", " observado "],
      [7, "Revisado"],
      [8, "Otra política"],
      [7, ""],
      [7, 42],
      [null, "Sin política"],
    ] as const;
    expect(customStatusSuggestions(seen, new Set([7]))).toEqual(["Observado", "Revisado"]);
    expect(customStatusSuggestions(seen, new Set([7, 8]))).toEqual([
      "Observado",
      "Otra política",
      "Revisado",
    ]);
    expect(customStatusSuggestions(seen, new Set())).toEqual([]);
  });

  it("leave out a cell too long to be a status, and stop at the limit", () => {
    const many = Array.from(
      { length: MAX_SUGGESTIONS + 20 },
      (_, i) => [1, `S${String(i).padStart(3, "0")}`] as const,
    );
    const out = customStatusSuggestions([...many, [1, "x".repeat(500)]], new Set([1]));
    expect(out).toHaveLength(MAX_SUGGESTIONS);
    expect(out[0]).toBe("S000");
    expect(out.some((s) => s.length > 100)).toBe(false);
  });
});
