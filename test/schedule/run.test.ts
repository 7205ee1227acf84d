import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/api/errors";
import { createTimeBudget } from "../../src/longrun/budget";
import {
  type Continuation,
  loadContinuation,
  type PropertyStore,
  saveContinuation,
} from "../../src/longrun/continuation";
import type { RunRecord } from "../../src/schedule/history";
import { loadHistory, type RefreshEngine, type RunPorts, runRefresh, saveRun } from "../../src/schedule/run";
import { runWords } from "../../src/schedule/words";

function memoryStore(): PropertyStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getProperty: (k) => data.get(k) ?? null,
    setProperty: (k, v) => data.set(k, v),
    deleteProperty: (k) => data.delete(k),
    getProperties: () => Object.fromEntries(data),
  };
}

/** A paged refresh: each step fetches one page (one call, 1 s) and writes its rows by Id. */
function pagedRefresh(world: { now: number; calls: number }, pages: number, sheet: Map<number, number>) {
  const fetched: number[] = [];
  let fingerprint = "v1";
  let failOnPage: number | null = null;
  const engine: RefreshEngine<{ page: number }> = {
    settingsFingerprint: () => fingerprint,
    run(cursor, shouldStop) {
      let page = cursor?.page ?? 1;
      let records = 0;
      while (page <= pages) {
        if (shouldStop()) return { finished: false, cursor: { page }, records, refreshed: ["reports"] };
        world.now += 1000;
        world.calls++;
        if (failOnPage === page) throw new Error("Request failed: Bearer secret-token refused");
        fetched.push(page);
        for (let i = 0; i < 10; i++) sheet.set(page * 100 + i, (sheet.get(page * 100 + i) ?? 0) + 1);
        records += 10;
        page++;
      }
      return { finished: true, cursor: null, records, refreshed: ["reports"] };
    },
  };
  return {
    engine,
    fetched,
    setFingerprint: (f: string) => (fingerprint = f),
    failOn: (p: number | null) => (failOnPage = p),
  };
}

function harness(pages = 30, limitMs = 12_000) {
  const world = { now: Date.UTC(2026, 0, 10, 8), calls: 0 };
  const doc = memoryStore();
  const sheet = new Map<number, number>();
  const refresh = pagedRefresh(world, pages, sheet);
  const state = {
    locked: false,
    used: 0,
    limit: 20_000,
    followUps: 0,
    allowFollowUp: true,
    mails: [] as RunRecord[],
  };
  let ids = 0;
  // The user's own properties: where the mark of the position they stored is kept.
  const mine = new Map<string, string>();
  const ports = (): RunPorts<{ page: number }> => {
    const callsAtStart = world.calls;
    return {
      words: runWords("en"),
      now: () => world.now,
      newId: () => `id${++ids}`,
      me: { key: "ana-key", label: "ana@example.com" },
      lock: {
        tryLock: () => {
          if (state.locked) return false;
          state.locked = true;
          return true;
        },
        release: () => {
          state.locked = false;
        },
      },
      documentStore: doc,
      quota: { used: () => state.used, limit: () => state.limit, add: (n) => (state.used += n) },
      callsMade: () => world.calls - callsAtStart,
      refresh: refresh.engine,
      budget: createTimeBudget({ clock: { now: () => world.now }, limitMs, reserveMs: 2_000 }),
      scheduleFollowUp: () => {
        if (!state.allowFollowUp) return false;
        state.followUps++;
        return true;
      },
      notifyFailure: (run) => state.mails.push(run),
      secret: () => "secret-token",
      mine: {
        is: (text) => mine.get("position") === `#${text}`,
        keep: (text) => mine.set("position", `#${text}`),
      },
    };
  };
  return { world, doc, sheet, refresh, state, ports, mine };
}

