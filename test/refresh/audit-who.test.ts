/**
 * Who the audit names, and where the access token never goes: a consumer account (Google hides
 * its email, the emulator's user "") refreshing by hand is recorded by its temporary key; a
 * scheduled run by "schedule (<creator>)"; the token shows in no cell, note or formula, in no
 * document or script property, in no alert or mail, and in no console or Logger line, also
 * as the control API's GET /control/logs serves them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directTarget, type RunningControlServer, startControlServer } from "../../dev/emulator/control";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix, storeToken } from "../../dev/emulator/settings";
import { SETTINGS_FORM_KEY, TOKEN_KEY } from "../../src/app/refresh";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

const CONSUMER = "";
const FORM = { pageSize: "5", windowMode: "range", windowFrom: "2023-01-01", windowTo: "2024-06-30" };

let s: Setup;
let em: Emulator;
let control: RunningControlServer;

beforeAll(async () => {
  const dist = privateBuild();
  s = await setUp({ distDir: dist, funds: 6, reports: 15, triggerSeesSpreadsheet: true });
  em = createEmulator({
    triggerSeesSpreadsheet: true,
    distDir: dist,
    users: [CONSUMER, "ben@example.com"],
    timeZone: "America/Santiago",
    urlFetchAllowlist: [servicePrefix(s.sandbox.url)],
  });
  storeToken(em, CONSUMER, s.sandbox.token, s.sandbox.url);
  storeToken(em, "ben@example.com", s.sandbox.token, s.sandbox.url);
  em.documentPropertiesData.values.set(
    SETTINGS_FORM_KEY,
    JSON.stringify({ baseUrl: s.sandbox.url, ...FORM }),
  );
  control = await startControlServer({ target: directTarget(em), port: 0 });
}, 120_000);

afterAll(async () => {
  await control?.close();
  await em?.close();
  await s?.close();
});

function auditRows(): { users: unknown[]; sources: unknown[]; count: number } {
  const audit = sheetOf(em, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
  const rows = audit.values.slice(1);
  const user = audit.header.indexOf("User");
  const source = audit.header.indexOf("Source");
  expect(user).toBeGreaterThanOrEqual(0);
  expect(source).toBeGreaterThanOrEqual(0);
  return { users: rows.map((r) => r[user]), sources: rows.map((r) => r[source]), count: rows.length };
}

function refresh(user: string): void {
  const out = em.tryRun("refreshAll", [], { as: "menu", user });
  expect(out).toMatchObject({ ok: true });
}

describe("the audit's User column", () => {
  let consumerKey = "";

  it("names a consumer account by its temporary key, the same on every run", () => {
    refresh(CONSUMER);
    const first = auditRows();
    expect(first.count).toBeGreaterThan(0);
    const keys = new Set(first.users);
    expect(keys.size).toBe(1);
    consumerKey = String([...keys][0]);
    // Not empty, not a placeholder: Session.getTemporaryActiveUserKey()'s shape.
    expect(consumerKey).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(new Set(first.sources)).toEqual(new Set(["menu"]));

    refresh(CONSUMER);
    const second = auditRows();
    expect(second.count).toBeGreaterThan(first.count);
    expect(new Set(second.users.slice(first.count))).toEqual(new Set([consumerKey]));
  });

  it("names a user whose email is known by the email, not by a key", () => {
    const before = auditRows().count;
    refresh("ben@example.com");
    const after = auditRows();
    expect(after.count).toBeGreaterThan(before);
    expect(new Set(after.users.slice(before))).toEqual(new Set(["ben@example.com"]));
  });

  it("names a scheduled run 'schedule (<creator>)', the creator being the consumer's key", () => {
    const saved = em.tryRun("saveSchedule", [{ kind: "hours", every: 1 }], { user: CONSUMER });
    expect(saved).toMatchObject({ ok: true });
    const before = auditRows().count;
    em.advanceTime(2 * 60 * 60 * 1000);
    const fired = em.fireTimeTriggers();
    expect(fired.filter((f) => f.handler === "runScheduledRefresh").map((f) => f.ok)).toEqual([true]);
    const after = auditRows();
    expect(after.count).toBeGreaterThan(before);
    expect(new Set(after.users.slice(before))).toEqual(new Set([`schedule (${consumerKey})`]));
    expect(new Set(after.sources.slice(before))).toEqual(new Set(["schedule"]));
  });
});

describe("the access token", () => {
  beforeAll(() => {
    // Failing refreshes too (a menu run and a scheduled one, with a token the service refuses):
    // their errors go to the audit, the alert, the logs and any mail.
    const token = s.sandbox.token;
    em.userPropertiesOf("ben@example.com").values.set(TOKEN_KEY, `${token}x`);
    em.answers.push("OK");
    const failed = em.tryRun("refreshFunds", [], { as: "menu", user: "ben@example.com" });
    em.userPropertiesOf("ben@example.com").values.set(TOKEN_KEY, token);
    expect(failed.ok).toBe(true);
    em.userPropertiesOf(CONSUMER).values.set(TOKEN_KEY, `${token}x`);
    em.advanceTime(2 * 60 * 60 * 1000);
    const fired = em.fireTimeTriggers();
    em.userPropertiesOf(CONSUMER).values.set(TOKEN_KEY, token);
    expect(fired.map((f) => f.handler)).toEqual(["runScheduledRefresh"]);
    // Both failures reached the audit, with the service's answer.
    const audit = JSON.stringify(sheetOf(em, "Audit")?.values);
    expect(audit.match(/401/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const alert = em.ui.dialogs.at(-1);
    expect(JSON.stringify(alert)).toContain("401");
    expect(JSON.stringify(alert)).not.toContain(token);
  });

  it("is in no cell, note or formula of any sheet", () => {
    const token = s.sandbox.token;
    expect(em.spreadsheet.sheets.length).toBeGreaterThanOrEqual(4);
    let cells = 0;
    for (const sheet of em.spreadsheet.sheets) {
      for (let r = 1; r <= sheet.lastRow(); r++) {
        for (let c = 1; c <= sheet.lastColumn(); c++) {
          const cell = sheet.cell(r, c);
          if (!cell) continue;
          cells++;
          const text = `${String(cell.value)}\u0000${cell.formula ?? ""}\u0000${cell.note ?? ""}`;
          if (text.includes(token)) throw new Error(`the token is in ${sheet.name}!R${r}C${c}`);
        }
      }
    }
    expect(cells).toBeGreaterThan(100);
  });

  it("is in no document or script property, only in the users' own stores", () => {
    const token = s.sandbox.token;
    const document = [...em.documentPropertiesData.values.entries()];
    const script = [...em.scriptPropertiesData.values.entries()];
    expect(document.length).toBeGreaterThan(0);
    for (const [key, value] of [...document, ...script]) {
      expect(`${key}=${value}`, key).not.toContain(token);
    }
    expect(em.userPropertiesOf(CONSUMER).values.get(TOKEN_KEY)).toBe(token);
  });

  it("is in no console or Logger line, nor in what GET /control/logs serves", async () => {
    const token = s.sandbox.token;
    for (const entry of em.logs) expect(JSON.stringify(entry)).not.toContain(token);
    for (const mail of em.mails) expect(JSON.stringify(mail)).not.toContain(token);
    const response = await fetch(`${control.url}/control/logs`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toHaveProperty("executions");
    expect(text).not.toContain(token);
    const ui = await (await fetch(`${control.url}/control/ui`)).text();
    expect(ui).not.toContain(token);
  });
});
