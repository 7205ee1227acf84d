import { afterAll, describe, expect, it } from "vitest";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator({ executionBudgetMs: 60_000 });
afterAll(() => em.close());

describe("google.script.run rules", () => {
  it("calls top-level functions but not those ending in _", () => {
    expect(em.run("echo", [{ a: [1, "x", null] }])).toEqual({ a: [1, "x", null] });
    expect(() => em.run("hidden_")).toThrow("google.script.run.hidden_ is not a function");
    expect(em.run("hidden_", [], { as: "menu" })).toBe("private");
    expect(() => em.run("missing", [], { as: "menu" })).toThrow("Script function not found: missing");
  });
  it("fails a call with a Date or a function argument, turns undefined in arrays into null", () => {
    expect(() => em.run("echo", [new Date()])).toThrow("Failed due to illegal value in property: 0");
    expect(() => em.run("echo", [{ when: new Date() }])).toThrow(
      "Failed due to illegal value in property: when",
    );
    expect(() => em.run("echo", [() => 1])).toThrow("Failed due to illegal value in property: 0");
    expect(em.run("echo", [[1, undefined, 3]])).toEqual([1, null, 3]);
    expect(em.run("echo", [{ a: 1, b: undefined }])).toEqual({ a: 1 });
  });
  it("hands the page null when the result holds a Date", () => {
    expect(inScript(em, `return { at: new Date() };`)).toBeNull();
  });
  it("starts every execution with fresh globals, as Apps Script does", () => {
    expect(em.run("globalCounter")).toBe(1);
    expect(em.run("globalCounter")).toBe(1);
  });
});

describe("time", () => {
  it("Date and Date.now() follow the emulator clock; Utilities.sleep advances it without waiting", () => {
    const before = em.clock.now();
    const started = Date.now();
    const seen = inScript(
      em,
      `var a = Date.now(); Utilities.sleep(30000); return [a, new Date().getTime(), new Date() instanceof Date];`,
    ) as [number, number, boolean];
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(30_000);
    expect(seen[0]).toBeGreaterThanOrEqual(before);
    expect(seen[2]).toBe(true);
    em.advanceTime(86_400_000);
    expect(inScript(em, `return Date.now();`)).toBeGreaterThanOrEqual(before + 86_400_000);
  });
  it("starts its clock at startAt when given, and runs on from there", () => {
    const start = fixtureEmulator({ startAt: "2026-06-15T12:00:00Z" });
    const seen = inScript(start, `return new Date().getTime();`) as number;
    expect(seen).toBeGreaterThanOrEqual(Date.parse("2026-06-15T12:00:00Z"));
    expect(seen).toBeLessThan(Date.parse("2026-06-15T12:01:00Z"));
    expect(() => fixtureEmulator({ startAt: "mid-June" })).toThrow(/startAt/);
  });
  it("stops a run past its budget with Apps Script's message, even if the script catches it", () => {
    expect(() =>
      inScript(
        em,
        `for (var i = 0; i < 100; i++) { try { Utilities.sleep(5000); } catch (e) {} } return "survived";`,
        null,
        {
          budgetMs: 20_000,
        },
      ),
    ).toThrow("Exceeded maximum execution time");
  });
  it("stops a pure CPU loop too", () => {
    expect(() => em.run("spin", [], { as: "menu", budgetMs: 200 })).toThrow(
      "Exceeded maximum execution time",
    );
  });
  it("stops at an exact service call when asked", () => {
    expect(() =>
      inScript(
        em,
        `var p = PropertiesService.getUserProperties(); p.setProperty("a", "1"); p.setProperty("b", "2");`,
        null,
        {
          stopAt: { serviceCall: 3 },
        },
      ),
    ).toThrow("Exceeded maximum execution time");
    expect(em.userPropertiesOf("ana@example.com").toObject()).toMatchObject({ a: "1" });
    expect(em.userPropertiesOf("ana@example.com").toObject().b).toBeUndefined();
    // The call it was stopped at counts; the last one made is the one before it, and the calls
    // made are listed in order, the one it was stopped at not among them.
    expect(em.lastEnded).toEqual({
      serviceCalls: 3,
      lastCall: "Properties.setProperty",
      calls: ["PropertiesService.getUserProperties", "Properties.setProperty"],
    });
    expect(() =>
      inScript(em, `PropertiesService.getUserProperties().getProperty("a"); Session.getActiveUser();`, null, {
        stopAt: { serviceCall: 3 },
      }),
    ).toThrow("Exceeded maximum execution time");
    expect(em.lastEnded).toMatchObject({ serviceCalls: 3, lastCall: "Properties.getProperty" });
  });
});

