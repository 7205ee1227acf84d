/**
 * The schedule's choices in the emulated add-on: for the account kind assumed (consumer until the
 * user chooses), how much of the day's trigger time each frequency may use, measured on the run
 * history; a frequency that would go past it is flagged before anything is saved.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_KIND_KEY } from "../../src/app/quota";
import { type RunRecord, runKey, serializeRun } from "../../src/schedule/history";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import { writeBackPerFile } from "../writeback/harness";

const wb = writeBackPerFile();
const MIN = 60_000;

function keep(run: RunRecord): void {
  wb.emulator.documentPropertiesData.values.set(runKey(run), serializeRun(run));
}

describe("the schedule's trigger time", () => {
  it("says what each frequency uses of a consumer account's 90 minutes, flagging those past it", () => {
    const now = wb.emulator.now().getTime();
    // A long refresh: 6 minutes, continued by a second execution of 3.
    const base = { user: "ana", refreshed: ["funds"], records: 10, calls: 40, message: "" };
    keep({
      ...base,
      id: "a",
      source: "schedule",
      startedAt: now - 60 * MIN,
      endedAt: now - 54 * MIN,
      outcome: "continued",
    });
    keep({
      ...base,
      id: "b",
      source: "continuation",
      startedAt: now - 50 * MIN,
      endedAt: now - 47 * MIN,
      outcome: "ok",
    });
    const view = wb.sidebar("getScheduleView") as ScheduleSidebarView;
    expect(view.accountKindSource).toBe("assumed");
    expect(view.triggerTime).toMatchObject({ kind: "consumer", allowanceMs: 90 * MIN, refreshMs: 9 * MIN });
    expect(view.triggerTime.choices["hours:1"]).toEqual({ runsPerDay: 24, dailyMs: 216 * MIN, over: true });
    expect(view.triggerTime.choices["hours:2"]?.over).toBe(true);
    expect(view.triggerTime.choices["hours:4"]).toEqual({ runsPerDay: 6, dailyMs: 54 * MIN, over: false });
    // Chosen as Workspace: 6 hours, and every hour fits.
    wb.emulator.userPropertiesOf(wb.user).values.set(ACCOUNT_KIND_KEY, "workspace");
    const workspace = wb.sidebar("getScheduleView") as ScheduleSidebarView;
    expect(workspace.triggerTime).toMatchObject({ kind: "workspace", allowanceMs: 360 * MIN });
    expect(workspace.triggerTime.choices["hours:1"]?.over).toBe(false);
    wb.emulator.userPropertiesOf(wb.user).values.delete(ACCOUNT_KIND_KEY);
  });
});
