/** The catalogue's placeholders: counts read naturally and big numbers are grouped, per language. */
import { describe, expect, it } from "vitest";
import { formatCount, translate } from "../../src/i18n";

describe("translate: counts and plurals", () => {
  it("agrees the word with the count, in both languages", () => {
    expect(translate("en", "outbox.preview.rows", { count: 1 })).toBe("1 row to send.");
    expect(translate("en", "outbox.preview.rows", { count: 2 })).toBe("2 rows to send.");
    expect(translate("en", "outbox.preview.rows", { count: 0 })).toBe("0 rows to send.");
    expect(translate("es", "outbox.preview.rows", { count: 1 })).toBe("1 fila por enviar.");
    expect(translate("es", "form.reports.selected", { count: 3 })).toBe("3 rendiciones seleccionadas");
    // The verb agrees too.
    expect(translate("es", "outbox.preview.invalid", { count: 1 })).toBe("1 fila con errores no se enviará:");
    expect(translate("es", "outbox.preview.invalid", { count: 2 })).toBe(
      "2 filas con errores no se enviarán:",
    );
    expect(translate("en", "refresh.summary", { records: 1, calls: 1, seconds: 2 })).toBe(
      "1 record refreshed with 1 call in 2 s.",
    );
  });

  it("groups thousands as each language writes them", () => {
    expect(translate("en", "settings.quota.today", { used: 3, limit: 100000 })).toBe(
      "In the 24 hours since the first call: 3 of 100,000 calls used.",
    );
    expect(translate("es", "settings.quota.today", { used: 1234, limit: 20000 })).toBe(
      "En las 24 horas desde la primera llamada: 1.234 de 20.000 llamadas usadas.",
    );
    expect(formatCount(-1234567, "en")).toBe("-1,234,567");
    expect(formatCount(999, "es")).toBe("999");
    expect(formatCount(12.5, "en")).toBe("12.5");
  });

  it("leaves a placeholder without a value as written, and never groups ids given as text", () => {
    expect(translate("en", "outbox.preview.rows")).toBe("{count:n} {count|row|rows} to send.");
    expect(translate("en", "files.more", { name: "a.pdf", count: 2 })).toBe("a.pdf (+2 more)");
  });

  it("no text of either language still writes a plural as (s)", async () => {
    const { allStrings } = await import("../../src/i18n");
    const table = allStrings();
    const offenders = [...Object.entries(table.en), ...Object.entries(table.es)].filter(([, text]) =>
      /\w\((s|es)\)/.test(text),
    );
    expect(offenders).toEqual([]);
  });
});

describe("the catalogue", () => {
  it("defines each key in one area's file only (a second definition would silently win)", async () => {
    const { readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(import.meta.dirname, "../../src/i18n");
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "index.ts")) {
      const module = (await import(join(dir, file))) as Record<string, { en?: Record<string, string> }>;
      for (const catalogue of Object.values(module)) {
        for (const key of Object.keys(catalogue?.en ?? {})) {
          if (owner.has(key)) twice.push(`${key}: ${owner.get(key)} and ${file}`);
          owner.set(key, file);
        }
      }
    }
    expect(owner.size).toBeGreaterThan(500);
    expect(twice).toEqual([]);
  });
});