describe("users, Session and properties", () => {
  it("keeps user properties per user and document properties shared", () => {
    inScript(
      em,
      `PropertiesService.getUserProperties().setProperty("token", "ana-secret"); PropertiesService.getDocumentProperties().setProperty("base", "x");`,
    );
    const ben = inScript(
      em,
      `return [PropertiesService.getUserProperties().getProperty("token"), PropertiesService.getDocumentProperties().getProperty("base")];`,
      null,
      { user: "ben@example.com" },
    );
    expect(ben).toEqual([null, "x"]);
  });
  it("stores strings only and enforces 9 KB per value and 500 KB per store", () => {
    expect(
      inScript(
        em,
        `var p = PropertiesService.getScriptProperties(); p.setProperty("n", 5); return typeof p.getProperty("n");`,
      ),
    ).toBe("string");
    expect(() =>
      inScript(em, `PropertiesService.getScriptProperties().setProperty("big", new Array(9300).join("x"));`),
    ).toThrow("Argument too large: value");
    expect(() =>
      inScript(
        em,
        `var p = PropertiesService.getScriptProperties(); for (var i = 0; i < 60; i++) p.setProperty("k" + i, new Array(9000).join("y"));`,
      ),
    ).toThrow("You have exceeded the property storage quota. Please remove some properties and try again.");
  });
  it("hides the email of consumer accounts but gives each user a stable temporary key", () => {
    const consumer = inScript(
      em,
      `return [Session.getActiveUser().getEmail(), Session.getTemporaryActiveUserKey()];`,
      null,
      { user: "" },
    ) as string[];
    const ana = inScript(
      em,
      `return [Session.getActiveUser().getEmail(), Session.getTemporaryActiveUserKey()];`,
    ) as string[];
    expect(consumer[0]).toBe("");
    expect(ana[0]).toBe("ana@example.com");
    expect(consumer[1]).not.toBe(ana[1]);
    expect(inScript(em, `return Session.getTemporaryActiveUserKey();`)).toBe(ana[1]);
  });
  it("refuses unknown users", () => {
    expect(() => em.run("echo", [1], { user: "eve@example.com" })).toThrow('Unknown user "eve@example.com"');
  });
});

describe("locks and cache", () => {
  it("waitLock fails with Google's message while another execution holds the document lock", () => {
    const held = em.holdLock("document");
    expect(() => inScript(em, `LockService.getDocumentLock().waitLock(10000);`)).toThrow(
      "Lock timeout: another process was holding the lock for too long.",
    );
    expect(inScript(em, `return LockService.getDocumentLock().tryLock(1000);`)).toBe(false);
    held.release();
    expect(
      inScript(
        em,
        `var l = LockService.getDocumentLock(); var ok = l.tryLock(1000); return [ok, l.hasLock()];`,
      ),
    ).toEqual([true, true]);
    // Released when that execution ended.
    expect(inScript(em, `return LockService.getDocumentLock().tryLock(0);`)).toBe(true);
  });
  it("keeps each Lock object independent: a second object of the same execution neither sees nor shares the first's hold", () => {
    const before = em.ownLockWaits().length;
    expect(
      inScript(
        em,
        `var a = LockService.getDocumentLock(); var b = LockService.getDocumentLock();
         var took = a.tryLock(0); var second = b.tryLock(1000);
         var seen = [a.hasLock(), b.hasLock()]; b.releaseLock(); return [took, second, seen, a.hasLock()];`,
      ),
    ).toEqual([true, false, [true, false], true]);
    expect(em.ownLockWaits().slice(before)).toEqual([{ key: "document", execution: expect.any(Number) }]);
  });
  it("releaseLock lets go before the execution ends", () => {
    expect(
      inScript(
        em,
        `var l = LockService.getScriptLock(); l.waitLock(100); var had = l.hasLock(); l.releaseLock(); return [had, l.hasLock()];`,
      ),
    ).toEqual([true, false]);
  });
  it("tryLock waits (on the emulator clock) for a holder that lets go in time", () => {
    em.holdLock("script", undefined, 3_000);
    expect(inScript(em, `return LockService.getScriptLock().tryLock(5000);`)).toBe(true);
  });
  it("keeps user locks per user", () => {
    const held = em.holdLock("user", "ben@example.com");
    expect(inScript(em, `return LockService.getUserLock().tryLock(0);`)).toBe(true);
    expect(
      inScript(em, `return LockService.getUserLock().tryLock(0);`, null, { user: "ben@example.com" }),
    ).toBe(false);
    held.release();
  });
  it("expires cache entries on the emulator clock", () => {
    inScript(em, `CacheService.getUserCache().put("k", "v", 60);`);
    expect(inScript(em, `return CacheService.getUserCache().get("k");`)).toBe("v");
    expect(
      inScript(em, `return CacheService.getUserCache().get("k");`, null, { user: "ben@example.com" }),
    ).toBeNull();
    em.advanceTime(61_000);
    expect(inScript(em, `return CacheService.getUserCache().get("k");`)).toBeNull();
  });
});

