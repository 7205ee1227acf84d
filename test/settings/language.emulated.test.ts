/**
 * Choosing Español in Settings, in the BUILT add-on under the emulation against the sandbox:
 * the menu, the add-on's sheets (names and headers, users' columns kept) and the Outbox's
 * dropdowns follow; a later refresh still finds every column.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { translate } from "../../src/i18n";
import { columnNumber } from "../../src/outbox/columns";
import type { SaveSettingsResult, SettingsView } from "../../src/settings/view";
import { privateBuild, type Setup, setUp, sheetOf } from "../refresh/emulation";

let s: Setup;

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 4, reports: 20 });
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  // A window with reports in it, some with several files.
  s.settings({ pageSize: "50", windowMode: "range", windowFrom: "2024-01-01", windowTo: "2024-06-30" });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

function run<T>(name: string, args: unknown[] = [], as: "menu" | "script.run" = "script.run"): T {
  const out = s.emulator.tryRun(name, args, { as });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.result as T;
}

const menuLabels = () => s.emulator.ui.addonMenuItems().map((i) => i.label);

describe("choosing Español in Settings", () => {
  it("switches the menu, renames the sheets in place, keeps users' columns, and relabels the Outbox", () => {
    run("refreshAll", [], "menu");
    expect(JSON.stringify(sheetOf(s.emulator, "Summary")?.values)).toContain(
      translate("en", "summary.attention"),
    );
    s.emulator.answers.push("OK");
    run("createOutboxSheet", [], "menu");
    // A column of the user's, right of the add-on's columns.
    const funds = sheetOf(s.emulator, "Funds");
    const width = funds?.values[0]?.length ?? 0;
    const letter = String.fromCharCode(65 + width);
    s.emulator.typeCells("Funds", `${letter}1:${letter}2`, [["Mis notas"], ["revisar"]]);
    s.emulator.open({ authMode: "LIMITED" });
    expect(menuLabels()).toContain("Refresh funds");

    // The form as the sidebar sends it: every field as shown, the language changed.
    const view = run<SettingsView>("getSettingsView");
    expect(view.form.sheetFunds).toBe("Funds");
    const saved = run<SaveSettingsResult>("saveSettings", [{ ...view.form, language: "es" }]);
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    // The menu follows at once, before the document is opened again.
    expect(menuLabels()).toContain("Actualizar fondos");
    expect(menuLabels()).not.toContain("Refresh funds");

    s.emulator.open({ authMode: "LIMITED" });
    expect(menuLabels()).toContain("Actualizar fondos");
    expect(menuLabels()).not.toContain("Refresh funds");
    // AuthMode.NONE reads nothing: English.
    s.emulator.open({ authMode: "NONE" });
    expect(menuLabels()).toContain("Refresh funds");

    expect(sheetOf(s.emulator, "Funds")).toBeNull();
    const fondos = sheetOf(s.emulator, "Fondos");
    expect(fondos?.values[0]?.slice(0, 2)).toEqual(["Id", translate("es", "col.title")]);
    expect(fondos?.values[0]?.[width]).toBe("Mis notas");
    expect(fondos?.values[1]?.[width]).toBe("revisar");
    expect(saved.ok && saved.view.form.sheetFunds).toBe("Fondos");

    const outbox = s.emulator.spreadsheet.sheetByName("Bandeja de salida");
    expect(outbox).toBeDefined();
    // The Summary: renamed and written again in Spanish.
    expect(sheetOf(s.emulator, "Summary")).toBeNull();
    const summary = JSON.stringify(sheetOf(s.emulator, "Resumen")?.values);
    expect(summary).toContain(translate("es", "summary.attention"));
    expect(summary).not.toContain(translate("en", "summary.attention"));
    expect(sheetOf(s.emulator, "Bandeja de salida")?.values[0]?.[columnNumber("operation") - 1]).toBe(
      translate("es", "outbox.col.operation"),
    );
    // The Operation header's note (the columns each operation needs) follows the language.
    expect(outbox?.cell(1, columnNumber("operation"))?.note).toContain(
      `${translate("es", "outbox.op.deposit")}: ${translate("es", "outbox.col.targetId")}, ${translate("es", "outbox.col.amount")}`,
    );
    const list = outbox?.cell(2, columnNumber("operation"))?.validation;
    expect(list?.values).toContain(translate("es", "outbox.op.deposit"));
    expect(list?.values).not.toContain("Deposit");

    // A refresh in Spanish finds its columns in place: the user's column stays beside them.
    run("refreshFunds", [], "menu");
    expect(sheetOf(s.emulator, "Funds")).toBeNull();
    const after = sheetOf(s.emulator, "Fondos");
    expect(after?.values[0]?.[width]).toBe("Mis notas");
    expect(after?.values[0]?.length).toBe(width + 1);
  });

  it("back to English: a name the user chose stays, the defaults and headers follow", () => {
    const view = run<SettingsView>("getSettingsView");
    const chosen = run<SaveSettingsResult>("saveSettings", [{ ...view.form, sheetFunds: "Mis fondos" }]);
    expect(chosen.ok, JSON.stringify(chosen)).toBe(true);
    // A name chosen by the user is its own: the sheet "Fondos" is not the one it names any more.
    const fondos = s.emulator.spreadsheet.sheetByName("Fondos");
    if (fondos) fondos.name = "Mis fondos";
    const saved = run<SaveSettingsResult>("saveSettings", [
      { ...(chosen.ok ? chosen.view.form : {}), language: "en" },
    ]);
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect(sheetOf(s.emulator, "Mis fondos")?.values[0]?.slice(0, 2)).toEqual(["Id", "Title"]);
    expect(sheetOf(s.emulator, "Funds")).toBeNull();
    expect(sheetOf(s.emulator, "Outbox")?.values[0]?.[columnNumber("operation") - 1]).toBe("Operation");
    expect(
      s.emulator.spreadsheet.sheetByName("Outbox")?.cell(2, columnNumber("operation"))?.validation?.values,
    ).toContain("Deposit");
  });

  it("relabels the label cells of data rows in place, both ways, and keeps a user's text", () => {
    const column = (sheet: string, header: string) => {
      const values = sheetOf(s.emulator, sheet)?.values ?? [];
      const at = values[0]?.indexOf(header) ?? -1;
      expect(at, `${sheet}: ${header}`).toBeGreaterThanOrEqual(0);
      return values.slice(1).map((r) => r[at]);
    };
    const letter = (sheet: string, header: string) =>
      String.fromCharCode(65 + (sheetOf(s.emulator, sheet)?.values[0]?.indexOf(header) ?? 0));
    run("refreshAll", [], "menu");
    const moves = translate("en", "sheet.transactions");
    const types = column(moves, "Type");
    expect(types).toContain("Deposit");
    // A fund the service does not know: the next refresh keeps it, greyed, with its reason.
    const funds = "Mis fondos";
    const last = (sheetOf(s.emulator, funds)?.values.length ?? 0) + 1;
    s.emulator.typeCells(funds, `A${last}:B${last}`, [[999999, "Fondo antiguo"]]);
    run("refreshFunds", [], "menu");
    const reason = column(funds, translate("en", "col.refreshNote")).find((v) => v !== "") as string;
    expect(reason).toMatch(/^Not returned by the last refresh \(\d{4}-\d{2}-\d{2}\)/);
    // The user's own words in add-on columns stay as typed.
    const typeAt = letter(moves, "Type");
    s.emulator.typeCells(moves, `${typeAt}2:${typeAt}3`, [["Deposit?"], ["ver con Ana"]]);
    const userTypes = ["Deposit?", "ver con Ana", ...types.slice(2)];

    const switchTo = (language: "en" | "es") => {
      const view = run<SettingsView>("getSettingsView");
      const saved = run<SaveSettingsResult>("saveSettings", [{ ...view.form, language }]);
      expect(saved.ok, JSON.stringify(saved)).toBe(true);
    };
    const corner = () => s.emulator.spreadsheet.sheetByName(funds)?.cell(1, 1)?.note ?? "";
    const stamped = corner();
    expect(stamped).toMatch(/^Refreshed .* by ana@example\.com\.$/);
    switchTo("es");
    // The header of the assignee's name, and the note saying when and by whom, follow too.
    expect(sheetOf(s.emulator, funds)?.values[0]).toContain(translate("es", "col.assignedToName"));
    expect(corner()).toMatch(/^Actualizada .* por ana@example\.com\.$/);
    const movimientos = translate("es", "sheet.transactions");
    const tipos = column(movimientos, translate("es", "col.type"));
    const es = (v: unknown) => (v === "Deposit" ? "Depósito" : v === "Withdrawal" ? "Retiro" : v);
    expect(tipos).toEqual(userTypes.map((v, i) => (i < 2 ? v : es(v))));
    expect(tipos).not.toContain("Deposit");
    expect(column(funds, translate("es", "col.status"))).not.toContain("Open");
    expect(column(funds, translate("es", "col.status"))).toContain("Abierto");
    const flexible = column(funds, translate("es", "col.flexible"));
    expect(flexible).not.toContain("Yes");
    expect(flexible.some((v) => v === "Sí" || v === "No")).toBe(true);
    expect(column(translate("es", "sheet.reports"), translate("es", "col.status"))).not.toContain("Closed");
    // A report's files: the link's label ("(+2 more)") follows, its address kept.
    const rendiciones = sheetOf(s.emulator, translate("es", "sheet.reports"));
    const filesAt = rendiciones?.values[0]?.indexOf(translate("es", "col.files")) ?? -1;
    const links = (rendiciones?.formulas ?? []).map((r) => r[filesAt] ?? "").filter((f) => f.includes("+"));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(link).toMatch(/^=HYPERLINK\("https?:\/\/[^"]+","[^"]+ \(\+\d+ más\)"\)$/);
    const date = /\((\d{4}-\d{2}-\d{2})\)/.exec(reason)?.[1] ?? "";
    expect(column(funds, translate("es", "col.refreshNote"))).toContain(
      translate("es", "note.missing", { date }),
    );

    switchTo("en");
    expect(corner()).toBe(stamped);
    const reports = sheetOf(s.emulator, translate("en", "sheet.reports"));
    expect(reports?.formulas.map((r) => r[filesAt] ?? "").filter((f) => f.includes("+"))).toEqual(
      links.map((link) => link.replace(/ más\)"\)$/, ' more)")')),
    );
    expect(sheetOf(s.emulator, funds)?.values[0]).toContain("Assigned to");
    expect(column(moves, "Type")).toEqual(userTypes);
    expect(column(funds, "Status")).not.toContain("Abierto");
    expect(column(funds, translate("en", "col.refreshNote"))).toContain(reason);
  });
});
