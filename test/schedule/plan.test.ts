import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allowedSilenceMs,
  CLOSE_CONTINUATION_HANDLER,
  CONTINUATION_HANDLER,
  chooseSchedule,
  nextRunAt,
  parseSchedule,
  parseScheduleState,
  planContinuationTriggers,
  planTriggers,
  REFRESH_HANDLER,
  type Schedule,
  ScheduleInputError,
  type ScheduleState,
  savedByMe,
  scheduleKey,
  type TriggerInfo,
} from "../../src/schedule/plan";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 10, 8, 30);

function state(schedule: Schedule, owner = "alice", uid: string | null = "t1"): ScheduleState {
  return { schedule, ownerKey: owner, ownerLabel: `${owner}@example.com`, triggerUid: uid, installedAt: T0 };
}

describe("parseSchedule", () => {
  it("accepts every allowed choice", () => {
    for (const every of [1, 2, 4, 6, 8, 12])
      expect(parseSchedule({ kind: "hours", every })).toEqual({ kind: "hours", every });
    expect(parseSchedule({ kind: "daily", hour: 0 })).toEqual({ kind: "daily", hour: 0 });
    expect(parseSchedule({ kind: "daily", hour: "23" })).toEqual({ kind: "daily", hour: 23 });
    expect(parseSchedule({ kind: "off" })).toEqual({ kind: "off" });
  });

  it("refuses anything else naming the field and the rule", () => {
    expect(() => parseSchedule({ kind: "hours", every: 3 })).toThrow(
      "every: must be one of 1, 2, 4, 6, 8, 12 hours",
    );
    expect(() => parseSchedule({ kind: "hours", every: true })).toThrow(ScheduleInputError);
    expect(() => parseSchedule({ kind: "daily", hour: 24 })).toThrow(
      "hour: must be a whole hour from 0 to 23",
    );
    expect(() => parseSchedule({ kind: "daily", hour: 7.5 })).toThrow("hour:");
    expect(() => parseSchedule({ kind: "minutes" })).toThrow('kind: must be "off", "hours" or "daily"');
    expect(() => parseSchedule(null)).toThrow("schedule: must be an object");
  });
});

describe("nextRunAt", () => {
  it("is one period after the last run for an hourly schedule, keeping the rhythm when late", () => {
    expect(nextRunAt({ kind: "hours", every: 4 }, T0, T0 + HOUR)).toBe(T0 + 4 * HOUR);
    expect(nextRunAt({ kind: "hours", every: 4 }, T0, T0 + 9 * HOUR)).toBe(T0 + 12 * HOUR);
  });

  it("is today's hour in the document's time zone, or tomorrow once it ran", () => {
    const daily: Schedule = { kind: "daily", hour: 9 };
    // 08:30 UTC, UTC-3 → 05:30 local; next 09:00 local = 12:00 UTC.
    expect(nextRunAt(daily, 0, T0, -180)).toBe(Date.UTC(2026, 0, 10, 12));
    // Already ran today at 12:10 UTC (09:10 local): tomorrow.
    expect(nextRunAt(daily, Date.UTC(2026, 0, 10, 12, 10), Date.UTC(2026, 0, 10, 12, 20), -180)).toBe(
      Date.UTC(2026, 0, 11, 12),
    );
    // Past 10:00 local without a run: tomorrow.
    expect(nextRunAt(daily, 0, Date.UTC(2026, 0, 10, 14), -180)).toBe(Date.UTC(2026, 0, 11, 12));
  });

  it("is null when off", () => {
    expect(nextRunAt({ kind: "off" }, T0, T0)).toBeNull();
  });
});