describe("runRefresh", () => {
  it("continues a refresh stopped near the time limit until done, with no page twice and none missed", () => {
    const h = harness(30, 12_000);
    const outcomes: string[] = [];
    outcomes.push(runRefresh("schedule", h.ports()).outcome);
    expect(h.state.followUps).toBe(1);
    // 12 s limit, 2 s kept back, 1 s per page: ten pages per execution.
    expect(loadContinuation(h.doc)?.cursor).toEqual({ page: 11 });
    for (let i = 0; i < 10 && loadContinuation(h.doc); i++)
      outcomes.push(runRefresh("continuation", h.ports()).outcome);
    expect(outcomes).toEqual(["continued", "continued", "ok"]);
    expect(h.refresh.fetched).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(h.sheet.size).toBe(300);
    expect([...h.sheet.values()].every((n) => n === 1)).toBe(true);
    const history = loadHistory(h.doc, h.world.now);
    expect(history[0]).toMatchObject({
      outcome: "ok",
      source: "continuation",
      message: "Finished in 3 executions.",
    });
    expect(history.reduce((sum, r) => sum + r.calls, 0)).toBe(30);
    expect(h.state.used).toBe(30);
    // A stray continuation trigger after the end does nothing and records nothing.
    expect(runRefresh("continuation", h.ports()).outcome).toBe("nothing");
    expect(loadHistory(h.doc, h.world.now)).toHaveLength(3);
  });

  it("lets the next scheduled run continue when no one-off trigger is allowed", () => {
    const h = harness(15, 12_000);
    h.state.allowFollowUp = false;
    const first = runRefresh("schedule", h.ports());
    expect(first.outcome).toBe("continued");
    if (first.outcome !== "nothing")
      expect(first.run.message).toMatch(/next scheduled run continues where it stopped/);
    expect(runRefresh("schedule", h.ports()).outcome).toBe("ok");
    expect(h.refresh.fetched).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it("records a run that cannot get the lock as skipped and does nothing", () => {
    const h = harness(3);
    h.state.locked = true;
    const result = runRefresh("schedule", h.ports());
    expect(result.outcome).toBe("skipped");
    expect(h.refresh.fetched).toEqual([]);
    expect(loadHistory(h.doc, h.world.now).map((r) => r.outcome)).toEqual(["skipped"]);
    expect(h.state.mails).toEqual([]);
  });

  it("says which run held the spreadsheet when the lock's holder is known", () => {
    const messages: Record<string, string> = {};
    for (const holder of ["outbox", "form", "refresh", null] as const) {
      const h = harness(3);
      h.state.locked = true;
      const ports = h.ports();
      runRefresh("schedule", { ...ports, lock: { ...ports.lock, holder: () => holder } });
      messages[String(holder)] = loadHistory(h.doc, h.world.now)[0]?.message ?? "";
    }
    expect(messages).toEqual({
      outbox: "An Outbox run was using the spreadsheet; this refresh was skipped.",
      form: "A change from the Fund sidebar was being saved; this refresh was skipped.",
      refresh: "Another refresh was running; this one was skipped.",
      null: "Another refresh was running; this one was skipped.",
    });
  });

  it("keeps a continuation that met a held lock and tries again", () => {
    const h = harness(30, 12_000);
    runRefresh("menu", h.ports());
    h.state.locked = true;
    expect(runRefresh("continuation", h.ports()).outcome).toBe("skipped");
    expect(h.state.followUps).toBe(2);
    h.state.locked = false;
    while (loadContinuation(h.doc)) runRefresh("continuation", h.ports());
    expect(h.refresh.fetched).toHaveLength(30);
    expect(new Set(h.refresh.fetched).size).toBe(30);
  });

  it("refuses to start a refresh that cannot finish within today's quota, and tells the owner", () => {
    const h = harness(5);
    saveRun(h.doc, {
      id: "prev",
      source: "menu",
      user: "ana",
      startedAt: h.world.now - 3_600_000,
      endedAt: h.world.now - 3_500_000,
      refreshed: ["reports"],
      records: 50,
      calls: 500,
      outcome: "ok",
      message: "",
    });
    h.state.used = 19_500;
    const result = runRefresh("schedule", h.ports());
    expect(result.outcome).toBe("refused");
    if (result.outcome !== "nothing") {
      expect(result.run.message).toBe(
        "Not started: this refresh needs about 550 calls and only 500 of the 20000 UrlFetch calls allowed in 24 hours are left.",
      );
    }
    expect(h.refresh.fetched).toEqual([]);
    expect(h.state.mails.map((m) => m.outcome)).toEqual(["refused"]);
    h.state.used = 19_000;
    expect(runRefresh("menu", h.ports()).outcome).toBe("ok");
  });

  it("records a failure without the token, e-mails only for unattended runs, and starts over next time", () => {
    const h = harness(30, 12_000);
    runRefresh("schedule", h.ports());
    h.refresh.failOn(12);
    const failed = runRefresh("continuation", h.ports());
    expect(failed.outcome).toBe("failed");
    if (failed.outcome !== "nothing")
      expect(failed.run.message).toBe("Request failed: Bearer [hidden] refused");
    expect(JSON.stringify([...h.doc.data.values()])).not.toContain("secret-token");
    expect(h.state.mails).toHaveLength(1);
    expect(loadContinuation(h.doc)).toBeNull();
    runRefresh("menu", h.ports());
    expect(h.state.mails).toHaveLength(1);
  });

  it("records a failure of the service in plain words first, its technical text after, in the run's language", () => {
    const h = harness(30, 12_000);
    const ports = { ...h.ports(), words: runWords("es") };
    ports.refresh = {
      settingsFingerprint: () => "v1",
      run: () => {
        throw new HttpError("getFunds", 503, "down", "unknown");
      },
    };
    const failed = runRefresh("schedule", ports);
    expect(failed.outcome).toBe("failed");
    if (failed.outcome !== "nothing")
      expect(failed.run.message).toBe(
        "El servicio no está respondiendo en este momento. Las hojas conservan sus datos anteriores. Intente de nuevo en unos minutos.\n\nDetalles: getFunds: el servicio respondió HTTP 503: down",
      );
  });

  it("records a refresh that cannot be set up as failed and keeps the stored position", () => {
    const h = harness(30, 12_000);
    runRefresh("schedule", h.ports());
    const broken = h.ports();
    broken.refresh = {
      settingsFingerprint: () => {
        throw new Error("No access token is saved for you: enter it in Settings.");
      },
      run: () => {
        throw new Error("not reached");
      },
    };
    const result = runRefresh("continuation", broken);
    expect(result.outcome).toBe("failed");
    expect(h.state.mails.map((m) => m.message)).toEqual([
      "No access token is saved for you: enter it in Settings.",
    ]);
    expect(loadContinuation(h.doc)?.cursor).toEqual({ page: 11 });
    expect(h.state.locked).toBe(false);
  });

  it("drops a continuation made under other settings", () => {
    const h = harness(30, 12_000);
    runRefresh("menu", h.ports());
    h.refresh.setFingerprint("v2");
    expect(runRefresh("continuation", h.ports()).outcome).toBe("nothing");
    expect(loadContinuation(h.doc)).toBeNull();
  });

  it("continues only the position the user stored, not one another editor wrote in their name", () => {
    const h = harness(30, 12_000);
    expect(runRefresh("schedule", h.ports()).outcome).toBe("continued");
    const stored = loadContinuation<{ page: number }>(h.doc);
    expect(stored?.cursor).toEqual({ page: 11 });
    // Another editor writes a position of their choosing, with this user's key and the same settings.
    saveContinuation(
      h.doc,
      { ...(stored as Continuation<{ page: number }>), cursor: { page: 30 }, calls: 10_000 },
      "forged",
    );
    expect(runRefresh("continuation", h.ports()).outcome).toBe("nothing");
    // The scheduled run starts the refresh again rather than go on from there.
    expect(runRefresh("schedule", h.ports()).outcome).toBe("continued");
    expect(h.refresh.fetched.slice(10)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // Its own position goes on.
    expect(runRefresh("continuation", h.ports()).outcome).toBe("continued");
    expect(h.refresh.fetched.slice(20)).toEqual(Array.from({ length: 10 }, (_, i) => i + 11));
  });

  it("settles a run left running by a killed execution", () => {
    const h = harness(3);
    saveRun(h.doc, {
      id: "killed",
      source: "schedule",
      user: "ana",
      startedAt: h.world.now - 3_600_000,
      endedAt: null,
      refreshed: [],
      records: 0,
      calls: 0,
      outcome: "running",
      message: "",
    });
    expect(loadHistory(h.doc, h.world.now)[0]).toMatchObject({ id: "killed", outcome: "failed" });
  });
});

describe("a run bigger than the last one (another editor's settings or stored position)", () => {
  it("stops an unattended run at 80% of the user's day and one by hand at all of it, and continues later", () => {
    // Page size 1, a long window: pages the last refresh's estimate knows nothing of.
    const h = harness(30, 10_000_000);
    h.state.used = 16_000 - 5;
    const scheduled = runRefresh("schedule", h.ports());
    expect(scheduled.outcome).toBe("continued");
    expect(h.refresh.fetched).toHaveLength(5);
    expect(h.state.used).toBe(16_000);
    if (scheduled.outcome !== "nothing")
      expect(scheduled.run.message).toMatch(
        /^Stopped at 16000 of the 20000 UrlFetch calls allowed in 24 hours: a scheduled run stops at 80%.* The next scheduled run continues where it stopped\.$/,
      );
    // The quota stopped it, not the time limit.
    if (scheduled.outcome !== "nothing") expect(scheduled.run.message).not.toContain("time limit");
    expect(loadContinuation(h.doc)?.cursor).toEqual({ page: 6 });
    // No follow-up a minute later (it would stop at once, again and again all day): the next
    // scheduled run goes on.
    expect(h.state.followUps).toBe(0);

    h.state.used = 20_000 - 10;
    expect(runRefresh("menu", h.ports()).outcome).toBe("continued");
    expect(h.refresh.fetched).toHaveLength(15);
    expect(h.state.used).toBe(20_000);

    // A new day: the same refresh goes on where it stopped, no page twice.
    h.state.used = 0;
    expect(runRefresh("schedule", h.ports()).outcome).toBe("ok");
    expect(h.refresh.fetched).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("a continuation already past 80% of the day does nothing and asks for no follow-up", () => {
    const h = harness(30, 12_000);
    expect(runRefresh("schedule", h.ports()).outcome).toBe("continued");
    expect(h.state.followUps).toBe(1);
    h.state.used = 17_000;
    expect(runRefresh("continuation", h.ports()).outcome).toBe("continued");
    expect(h.refresh.fetched).toHaveLength(10);
    expect(h.state.followUps).toBe(1);
  });
});

describe("runRefresh of a document of several companies", () => {
  it("records a run that left a company out as ok, listing it, and never shows any of the user's tokens", () => {
    const h = harness(3, 60_000);
    const run = h.refresh.engine.run.bind(h.refresh.engine);
    h.refresh.engine.run = (cursor, shouldStop) => ({
      ...run(cursor, shouldStop),
      notes: ["Beta was not refreshed: no access token of yours (tok-beta-5678 unused)."],
    });
    const ports = { ...h.ports(), secret: () => ["tok-alpha-1234", "tok-beta-5678"] };
    expect(runRefresh("schedule", ports).outcome).toBe("ok");
    const [last] = loadHistory(h.doc, h.world.now);
    expect(last).toMatchObject({ outcome: "ok", records: 30 });
    expect(last?.message).toBe("Beta was not refreshed: no access token of yours ([hidden] unused).");
    expect(h.state.mails).toEqual([]);
  });

  it("hides every token in a failed run's message and mail", () => {
    const h = harness(3, 60_000);
    h.refresh.engine.run = () => {
      throw new Error(
        "Beta was not refreshed; its rows were left as they were: tok-beta-5678 tok-alpha-1234",
      );
    };
    const ports = { ...h.ports(), secret: () => ["tok-alpha-1234", "tok-beta-5678"] };
    expect(runRefresh("schedule", ports).outcome).toBe("failed");
    const [last] = loadHistory(h.doc, h.world.now);
    expect(last?.message).toContain("Beta was not refreshed");
    expect(JSON.stringify([last, h.state.mails])).not.toMatch(/tok-(alpha|beta)/);
  });
});
