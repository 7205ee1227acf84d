import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/schedule/history";
import { describeSchedule, failureMail, scheduleView } from "../../src/schedule/words";

const T0 = Date.UTC(2026, 0, 10, 8);
const run: RunRecord = {
  id: "r1",
  source: "schedule",
  user: "ana@example.com",
  startedAt: T0,
  endedAt: T0 + 12_340,
  refreshed: ["funds", "reports"],
  records: 120,
  calls: 14,
  outcome: "failed",
  message: "Service down (HTTP 503)",
};
const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

describe("schedule view", () => {
  it("describes every kind of schedule in both languages", () => {
    expect(describeSchedule("en", { kind: "hours", every: 1 })).toBe("Every hour");
    expect(describeSchedule("en", { kind: "hours", every: 6 })).toBe("Every 6 hours");
    expect(describeSchedule("es", { kind: "hours", every: 6 })).toBe("Cada 6 horas");
    expect(describeSchedule("en", { kind: "daily", hour: 23 })).toBe("Every day between 23:00 and 0:00");
    expect(describeSchedule("es", { kind: "off" })).toBe("Sin actualización programada");
  });

  it("shows the owner, the next run, the runs and the notice as plain data", () => {
    const view = scheduleView({
      language: "en",
      state: {
        schedule: { kind: "hours", every: 4 },
        ownerKey: "k-ana",
        ownerLabel: "ana@example.com",
        triggerUid: "t1",
        installedAt: T0 - 3_600_000,
      },
      me: "k-bob",
      runs: [run],
      notice: { kind: "failed", runId: "r1", at: T0, message: run.message },
      nowMs: T0 + 60_000,
      tzOffsetMinutes: 0,
      formatTime: fmt,
    });
    expect(view).toMatchObject({
      label: "Every 4 hours",
      owner: "ana@example.com",
      mine: false,
      nextRun: new Date(T0 + 4 * 3_600_000).toISOString(),
      // Times for the sidebar come formatted by the server (the spreadsheet's zone).
      nextRunText: "2026-01-10 12:00",
      notice: {
        kind: "failed",
        runId: "r1",
        text: "The scheduled refresh of 2026-01-10 08:00 failed: Service down (HTTP 503)",
      },
    });
    expect(view.runs[0]).toMatchObject({
      startedAtText: "2026-01-10 08:00",
      seconds: 12.3,
      outcomeLabel: "failed",
      source: "schedule",
      records: 120,
      calls: 14,
    });
    // Plain JSON only: google.script.run cannot pass a Date.
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it("writes the failure e-mail with the document, the time and the reason", () => {
    const mail = failureMail("es", run, { name: "Fondos 2026", url: "https://docs.google.com/x" }, fmt);
    expect(mail.subject).toBe("Falló la actualización programada: Fondos 2026");
    expect(mail.body).toContain("«Fondos 2026» falló el 2026-01-10 08:00");
    expect(mail.body).toContain("Service down (HTTP 503)");
    expect(mail.body).toContain("https://docs.google.com/x");
  });
});
