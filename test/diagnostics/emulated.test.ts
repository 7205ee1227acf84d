/**
 * Diagnostics… in the BUILT add-on, in the Apps Script emulation: the menu item only where the
 * document turns it on, one row per check in the sheet "Diagnostics" (the emulator's answers are
 * the emulation's own), the probe trigger reporting at the next run, nothing left behind.
 */
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { CHECK_IDS, DIAGNOSTICS_ENABLED_KEY, TRIGGER_REPORT_KEY } from "../../src/diagnostics/checks";
import { translate } from "../../src/i18n";
import { emulatorPerTest } from "../support/emulation";

const ANA = "ana@example.com";
const HOUR = 3_600_000;
const LABELS = CHECK_IDS.map((id) => translate("en", `diagnostics.check.${id}`));

let em: Emulator;
const fresh = emulatorPerTest([ANA], { triggerSeesSpreadsheet: true }, (made) => {
  em = made;
});

function enable(value = "1"): void {
  em.documentPropertiesData.values.set(DIAGNOSTICS_ENABLED_KEY, value);
}

/** The sheet "Diagnostics" as text rows (header first). */
function diagnosticsSheet(): string[][] {
  const sheet = em.spreadsheet.sheetByName("Diagnostics");
  if (!sheet) throw new Error("no Diagnostics sheet");
  const rows: string[][] = [];
  for (let r = 1; r <= sheet.lastRow(); r++) {
    rows.push([1, 2, 3, 4].map((c) => String(sheet.cell(r, c)?.value ?? "")));
  }
  return rows;
}

function resultOf(rows: string[][], id: (typeof CHECK_IDS)[number]): { result: string; details: string } {
  const row = rows.find((r) => r[0] === translate("en", `diagnostics.check.${id}`));
  if (!row) throw new Error(`no row for ${id}`);
  return { result: row[1] ?? "", details: row[2] ?? "" };
}

function menuLabels(): string[] {
  return em.ui.addonMenuItems().map((i) => i.label);
}

describe("the Diagnostics menu item", () => {
  it("is hidden without the document property, and with any value but 1", () => {
    expect(em.open().ok).toBe(true);
    expect(menuLabels()).not.toContain("Diagnostics…");
    expect(em.ui.addonMenuItems().map((i) => i.function)).not.toContain("runDiagnostics");
    enable("0");
    em.open();
    expect(menuLabels()).not.toContain("Diagnostics…");
  });

  it("shows last when diagnostics.enabled is 1, but not before the add-on is used (AuthMode.NONE)", () => {
    enable();
    em.open();
    const items = em.ui.addonMenuItems();
    expect(items.at(-1)).toEqual({ label: "Diagnostics…", function: "runDiagnostics" });
    em.open({ authMode: "NONE" });
    expect(menuLabels()).not.toContain("Diagnostics…");
  });

  it("is in Spanish for a Spanish user", async () => {
    await fresh.again({ locale: "es_CL" });
    enable();
    em.open();
    expect(menuLabels().at(-1)).toBe("Diagnóstico…");
  });

  it("runs nothing where the document has not turned it on, even when called from a sidebar", () => {
    const out = em.tryRun("runDiagnostics", [], { as: "script.run" });
    expect(out.ok).toBe(false);
    expect(out.ok ? "" : out.error).toContain("diagnostics.enabled");
    expect(em.spreadsheet.sheetByName("Diagnostics")).toBeUndefined();
    expect(em.listTriggers()).toEqual([]);
  });
});

