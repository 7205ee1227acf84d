/**
 * Every sheet the add-on writes has a name of its own: a chosen name may not be another
 * sheet's chosen name, nor another sheet's default name in English or Spanish (the audit
 * archive included), compared as Sheets compares names (trimmed, any case).
 */
import { describe, expect, it } from "vitest";
import { RefreshSettingsError, SettingsError, sheetNamesFrom } from "../../src/refresh/options";
import { sheetNamesIn } from "../../src/refresh/words";
import { defaultSettingsText, type SettingsText, settingsFromText } from "../../src/settings/model";
import { settingsIssueText } from "../../src/settings/words";

function issuesOf(changes: Partial<SettingsText>, language: "en" | "es" = "en", labels = false) {
  const r = settingsFromText({ ...defaultSettingsText(), ...changes }, { labels });
  return r.ok ? [] : r.issues.map((i) => ({ ...i, message: settingsIssueText(i, language) }));
}

describe("sheet names collide", () => {
  it.each([
    [{ sheetFunds: "Audit" }, "sheetFunds", "uniqueDefault"],
    [{ sheetFunds: " audit " }, "sheetFunds", "uniqueDefault"],
    [{ sheetFunds: "AUDITORÍA" }, "sheetFunds", "uniqueDefault"],
    [{ sheetReports: "Fondos" }, "sheetReports", "uniqueDefault"],
    [{ sheetOutbox: "Movimientos de fondos" }, "sheetOutbox", "uniqueDefault"],
    [{ sheetAudit: "Outbox" }, "sheetAudit", "uniqueDefault"],
    [{ sheetTransactions: "bandeja de salida" }, "sheetTransactions", "uniqueDefault"],
    [{ sheetFunds: "Audit archive" }, "sheetFunds", "unique"],
    [{ sheetAudit: "Archivo de auditoría" }, "sheetAudit", "unique"],
    [{ sheetAudit: "Log", sheetFunds: "log (archive)" }, "sheetFunds", "unique"],
    [{ sheetFunds: "Datos", sheetOutbox: "DATOS" }, "sheetOutbox", "unique"],
    // The report files' sheet: its default names, and the one it takes after the reports' name.
    [{ sheetOutbox: "Report files" }, "sheetOutbox", "unique"],
    [{ sheetAudit: "archivos de rendiciones" }, "sheetAudit", "unique"],
    [{ sheetReports: "Pagos", sheetOutbox: "Pagos (files)" }, "sheetOutbox", "unique"],
    [{ sheetReports: "Pagos", sheetFunds: " PAGOS (FILES) " }, "sheetFunds", "unique"],
    // A custom name equal to another sheet's default collides even when that sheet is renamed.
    [{ sheetAudit: "Registro", sheetFunds: "Audit" }, "sheetFunds", "uniqueDefault"],
  ] as const)("%j → %s breaks %s", (changes, field, rule) => {
    expect(issuesOf(changes).map((i) => [i.field, i.rule])).toEqual([[field, rule]]);
  });

  it("accepts each sheet's own default names, in either language, and names of their own", () => {
    for (const changes of [
      { sheetFunds: "Funds", sheetAudit: "Auditoría", sheetOutbox: "Bandeja de salida" },
      { sheetFunds: "fondos", sheetTransactions: "Fund transactions", sheetReports: "Rendiciones" },
      { sheetFunds: "Caja chica", sheetAudit: "Registro", sheetTransactions: "Registro 2" },
    ]) {
      expect(issuesOf(changes), JSON.stringify(changes)).toEqual([]);
    }
  });

  it("says which field, which sheet and the rule, in the form's words and in Spanish", () => {
    expect(issuesOf({ sheetFunds: "Audit" }, "en", true)[0]?.message).toBe(
      'Funds sheet: "Audit" is the default name of Audit sheet (in English or Spanish); each sheet needs its own name.',
    );
    expect(issuesOf({ sheetFunds: "Audit archive" }, "es", true)[0]?.message).toBe(
      'Hoja de fondos: "Audit archive" ya es el nombre de Hoja de archivo de auditoría; cada hoja necesita su propio nombre.',
    );
  });

  it("a refresh refuses stored names that collide (stored before the rule) instead of sharing a sheet", () => {
    expect(() => sheetNamesFrom({ sheetFunds: "Audit" }, "en")).toThrow(SettingsError);
    expect(() => sheetNamesFrom({ sheetFunds: "Audit" }, "en")).toThrow(/^Funds sheet: "Audit"/);
    expect(() => sheetNamesFrom({ sheetOutbox: "fondos" }, "en")).toThrow(/Outbox sheet/);
    // Another editor's names that would have a refresh write report files into the Outbox.
    expect(() => sheetNamesFrom({ sheetReports: "Pagos", sheetOutbox: "Pagos (files)" }, "en")).toThrow(
      /^Outbox sheet: "Pagos \(files\)" is already the name of Report files sheet/,
    );
    expect(sheetNamesFrom({ sheetFunds: "Caja" }, "es")).toMatchObject({ funds: "Caja", audit: "Auditoría" });
  });

  it("the refusal is data (the issues), said in the user's language by sheetNamesIn", () => {
    expect(() => sheetNamesFrom({ sheetFunds: "Audit" }, "es")).toThrow(RefreshSettingsError);
    const said = (language: "en" | "es") => {
      try {
        sheetNamesIn({ sheetFunds: "Audit" }, language);
      } catch (err) {
        return {
          name: (err as Error).name,
          field: (err as SettingsError).field,
          message: (err as Error).message,
        };
      }
      return null;
    };
    expect(said("en")).toEqual({
      name: "SettingsError",
      field: "sheetFunds",
      message:
        'Funds sheet: "Audit" is the default name of Audit sheet (in English or Spanish); each sheet needs its own name.',
    });
    expect(said("es")).toEqual({
      name: "SettingsError",
      field: "sheetFunds",
      message:
        'Hoja de fondos: "Audit" es el nombre que Hoja de auditoría tiene por omisión (en inglés o en español); cada hoja necesita su propio nombre.',
    });
    expect(sheetNamesIn({ sheetFunds: "Caja" }, "es")).toEqual(sheetNamesFrom({ sheetFunds: "Caja" }, "es"));
  });
});
