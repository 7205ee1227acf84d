/**
 * A sidebar write made while an Outbox run is going: the report sidebar's mark takes no lock, so
 * it can land between two of the run's rows. The run reads the stored records again just before
 * each send, and a row on the same report waits for the sidebar's unsettled write (Pending, with
 * the reason, nothing sent) instead of undoing or being undone by it.
 */
import { describe, expect, it } from "vitest";
import { columnNumber } from "../../src/outbox/columns";
import { until } from "../browser/until";
import { openReports, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("a sidebar write made during an Outbox run", () => {
  it("a report mark left unsettled by the sidebar during the run holds the run's later row on that report", async () => {
    const state = await wb.state();
    const fund = state.funds.find((f) => f.status === 1) as SandboxFund;
    const reportId = Number((state.reports[0] as { id: number }).id);
    const shown = openReports(wb, [reportId]).sent;
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "3.01" },
      { operation: "Integration mark", targetId: reportId, integrationCode: "ERP-5" },
    ]);
    expect(wb.menu("previewOutbox")).toMatchObject({ ok: true });
    // The deposit is held in its request until the sidebar's mark, sent meanwhile, is in flight
    // too (its record "sending"); the mark is held until the run has come to the row on the same
    // report and ended.
    await wb.faults([
      { endpoint: "depositMoneyToFund", fault: "hold", times: 1 },
      // At most 15 s: a run that sent the row anyway ends and is caught below.
      { endpoint: "setExpenseReportIntegration", fault: "hold", times: 1, delayMs: 15_000 },
    ]);
    wb.emulator.answers.length = 0;
    wb.emulator.answers.push("YES", "OK", "OK");
    const run = wb.emulator.startRun("runOutbox", [], { as: "menu" });
    let ended = false;
    run.then(() => {
      ended = true;
    });
    await wb.heldCall("depositMoneyToFund");
    const rowState = () =>
      wb.emulator.spreadsheet.sheetByName("Outbox")?.cell(2, columnNumber("state"))?.value;
    expect(rowState()).toBe("Sending");
    const mark = wb.emulator.startRun(
      "markReportsIntegrated",
      [
        {
          requestId: "during-run-integrated-0001",
          ...shown,
          fields: { IntegrationCode: "ERP-9", IntegrationDate: "2024-06-30 10:00:00" },
        },
      ],
      { as: "script.run" },
    );
    const formSending = () =>
      [...wb.emulator.documentPropertiesData.values.entries()].some(
        ([key, value]) => key.startsWith("outbox.record.") && String(value).includes('"source":"form"'),
      );
    // The mark's record is written before anything else of it (its audit row waits for the run's
    // lock): from here the run, let go, must find it.
    await until(() => expect(formSending()).toBe(true), 30_000);
    expect(ended, "the run waits on its first row").toBe(false);
    expect(await wb.releaseHeld("depositMoneyToFund")).toBe(1);
    const outcome = await run;
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const rows = wb.outbox();
    expect(rows.map((r) => r.state)).toEqual(["Done", "Pending"]);
    expect(String(rows[1]?.result)).toContain(`report ${reportId} from the Expense reports sidebar`);
    expect(rows[1]?.operationKey ?? "").toBe("");
    // Nothing of the row was sent: the only mark is the sidebar's.
    const [header = [], ...audit] = wb.sheetValues("Audit");
    const endpoint = header.indexOf("Endpoint");
    const source = header.indexOf("Source");
    expect(
      audit.filter((r) => r[endpoint] === "setExpenseReportIntegration" && r[source] !== "sidebar"),
    ).toEqual([]);
    expect(await wb.releaseHeld("setExpenseReportIntegration")).toBe(1); // now its turn: the run's lock is free
    const sidebar = await mark;
    expect(sidebar.ok, JSON.stringify(sidebar)).toBe(true);
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId);
    expect(JSON.stringify(report)).toContain("ERP-9");
    expect(JSON.stringify(report)).not.toContain("ERP-5");
    expect(await wb.deposits(fund.id, 301)).toBe(1);
  }, 60_000);
});