describe("AuthMode", () => {
  it("lets onOpen in AuthMode.NONE build the menu but nothing else", () => {
    expect(em.open({ authMode: "NONE" }).ok).toBe(true);
    expect(em.ui.addonMenuItems()).toEqual([
      { label: "Refresh funds", function: "refreshFunds" },
      { label: "Settings", function: "showSettings" },
    ]);
    expect(() =>
      inScript(em, `PropertiesService.getUserProperties();`, null, { as: "simple", authMode: "NONE" }),
    ).toThrow("You do not have permission to call PropertiesService.getUserProperties");
  });
  it("refuses UrlFetch in simple triggers", () => {
    expect(() => inScript(em, `UrlFetchApp.fetch("http://127.0.0.1:9/x");`, null, { as: "simple" })).toThrow(
      "You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request",
    );
  });
  it("refuses services whose scope the manifest does not list", () => {
    expect(() => inScript(em, `MailApp.sendEmail("a@example.com", "s", "b");`)).toThrow(
      "Required permissions: https://www.googleapis.com/auth/script.send_mail",
    );
  });
});

describe("triggers", () => {
  it("creates time-driven triggers with Google's allowed values, per user, at most 20", () => {
    expect(() =>
      inScript(em, `ScriptApp.newTrigger("scheduledRefresh").timeBased().everyHours(3).create();`),
    ).toThrow("everyHours(3)");
    expect(() =>
      inScript(em, `ScriptApp.newTrigger("scheduledRefresh").timeBased().everyMinutes(7);`),
    ).toThrow("everyMinutes(7)");
    const uid = inScript(
      em,
      `return ScriptApp.newTrigger("scheduledRefresh").timeBased().atHour(9).everyDays(1).create().getUniqueId();`,
    );
    const mine = inScript(
      em,
      `return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).map(function (t) { return [t.getHandlerFunction(), t.getUniqueId(), String(t.getEventType())]; });`,
    );
    expect(mine).toEqual([["scheduledRefresh", uid, "CLOCK"]]);
    expect(
      inScript(em, `return ScriptApp.getUserTriggers(SpreadsheetApp.getActive()).length;`, null, {
        user: "ben@example.com",
      }),
    ).toBe(0);
    // An add-on gets one time-driven trigger per user per document.
    expect(() =>
      inScript(em, `ScriptApp.newTrigger("scheduledRefresh").timeBased().everyHours(1).create();`),
    ).toThrow("only one trigger of each type");
  });
  it("refuses an add-on clock trigger that would run sooner than an hour, a one-off after(ms) included", () => {
    const fresh = fixtureEmulator();
    try {
      for (const schedule of ["everyMinutes(30)", "after(60 * 1000)", "after(59 * 60 * 1000)"]) {
        expect(() =>
          inScript(fresh, `ScriptApp.newTrigger("continueRefresh").timeBased().${schedule}.create();`),
        ).toThrow("Add-ons can't create time-based triggers that run more often than once per hour.");
      }
      expect(
        inScript(
          fresh,
          `return ScriptApp.newTrigger("continueRefresh").timeBased().after(60 * 60 * 1000).create().getHandlerFunction();`,
        ),
      ).toBe("continueRefresh");
    } finally {
      void fresh.close();
    }
  });
  it("fires due triggers as their creator with the event object, and never fires disabled ones", () => {
    const uid = em.listTriggers()[0]!.uid;
    expect(em.fireTimeTriggers({ all: true })).toMatchObject([{ uid, ok: true, user: "ana@example.com" }]);
    const last = JSON.parse(em.userPropertiesOf("ana@example.com").toObject().lastEvent!);
    expect(last).toEqual({ uid, authMode: "FULL", fullMode: true, effective: "ana@example.com" });
    expect(em.fireTimeTriggers()).toEqual([]);
    em.advanceTime(25 * 3_600_000);
    expect(em.fireTimeTriggers()).toHaveLength(1);
    em.disableTrigger(uid);
    em.advanceTime(25 * 3_600_000);
    expect(em.fireTimeTriggers({ all: true })).toEqual([]);
    expect(em.listTriggers()).toHaveLength(1);
  });
  it("fires a one-off after(ms) trigger once its delay has passed, then forgets it", () => {
    const once = fixtureEmulator({ addon: false });
    try {
      inScript(
        once,
        `ScriptApp.newTrigger("scheduledRefresh").timeBased().after(10 * 60 * 1000).create();`,
        null,
        {
          user: "ben@example.com",
        },
      );
      expect(once.fireTimeTriggers()).toEqual([]);
      once.advanceTime(10 * 60 * 1000 + 1);
      expect(once.fireTimeTriggers()).toMatchObject([
        { handler: "scheduledRefresh", user: "ben@example.com", ok: true },
      ]);
      expect(once.listTriggers()).toEqual([]);
      expect(once.userPropertiesOf("ben@example.com").toObject().runs).toBe("1");
    } finally {
      void once.close();
    }
  });
  it("has no Ui in trigger runs", () => {
    expect(() => inScript(em, `SpreadsheetApp.getUi();`, null, { as: "trigger" })).toThrow(
      "Cannot call SpreadsheetApp.getUi() from this context.",
    );
  });
  it("limits each user to 20 triggers", () => {
    const many = fixtureEmulator({ addon: false });
    try {
      expect(() =>
        inScript(
          many,
          `for (var i = 0; i < 21; i++) ScriptApp.newTrigger("scheduledRefresh").timeBased().everyHours(1).create();`,
        ),
      ).toThrow(
        "This script has too many triggers. Triggers must be deleted from the script before more can be added.",
      );
      expect(many.listTriggers()).toHaveLength(20);
      expect(
        inScript(
          many,
          `var t = ScriptApp.getProjectTriggers(); ScriptApp.deleteTrigger(t[0]); return ScriptApp.getProjectTriggers().length;`,
        ),
      ).toBe(19);
    } finally {
      void many.close();
    }
  });
});