describe("a Diagnostics run", () => {
  it("where the probe never fires (a test deployment runs no installable triggers), says the trigger checks are not measurable here", () => {
    enable();
    em.open();
    expect(em.tryRun("runDiagnostics", [], { as: "menu" }).ok).toBe(true);
    // Two hours on, the probe (due in an hour) has not run: nothing fires triggers here.
    em.advanceTime(2 * 3_600_000 + 60_000);
    expect(em.tryRun("runDiagnostics", [], { as: "menu" }).ok).toBe(true);
    const rows = diagnosticsSheet();
    for (const id of ["triggerSpreadsheet", "triggerDocumentLock", "sessionTrigger"] as const) {
      expect(resultOf(rows, id)).toMatchObject({
        result: "not measurable here",
        details: expect.stringContaining("Run Diagnostics once on the real, versioned deployment"),
      });
    }
    // A third run still says so: the probe that never fired stays the one compared with.
    em.advanceTime(3_600_000);
    expect(em.tryRun("runDiagnostics", [], { as: "menu" }).ok).toBe(true);
    expect(resultOf(diagnosticsSheet(), "triggerSpreadsheet").result).toBe("not measurable here");
  });

  it("writes one row per check, and the probe trigger's checks at the next run", () => {
    enable();
    em.open();
    const sheetsBefore = em.spreadsheet.sheets.map((s) => s.name);
    const first = em.tryRun("runDiagnostics", [], { as: "menu" });
    expect(first.ok, first.ok ? "" : first.error).toBe(true);

    let rows = diagnosticsSheet();
    expect(rows[0]).toEqual(["Check", "Result", "Details", "When"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(LABELS);
    for (const r of rows.slice(1)) expect(r[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

    // The emulation's own answers: an add-on's 60-second trigger is refused, the hourly probe
    // is listed, the fetch outside the manifest's allowlist is refused before it is sent.
    expect(resultOf(rows, "clockTrigger60s")).toMatchObject({
      result: "refused",
      details: expect.stringContaining("once per hour"),
    });
    expect(resultOf(rows, "userTriggersListClock").result).toBe("listed");
    expect(resultOf(rows, "fetchOutsideAllowlist")).toMatchObject({
      result: "refused",
      details: expect.stringContaining("has not been whitelisted in the script manifest"),
    });
    expect(resultOf(rows, "write100kCells").result).toMatch(/^\d+ ms$/);
    // The emulation keeps "=1+1" literal in a "@" cell, as Google is relied on to.
    expect(resultOf(rows, "plainTextFormula")).toMatchObject({
      result: "kept as text",
      details: expect.stringContaining("getFormulas() gave —, getValues() gave =1+1"),
    });
    // Only observed: the answer is the emulation's lock table's, not something the add-on needs.
    expect(resultOf(rows, "twoDocumentLocks").result).toMatch(/^(shared|separate)$/);
    expect(resultOf(rows, "sessionMenu").result).toBe(ANA);
    // onOpen ran as a simple trigger: no active user's e-mail there.
    expect(resultOf(rows, "sessionOpen")).toMatchObject({
      result: "(empty)",
      details: expect.stringContaining("authMode LIMITED"),
    });
    for (const id of ["triggerSpreadsheet", "triggerDocumentLock", "sessionTrigger"] as const) {
      expect(resultOf(rows, id).result, id).toBe("pending");
    }

    // Nothing left but the results sheet and the one probe trigger, due in an hour.
    expect(em.spreadsheet.sheets.map((s) => s.name)).toEqual([...sheetsBefore, "Diagnostics"]);
    const probes = em.listTriggers();
    expect(probes.map((t) => t.handler)).toEqual(["runDiagnosticsTrigger"]);
    expect(probes[0]?.nextRun).toBeGreaterThanOrEqual(em.clock.now() + HOUR - 60_000);

    em.advanceTime(HOUR + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired.map((f) => [f.handler, f.ok])).toEqual([["runDiagnosticsTrigger", true]]);
    expect(em.listTriggers()).toEqual([]);

    expect(em.tryRun("runDiagnostics", [], { as: "menu" }).ok).toBe(true);
    rows = diagnosticsSheet();
    expect(rows.slice(1).map((r) => r[0])).toEqual(LABELS);
    expect(resultOf(rows, "triggerSpreadsheet")).toMatchObject({
      result: "this spreadsheet",
      details: expect.stringContaining("document properties: available"),
    });
    expect(resultOf(rows, "triggerDocumentLock").result).toBe("acquired");
    expect(resultOf(rows, "sessionTrigger").details).toContain(`getEffectiveUser().getEmail(): ${ANA}`);
    // Run again, the previous probe is replaced, never doubled.
    expect(em.listTriggers().map((t) => t.handler)).toEqual(["runDiagnosticsTrigger"]);
  });

  it("reports a trigger that gets no spreadsheet, lock or document properties (kept in the user's properties)", () => {
    enable();
    const first = em.tryRun("runDiagnostics", [], { as: "menu" });
    expect(first.ok, first.ok ? "" : first.error).toBe(true);
    em.triggerGaps.spreadsheet = true;
    em.triggerGaps.documentLock = true;
    em.triggerGaps.documentProperties = true;
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(em.userPropertiesOf(ANA).values.get(TRIGGER_REPORT_KEY)).toBeDefined();
    em.triggerGaps.spreadsheet = false;
    em.triggerGaps.documentLock = false;
    em.triggerGaps.documentProperties = false;

    expect(em.tryRun("runDiagnostics", [], { as: "menu" }).ok).toBe(true);
    const rows = diagnosticsSheet();
    expect(resultOf(rows, "triggerSpreadsheet")).toMatchObject({
      result: "null",
      details: expect.stringContaining("document properties: null"),
    });
    expect(resultOf(rows, "triggerDocumentLock").result).toBe("null");
  });
});
