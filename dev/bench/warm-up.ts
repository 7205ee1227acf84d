/**
 * The stand-ins warmed before a timed refresh: the sandbox (on its worker thread) and the
 * emulation's own code (the emulated spreadsheet, UrlFetch, the realm's glue) run in the bench's
 * process, and start it cold. The first refresh of a size was their first real work, so V8
 * compiled their hot functions during it, on the same two cores as the add-on: work that on
 * Google happens nowhere near the script (Google's services and the service are long running).
 *
 * The warm-up is a script of its own, never the add-on: in an emulated spreadsheet of its own
 * it reads what a refresh reads (the lists' first pages, then funds one by one, 25 reads per
 * fetchAll) and writes the reports' members into a sheet as a refresh writes its data sheets
 * (texts, date texts, amounts, links, their number formats), then reads columns back. The same
 * work at every size (at most 200 funds and 2,000 rows): enough for V8 to compile what is hot.
 * The add-on's code stays cold for the timed refresh: Apps Script evaluates it anew on every
 * execution, and the emulation does too (a realm of its own per execution, whose objects V8
 * also sees as new: part of the emulation's compiled code is compiled again for them).
 */

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator } from "../emulator/index";
import { servicePrefix } from "../emulator/settings";

/** The warm-up's script, run in the emulation as the add-on's bundle would be (ES2019). */
const WARM_UP_SCRIPT = String.raw`
function warmUp(base, token, listPaths) {
  var headers = { Authorization: "Bearer " + token };
  var read = function (paths) {
    var out = [];
    for (var i = 0; i < paths.length; i += 25) {
      var batch = paths.slice(i, i + 25).map(function (p) {
        return { url: base + "/" + p, headers: headers, muteHttpExceptions: true };
      });
      UrlFetchApp.fetchAll(batch).forEach(function (r, j) {
        if (r.getResponseCode() !== 200)
          throw new Error(paths[i + j].split("?")[0] + " answered HTTP " + r.getResponseCode());
        var body = JSON.parse(r.getContentText());
        // The service's refusals may come inside an HTTP 200.
        if (body && body.Error) throw new Error(paths[i + j].split("?")[0] + " refused: " + body.Error.Message);
        out.push(body);
      });
    }
    return out;
  };
  var funds = [];
  var reports = [];
  read(listPaths).forEach(function (body) {
    if (Array.isArray(body.Funds)) funds = funds.concat(body.Funds);
    if (Array.isArray(body.ExpenseReports)) reports = reports.concat(body.ExpenseReports);
  });
  funds = funds.slice(0, 200);
  reports = reports.slice(0, 2000);
  read(funds.map(function (f) { return "getFund?Id=" + f.Id; }));

  // The reports' members as cells, in the kinds a refresh writes, with their formats.
  var DATE = /^\d{4}-\d{2}-\d{2}/;
  var cellOf = function (v) {
    if (v === null || v === undefined) return ["", "@"];
    if (typeof v === "number") return [v, Number.isInteger(v) ? "0" : "#,##0.00"];
    if (typeof v === "boolean") return [v ? "Yes" : "No", "@"];
    if (typeof v === "string") return DATE.test(v) ? [v.slice(0, 19), v.length > 10 ? "yyyy-mm-dd hh:mm" : "yyyy-mm-dd"] : [v, "@"];
    return [JSON.stringify(v).slice(0, 1000), "@"];
  };
  var keys = reports.length > 0 ? Object.keys(reports[0]) : ["Id"];
  var values = [keys.concat(["Link"])];
  var formats = [keys.map(function () { return "@"; }).concat(["@"])];
  reports.forEach(function (r) {
    var row = [];
    var rowFormats = [];
    keys.forEach(function (k) {
      var c = cellOf(r[k]);
      row.push(c[0]);
      rowFormats.push(c[1]);
    });
    row.push('=HYPERLINK("https://example.com/files/' + r.Id + '","' + String(r.Id) + '.pdf")');
    rowFormats.push("General");
    values.push(row);
    formats.push(rowFormats);
  });
  var sheet = SpreadsheetApp.getActiveSpreadsheet().insertSheet("Warm-up");
  if (values[0].length > sheet.getMaxColumns())
    sheet.insertColumnsAfter(sheet.getMaxColumns(), values[0].length - sheet.getMaxColumns());
  if (values.length > sheet.getMaxRows()) sheet.insertRowsAfter(sheet.getMaxRows(), values.length - sheet.getMaxRows());
  var range = sheet.getRange(1, 1, values.length, values[0].length);
  range.setValues(values);
  range.setNumberFormats(formats);
  sheet.setFrozenRows(1);
  var readBack = 0;
  for (var c = 1; c <= Math.min(8, values[0].length); c++)
    readBack += sheet.getRange(2, c, Math.max(1, values.length - 1), 1).getValues().length;
  return { funds: funds.length, reports: reports.length, cells: values.length * values[0].length, read: readBack };
}
`;

export interface WarmUp {
  funds: number;
  reports: number;
  cells: number;
  ms: number;
}

/**
 * Runs the warm-up script against `baseUrl` with `token`, reading `listPaths` (list reads, path
 * and query) and up to 200 of the funds they name. `dist` is the built add-on's folder: only
 * its manifest is used.
 */
export async function warmUpStandIns(options: {
  dist: string;
  baseUrl: string;
  token: string;
  listPaths: readonly string[];
}): Promise<WarmUp> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "bench-warm-up-"));
  try {
    writeFileSync(join(dir, "addon.js"), WARM_UP_SCRIPT);
    copyFileSync(join(options.dist, "appsscript.json"), join(dir, "appsscript.json"));
    const user = "warm-up@example.com";
    const em = createEmulator({
      distDir: dir,
      users: [user],
      timeZone: "America/Santiago",
      urlFetchAllowlist: [servicePrefix(options.baseUrl)],
    });
    try {
      const outcome = em.tryRun("warmUp", [options.baseUrl, options.token, options.listPaths], { user });
      if (!outcome.ok) throw new Error(`the stand-ins' warm-up failed: ${outcome.error}`);
      const made = outcome.result as Omit<WarmUp, "ms">;
      return { ...made, ms: performance.now() - started };
    } finally {
      await em.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