describe("Utilities, HtmlService, logging", () => {
  it("computes digests, base64 and formats dates", () => {
    const r = inScript(
      em,
      `var d = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, "abc");
       return [d.length, d[0], Utilities.base64Encode("héllo"), Utilities.newBlob(Utilities.base64Decode("aMOpbGxv")).getDataAsString(),
         Utilities.formatDate(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), "UTC", "yyyy-MM-dd HH:mm:ss"), Utilities.getUuid().length];`,
    );
    expect(r).toEqual([32, -70, "aMOpbGxv", "héllo", "2024-01-02 03:04:05", 36]);
  });
  it("gzips and ungzips blobs, and refuses to ungzip what is not gzip", () => {
    const r = inScript(
      em,
      `var packed = Utilities.gzip(Utilities.newBlob("héllo ".repeat(50)));
       var b64 = Utilities.base64Encode(packed.getBytes());
       var back = Utilities.ungzip(Utilities.newBlob(Utilities.base64Decode(b64), "application/x-gzip"));
       return [packed.getContentType(), packed.getBytes().length < 300, back.getDataAsString().slice(0, 12)];`,
    );
    expect(r).toEqual(["application/x-gzip", true, "héllo héllo "]);
    expect(() => inScript(em, `Utilities.ungzip(Utilities.newBlob("plain text"));`)).toThrow(
      "Could not decompress gzip.",
    );
  });
  it("refuses to ungzip gzip bytes in a blob without the gzip content type", () => {
    // The add-on's strings are unpacked this way (src/gas/runtime.ts): dropping the type fails here.
    const source = (type: string) =>
      `var bytes = Utilities.gzip(Utilities.newBlob("hola")).getBytes();
       return Utilities.ungzip(Utilities.newBlob(bytes${type})).getDataAsString();`;
    expect(inScript(em, source(', "application/x-gzip"'))).toBe("hola");
    expect(() => inScript(em, source(""))).toThrow("Could not decompress gzip.");
    expect(() => inScript(em, source(', "application/octet-stream"'))).toThrow("Could not decompress gzip.");
  });
  it("evaluates templates with escaping and raw scriptlets, and keeps the sidebar", () => {
    em.run("showSettings", [], { as: "menu" });
    expect(em.ui.sidebar?.title).toBe("Settings");
    expect(em.ui.sidebar?.width).toBe(300);
    expect(em.ui.sidebar?.html).toContain("Hello &#60;Ana &#38; Co&#62;, raw <b>bold</b>");
    expect(em.ui.sidebar?.html).toContain("<li>one</li><li>two</li>");
    expect(() => inScript(em, `HtmlService.createHtmlOutputFromFile("plain.html");`)).toThrow(
      "No HTML file named plain.html was found.",
    );
    expect(inScript(em, `return HtmlService.createHtmlOutputFromFile("plain").getContent();`)).toContain(
      "Plain page",
    );
  });
  it("captures console and Logger output with the user", () => {
    inScript(em, `console.log("fund %s moved", 42); Logger.log({ a: 1 }); console.error("bad");`);
    const tail = em.logs.slice(-3).map((l) => [l.level, l.message, l.user]);
    expect(tail).toEqual([
      ["log", "fund 42 moved", "ana@example.com"],
      ["info", '{"a":1}', "ana@example.com"],
      ["error", "bad", "ana@example.com"],
    ]);
  });
  it("has no setTimeout, fetch, URL or TextEncoder in the script's globals", () => {
    expect(
      inScript(
        em,
        `return [typeof setTimeout, typeof fetch, typeof URL, typeof TextEncoder, typeof require];`,
      ),
    ).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined"]);
  });
});

