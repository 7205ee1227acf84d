/**
 * The rows of the Diagnostics sheet from what a run gathered: one per check, in order, a refusal
 * shown with Google's own message, checks that need a trigger run or an onOpen pending until one
 * has reported, in English and Spanish.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CHECK_IDS,
  type DiagnosticsResults,
  diagnosticsRows,
  diagnosticsSheetValues,
  isDiagnosticsEnabled,
  parseSessionSeen,
  parseTriggerReport,
  type SessionSeen,
  serializeSeen,
  type TriggerReport,
} from "../../src/diagnostics/checks";
import { translate } from "../../src/i18n";

const AT = Date.UTC(2025, 0, 15, 12, 0, 0);
const when = (ms: number) => new Date(ms).toISOString();
const menu: SessionSeen = {
  at: AT,
  authMode: "FULL",
  active: { ok: true, value: "ana@example.com" },
  effective: { ok: true, value: "ana@example.com" },
};
const ALLOWLIST_MESSAGE =
  "Request to https://example.com/ failed because the URL has not been whitelisted in the script manifest.";

function firstRun(): DiagnosticsResults {
  return {
    at: AT,
    spreadsheetId: "sheet-1",
    shortTrigger: {
      ok: false,
      message: "Add-ons can't create time-based triggers that run more often than once per hour.",
    },
    probe: { ok: true, value: { uid: "t1", dueAt: AT + 3_600_000 } },
    listing: { ok: true, value: [{ uid: "t1", handler: "runDiagnosticsTrigger", eventType: "CLOCK" }] },
    triggerReport: null,
    earlierProbeDueAt: null,
    outsideFetch: { ok: false, message: ALLOWLIST_MESSAGE },
    cellWrite: { ok: true, value: { cells: 100_000, ms: 1234 } },
    plainText: { ok: true, value: { formula: "", value: "=1+1" } },
    twoLocks: { ok: true, value: { firstAcquired: true, secondHasLock: true, secondAcquired: false } },
    sessionMenu: menu,
    sessionOpen: null,
  };
}

const report: TriggerReport = {
  at: AT + 3_700_000,
  session: {
    at: AT + 3_700_000,
    authMode: "FULL",
    active: { ok: true, value: "" },
    effective: menu.effective,
  },
  spreadsheet: { ok: true, value: "sheet-1" },
  documentLock: { ok: true, value: "acquired" },
  documentProperties: { ok: true, value: "available" },
};

describe("diagnosticsRows", () => {
  it("gives one row per check, in order, each with a result", () => {
    const rows = diagnosticsRows(firstRun(), "en", when);
    expect(rows.map((r) => r.check)).toEqual([...CHECK_IDS]);
    for (const r of rows) expect(r.result).not.toBe("");
  });

  it("shows a refusal with the message Google threw", () => {
    const rows = diagnosticsRows(firstRun(), "en", when);
    const short = rows.find((r) => r.check === "clockTrigger60s");
    expect(short).toMatchObject({ result: "refused", details: expect.stringContaining("once per hour") });
    expect(rows.find((r) => r.check === "fetchOutsideAllowlist")).toMatchObject({
      result: "refused",
      details: ALLOWLIST_MESSAGE,
    });
  });

  it("says whether a plain-text cell kept =1+1 as text, from getFormulas()", () => {
    const kept = diagnosticsRows(firstRun(), "en", when).find((r) => r.check === "plainTextFormula");
    expect(kept).toMatchObject({
      result: "kept as text",
      details: expect.stringContaining("getFormulas() gave —"),
    });
    const became = diagnosticsRows(
      { ...firstRun(), plainText: { ok: true, value: { formula: "=1+1", value: "2" } } },
      "en",
      when,
    ).find((r) => r.check === "plainTextFormula");
    expect(became).toMatchObject({
      result: "became a formula",
      details: expect.stringContaining("getFormulas() gave =1+1, getValues() gave 2"),
    });
  });

  it("reports whether two document lock objects share state, as observed", () => {
    const row = (twoLocks: DiagnosticsResults["twoLocks"]) =>
      diagnosticsRows({ ...firstRun(), twoLocks }, "en", when).find((r) => r.check === "twoDocumentLocks");
    expect(
      row({ ok: true, value: { firstAcquired: true, secondHasLock: true, secondAcquired: false } })?.result,
    ).toBe("shared");
    expect(
      row({ ok: true, value: { firstAcquired: true, secondHasLock: false, secondAcquired: true } }),
    ).toMatchObject({
      result: "separate",
      details: expect.stringContaining("second.hasLock() false, second.tryLock(100) true"),
    });
    expect(row({ ok: false, message: "getDocumentLock() returned null" })).toMatchObject({
      result: "failed",
      details: "getDocumentLock() returned null",
    });
  });

  it("says whether getUserTriggers listed the clock trigger just created", () => {
    const listed = diagnosticsRows(firstRun(), "en", when).find((r) => r.check === "userTriggersListClock");
    expect(listed?.result).toBe("listed");
    expect(listed?.details).toContain("runDiagnosticsTrigger (CLOCK)");
    const missing = diagnosticsRows({ ...firstRun(), listing: { ok: true, value: [] } }, "en", when);
    expect(missing.find((r) => r.check === "userTriggersListClock")?.result).toBe("not listed");
    const refused = diagnosticsRows(
      { ...firstRun(), probe: { ok: false, message: "This script has too many triggers." } },
      "en",
      when,
    );
    expect(refused.find((r) => r.check === "userTriggersListClock")).toMatchObject({
      result: "not checked",
      details: expect.stringContaining("too many triggers"),
    });
  });

  it("keeps the trigger's and onOpen's checks pending until they have reported, saying when the trigger is due", () => {
    const rows = diagnosticsRows(firstRun(), "en", when);
    for (const check of ["triggerSpreadsheet", "triggerDocumentLock", "sessionTrigger", "sessionOpen"]) {
      expect(rows.find((r) => r.check === check)?.result, check).toBe("pending");
    }
    expect(rows.find((r) => r.check === "triggerSpreadsheet")?.details).toContain(when(AT + 3_600_000));
  });

  it("shows what the trigger saw, at the time it saw it", () => {
    const rows = diagnosticsRows({ ...firstRun(), triggerReport: report }, "en", when);
    expect(rows.find((r) => r.check === "triggerSpreadsheet")).toMatchObject({
      result: "this spreadsheet",
      at: report.at,
    });
    expect(rows.find((r) => r.check === "triggerDocumentLock")?.result).toBe("acquired");
    expect(rows.find((r) => r.check === "sessionTrigger")).toMatchObject({
      result: "(empty)",
      details: expect.stringContaining("getEffectiveUser().getEmail(): ana@example.com"),
    });
    const gaps = diagnosticsRows(
      {
        ...firstRun(),
        triggerReport: {
          ...report,
          spreadsheet: { ok: true, value: null },
          documentLock: { ok: true, value: "null" },
          documentProperties: { ok: true, value: "null" },
        },
      },
      "en",
      when,
    );
    expect(gaps.find((r) => r.check === "triggerSpreadsheet")?.result).toBe("null");
    expect(gaps.find((r) => r.check === "triggerDocumentLock")?.result).toBe("null");
    const elsewhere = diagnosticsRows(
      { ...firstRun(), spreadsheetId: "sheet-2", triggerReport: report },
      "en",
      when,
    );
    expect(elsewhere.find((r) => r.check === "triggerSpreadsheet")?.result).toBe("another spreadsheet");
  });

  it("writes a header and text cells, in Spanish for a Spanish user", () => {
    const values = diagnosticsSheetValues(diagnosticsRows(firstRun(), "es", when), "es", when);
    expect(values[0]).toEqual(["Comprobación", "Resultado", "Detalles", "Cuándo"]);
    expect(values).toHaveLength(CHECK_IDS.length + 1);
    expect(values[1]).toEqual([
      "Activador de tiempo a los 60 s",
      "rechazado",
      expect.stringContaining("once per hour"),
      when(AT),
    ]);
    for (const row of values) for (const cell of row) expect(typeof cell).toBe("string");
  });
});

describe("stored reports", () => {
  it("reads back what was stored, and nothing from a value that is not a report", () => {
    expect(parseTriggerReport(serializeSeen(report))).toEqual(report);
    expect(parseSessionSeen(serializeSeen(menu))).toEqual(menu);
    expect(parseTriggerReport("{not json")).toBeNull();
    expect(parseTriggerReport(JSON.stringify({ at: 1 }))).toBeNull();
    expect(parseSessionSeen(null)).toBeNull();
    expect(parseSessionSeen(JSON.stringify({ ...menu, active: "x" }))).toBeNull();
  });
});

describe("where triggers do not fire (a test deployment)", () => {
  const TRIGGER_CHECKS = ["triggerSpreadsheet", "triggerDocumentLock", "sessionTrigger"];
  const HOUR = 3_600_000;
  const rowsOf = (results: DiagnosticsResults, language: "en" | "es" = "en") =>
    diagnosticsRows(results, language, when).filter((r) => TRIGGER_CHECKS.includes(r.check));

  it("says the trigger checks are not measurable here once an earlier probe is long overdue, never failed", () => {
    const due = AT - 2 * HOUR;
    const rows = rowsOf({ ...firstRun(), earlierProbeDueAt: due });
    expect(rows.map((r) => r.check)).toEqual(TRIGGER_CHECKS);
    for (const r of rows) {
      expect(r.result).toBe("not measurable here");
      expect(r.details).toContain(`due ${when(due)}, never ran`);
      expect(r.details).toContain("Run Diagnostics once on the real, versioned deployment");
    }
    expect(rowsOf({ ...firstRun(), earlierProbeDueAt: due }, "es").map((r) => r.result)).toEqual(
      TRIGGER_CHECKS.map(() => "no medible aquí"),
    );
  });

  it("keeps them pending while the probe may still fire, and shows what a probe saw once one ran", () => {
    // Due half an hour ago: an add-on's clock trigger may still fire within the hour.
    expect(rowsOf({ ...firstRun(), earlierProbeDueAt: AT - HOUR / 2 }).map((r) => r.result)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    const fired = rowsOf({
      ...firstRun(),
      at: report.at + 3 * HOUR,
      earlierProbeDueAt: AT + HOUR,
      triggerReport: report,
    });
    expect(fired.map((r) => r.result)).toEqual(["this spreadsheet", "acquired", "(empty)"]);
  });
});

describe("isDiagnosticsEnabled", () => {
  it("is on only for 1", () => {
    expect(isDiagnosticsEnabled("1")).toBe(true);
    expect(isDiagnosticsEnabled(" 1 ")).toBe(true);
    for (const v of [null, undefined, "", "0", "true", "yes"]) expect(isDiagnosticsEnabled(v)).toBe(false);
  });
});

describe("docs/real-apps-script.md", () => {
  it("has a row for every check, named as the sheet names it", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/real-apps-script.md"), "utf8").replace(
      /`/g,
      "",
    );
    const firstCells = doc
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| ---") && !line.startsWith("| check "))
      .map((line) => line.split(" | ")[0]?.slice(2).trim());
    expect(firstCells).toEqual(CHECK_IDS.map((id) => translate("en", `diagnostics.check.${id}`)));
  });
});