describe("planTriggers", () => {
  const hourly: Schedule = { kind: "hours", every: 1 };
  const t = (uid: string, handler = REFRESH_HANDLER): TriggerInfo => ({ uid, handler });

  it("creates the owner's trigger when none exists", () => {
    const plan = planTriggers({
      state: state(hourly, "alice", null),
      me: "alice",
      mySaved: "hours:1",
      mine: [],
      lastScheduledRunAt: null,
      nowMs: T0,
    });
    expect(plan).toEqual({ remove: [], create: hourly, reasons: ["missing"] });
  });

  it("keeps the recorded trigger and removes duplicates", () => {
    const plan = planTriggers({
      state: state(hourly),
      me: "alice",
      mySaved: "hours:1",
      mine: [t("t0"), t("t1"), t("t2"), t("c1", CONTINUATION_HANDLER), t("x", "somethingElse")],
      lastScheduledRunAt: T0 + HOUR,
      nowMs: T0 + HOUR + 10,
    });
    expect(plan.remove).toEqual(["t0", "t2"]);
    expect(plan.create).toBeNull();
    expect(plan.reasons).toEqual(["duplicate"]);
  });

  it("re-creates a trigger silent for longer than the schedule allows (disabled)", () => {
    const quiet = {
      state: state(hourly),
      me: "alice",
      mySaved: "hours:1",
      mine: [t("t1")],
      lastScheduledRunAt: T0,
    };
    expect(planTriggers({ ...quiet, nowMs: T0 + allowedSilenceMs(hourly) })).toEqual({
      remove: [],
      create: null,
      reasons: [],
    });
    expect(planTriggers({ ...quiet, nowMs: T0 + allowedSilenceMs(hourly) + 1 })).toEqual({
      remove: ["t1"],
      create: hourly,
      reasons: ["disabled"],
    });
  });

  it("removes every refresh trigger of a user who is not the owner, or when off", () => {
    const mine = [t("b1"), t("c", CONTINUATION_HANDLER)];
    expect(
      planTriggers({
        state: state(hourly, "alice"),
        me: "bob",
        mySaved: "hours:1",
        mine,
        lastScheduledRunAt: null,
        nowMs: T0,
      }),
    ).toEqual({
      remove: ["b1"],
      create: null,
      reasons: ["not-owner"],
    });
    expect(
      planTriggers({
        state: state({ kind: "off" }, "bob"),
        me: "bob",
        mySaved: null,
        mine,
        lastScheduledRunAt: null,
        nowMs: T0,
      }).remove,
    ).toEqual(["b1"]);
    expect(
      planTriggers({ state: null, me: "bob", mySaved: null, mine, lastScheduledRunAt: null, nowMs: T0 })
        .remove,
    ).toEqual(["b1"]);
  });

  it("makes no trigger and removes none for an owner named by a state they did not save", () => {
    // Another editor wrote the document's state naming Alice (her key is readable there).
    const forged = { state: state(hourly, "alice", null), me: "alice", lastScheduledRunAt: null, nowMs: T0 };
    expect(planTriggers({ ...forged, mySaved: null, mine: [] })).toEqual({
      remove: [],
      create: null,
      reasons: ["unconfirmed"],
    });
    // Alice saved daily at 9; the state now says hourly: her trigger is neither replaced nor kept running it.
    expect(planTriggers({ ...forged, mySaved: "daily:9", mine: [t("t1")] })).toEqual({
      remove: [],
      create: null,
      reasons: ["unconfirmed"],
    });
    expect(savedByMe(state(hourly, "alice"), "alice", "hours:1")).toBe(true);
    expect(savedByMe(state(hourly, "alice"), "alice", "hours:2")).toBe(false);
    expect(savedByMe(state(hourly, "alice"), "bob", "hours:1")).toBe(false);
    expect(savedByMe(null, "alice", "hours:1")).toBe(false);
  });

  it("whatever triggers exist, applying the plan leaves the owner exactly one and others none", () => {
    const scheduleArb = fc.oneof(
      fc.constant<Schedule>({ kind: "off" }),
      fc.constantFrom(1, 2, 4, 6, 8, 12).map((every) => ({ kind: "hours", every }) as Schedule),
      fc.integer({ min: 0, max: 23 }).map((hour) => ({ kind: "daily", hour }) as Schedule),
    );
    fc.assert(
      fc.property(
        scheduleArb,
        fc.constantFrom("alice", "bob"),
        fc.uniqueArray(fc.constantFrom("t1", "t2", "t3", "t4"), { maxLength: 4 }),
        fc.option(fc.constantFrom("t1", "t2", "t9")),
        fc.integer({ min: 0, max: 60 * HOUR }),
        (schedule, me, uids, recorded, elapsed) => {
          const mine = uids.map((uid) => t(uid));
          const plan = planTriggers({
            state: { ...state(schedule, "alice", recorded), installedAt: T0 },
            me,
            mySaved: scheduleKey(schedule),
            mine,
            lastScheduledRunAt: null,
            nowMs: T0 + elapsed,
          });
          const left = mine.filter((x) => !plan.remove.includes(x.uid)).length + (plan.create ? 1 : 0);
          expect(left).toBe(me === "alice" && schedule.kind !== "off" ? 1 : 0);
        },
      ),
    );
  });
});

describe("planContinuationTriggers", () => {
  it("removes continuation triggers other than the one kept", () => {
    const mine = [
      { uid: "c1", handler: CONTINUATION_HANDLER },
      { uid: "c2", handler: CONTINUATION_HANDLER },
      { uid: "r1", handler: REFRESH_HANDLER },
    ];
    expect(planContinuationTriggers(mine, "c2")).toEqual(["c1"]);
    expect(planContinuationTriggers(mine, null)).toEqual(["c1", "c2"]);
  });

  it("counts the close's continuation among them: the schedule's trigger takes its place (one clock trigger per user per document)", () => {
    const mine = [
      { uid: "m1", handler: CLOSE_CONTINUATION_HANDLER },
      { uid: "r1", handler: REFRESH_HANDLER },
    ];
    expect(planContinuationTriggers(mine, null)).toEqual(["m1"]);
  });
});

describe("schedule state", () => {
  it("round-trips through its stored text and rejects broken text", () => {
    const s = chooseSchedule({ kind: "daily", hour: 7 }, { key: "k1", label: "ana@example.com" }, T0);
    expect(parseScheduleState(JSON.stringify(s))).toEqual(s);
    expect(parseScheduleState("{oops")).toBeNull();
    expect(parseScheduleState(JSON.stringify({ ...s, schedule: { kind: "hours", every: 5 } }))).toBeNull();
    expect(parseScheduleState(null)).toBeNull();
  });
});