describe("promises", () => {
  it("runs promise jobs within the execution, as its own service calls", () => {
    expect(em.run("asyncWrite")).toBe("scheduled");
    expect(em.userPropertiesOf("ana@example.com").toObject().fromPromise).toBe("yes");
  });
});

describe("the script's Date keeps the manifest's time zone (America/Santiago here)", () => {
  it("reads local fields in that zone whatever the process's zone", () => {
    const r = inScript(
      em,
      `var d = new Date(Date.UTC(2024, 0, 15, 2, 30));
       return [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getDay(), d.getTimezoneOffset(), String(d)];`,
    );
    // 02:30 UTC on 15 January is 23:30 on the 14th in Santiago (UTC-3 in summer).
    expect(r).toEqual([2024, 0, 14, 23, 30, 0, 180, "Sun Jan 14 2024 23:30:00 GMT-0300 (America/Santiago)"]);
  });
  it("builds dates from local fields and ISO text without offset in that zone", () => {
    const r = inScript(
      em,
      `var a = new Date(2024, 6, 1, 9, 0); var b = new Date("2024-07-01T09:00:00"); var c = new Date("2024-07-01T09:00:00Z");
       var d = new Date(2024, 0, 31); d.setMonth(1); d.setHours(25);
       return [a.toISOString(), b.toISOString(), c.toISOString(), d.toISOString(), Date.parse("2024-07-01T09:00")];`,
    );
    // Santiago is UTC-4 in July; 31 Jan + 1 month overflows to 2 March, then 25 h is 01:00 the next day.
    expect(r).toEqual([
      "2024-07-01T13:00:00.000Z",
      "2024-07-01T13:00:00.000Z",
      "2024-07-01T09:00:00.000Z",
      "2024-03-03T04:00:00.000Z",
      Date.UTC(2024, 6, 1, 13, 0),
    ]);
  });
});
