import { afterAll, describe, expect, it } from "vitest";
import { directTarget, startControlServer } from "../../dev/emulator/control";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

describe("embedded charts as scripts see them", () => {
  it("builds, inserts, lists, modifies and removes charts, keeping type, ranges, options and position", () => {
    const seen = inScript(
      em,
      `var sheet = SpreadsheetApp.getActive().insertSheet("Charts");
       sheet.getRange("A1:B3").setValues([["Currency", "Balance"], ["CLP", 10], ["USD", 2]]);
       var built = sheet.newChart().asColumnChart().addRange(sheet.getRange("A1:B3"))
         .setOption("title", "Balance").setPosition(2, 10, 0, 0).build();
       var before = built.getChartId();
       sheet.insertChart(built);
       var chart = sheet.getCharts()[0];
       var id = chart.getChartId();
       var info = chart.getContainerInfo();
       var first = [before, typeof id, chart.getOptions().get("title"), chart.getRanges()[0].getA1Notation(),
         info.getAnchorRow(), info.getAnchorColumn()];
       sheet.updateChart(chart.modify().clearRanges().addRange(sheet.getRange("A1:B2"))
         .setOption("title", "Now").setOption("isStacked", true).build());
       var after = sheet.getCharts()[0];
       var second = [after.getChartId() === id, after.getOptions().get("title"), after.getRanges()[0].getA1Notation(),
         after.getContainerInfo().getAnchorColumn()];
       sheet.insertChart(sheet.newChart().asPieChart().addRange(sheet.getRange("A1:B3")).build());
       var count = sheet.getCharts().length;
       sheet.removeChart(sheet.getCharts()[0]);
       return [first, second, count, sheet.getCharts().length];`,
    );
    expect(seen).toEqual([[null, "number", "Balance", "A1:B3", 2, 10], [true, "Now", "A1:B2", 10], 2, 1]);
  });

  it("refuses to update a chart that was never inserted", () => {
    expect(() =>
      inScript(
        em,
        `var sheet = SpreadsheetApp.getActive().getSheetByName("Charts");
         sheet.updateChart(sheet.newChart().addRange(sheet.getRange("A1")).build());`,
      ),
    ).toThrow("The chart is not on this sheet.");
  });

  it("GET /control/sheets gives each sheet's charts: type, ranges and title", async () => {
    const server = await startControlServer({ target: directTarget(em), port: 0 });
    try {
      const res = await fetch(`${server.url}/control/sheets`);
      const sheets = (await res.json()) as Array<{ name: string; charts: unknown[] }>;
      expect(sheets.find((s) => s.name === "Charts")?.charts).toEqual([
        expect.objectContaining({ type: "PIE", ranges: ["Charts!A1:B3"], title: "" }),
      ]);
      expect(sheets.find((s) => s.name === "Sheet1")?.charts).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
