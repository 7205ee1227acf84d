/**
 * emulator.saveState() and restoreState(): a test goes back to a state it built once, as many
 * times as it likes, each time to a copy of its own (sheets, notes, properties, caches, triggers).
 */
import { afterAll, describe, expect, it } from "vitest";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

const read = () =>
  inScript(
    em,
    `var s = SpreadsheetApp.getActive().getSheetByName("Kept");
     return [s ? s.getRange("A1:B2").getValues() : null, s ? s.getRange("A1").getNote() : null,
       SpreadsheetApp.getActive().getActiveSheet().getName(),
       PropertiesService.getDocumentProperties().getProperty("k"),
       PropertiesService.getUserProperties().getProperty("u"),
       CacheService.getDocumentCache().get("c"),
       ScriptApp.getProjectTriggers().length];`,
  );

describe("saveState and restoreState", () => {
  it("go back to the saved sheets, properties, caches and triggers, every time, each a copy", () => {
    em.resetState();
    inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Kept");
       s.getRange("A1:B2").setValues([[1, "one"], [2, "two"]]);
       s.getRange("A1").setNote("a note");
       s.activate();
       PropertiesService.getDocumentProperties().setProperty("k", "before");
       PropertiesService.getUserProperties().setProperty("u", "mine");
       CacheService.getDocumentCache().put("c", "cached", 600);
       ScriptApp.newTrigger("onTimer").timeBased().everyHours(1).create();`,
    );
    const saved = read();
    const state = em.saveState();
    for (let round = 0; round < 2; round++) {
      inScript(
        em,
        `var s = SpreadsheetApp.getActive().getSheetByName("Kept");
         s.getRange("A1:B2").setValues([[9, "nine"], [9, "nine"]]);
         s.getRange("A1").setNote("changed");
         SpreadsheetApp.getActive().insertSheet("Other").activate();
         PropertiesService.getDocumentProperties().setProperty("k", "after");
         PropertiesService.getUserProperties().deleteProperty("u");
         CacheService.getDocumentCache().remove("c");
         ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); });`,
      );
      expect(read()).not.toEqual(saved);
      em.restoreState(state);
      expect(read()).toEqual(saved);
      expect(em.spreadsheet.sheetByName("Other")).toBeUndefined();
    }
  });

  it("keeps a sparse row sparse and the active sheet one of the sheets", () => {
    em.resetState();
    em.typeCells("Sheet1", "C3", [["x"]]);
    em.restoreState(em.saveState());
    const sheet = em.spreadsheet.sheetByName("Sheet1");
    expect(sheet?.cell(3, 3)?.value).toBe("x");
    expect(sheet?.cell(3, 1)).toBeUndefined();
    expect(em.spreadsheet.sheets).toContain(em.spreadsheet.active.sheet);
  });

  it("copies each cell whole: a date, a style and a dropdown of the copy are its own, a rule shared by cells stays shared", () => {
    em.resetState();
    inScript(
      em,
      `var s = SpreadsheetApp.getActive().getSheetByName("Sheet1");
       s.getRange("A1").setValue(new Date(Date.UTC(2024, 5, 30)));
       s.getRange("B1").setBackground("#ff0000");
       s.getRange("C1:C2").setDataValidation(
         SpreadsheetApp.newDataValidation().requireValueInList(["Deposit", "Withdrawal"], true).build());`,
    );
    const state = em.saveState();
    for (let round = 0; round < 2; round++) {
      em.restoreState(state);
      const sheet = em.spreadsheet.sheetByName("Sheet1");
      const date = sheet?.cell(1, 1)?.value as Date;
      expect(date.toISOString()).toBe("2024-06-30T00:00:00.000Z");
      expect(sheet?.cell(1, 2)?.style).toEqual({ background: "#ff0000" });
      const [first, second] = [sheet?.cell(1, 3)?.validation, sheet?.cell(2, 3)?.validation];
      expect(first?.values).toEqual(["Deposit", "Withdrawal"]);
      expect(second).toBe(first);
      // Changed in place here, none of it reaches the saved state or the next copy.
      date.setUTCFullYear(1999);
      (sheet?.cell(1, 2)?.style as Record<string, string>).background = "#000000";
      first?.values.push("Other");
    }
  });
});
