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
});
