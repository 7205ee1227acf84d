/**
 * Where Google is stricter than an emulation that lets things through: Session's users need the
 * userinfo.email scope, Properties reads and writes have a daily quota per user, and UrlFetch
 * refuses a URL longer than 2 KB (docs/real-apps-script.md gives each figure and its source).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { MAX_URL_BYTES } from "../../dev/emulator/url-fetch";
import { echoServerPerFile, FIXTURE_DIST, fixtureEmulator, inScript } from "./helpers";

const EMAIL_SCOPE = "https://www.googleapis.com/auth/userinfo.email";
const echo = echoServerPerFile();
const emulators: Emulator[] = [];
const folders: string[] = [];

afterAll(async () => {
  for (const em of emulators) await em.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function emulator(options: Parameters<typeof fixtureEmulator>[0] = {}): Emulator {
  const em = fixtureEmulator(options);
  emulators.push(em);
  return em;
}

/** The fixture script with a manifest that lists every scope it had but userinfo.email. */
function distWithoutEmailScope(): string {
  const folder = mkdtempSync(join(tmpdir(), "no-email-scope-"));
  folders.push(folder);
  cpSync(FIXTURE_DIST, folder, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(FIXTURE_DIST, "appsscript.json"), "utf8"));
  manifest.oauthScopes = manifest.oauthScopes.filter((scope: string) => scope !== EMAIL_SCOPE);
  writeFileSync(join(folder, "appsscript.json"), JSON.stringify(manifest));
  return folder;
}

describe("Session without the userinfo.email scope", () => {
  it("refuses getActiveUser() and getEffectiveUser(), as Google does; the locale needs no scope", () => {
    const em = emulator({ distDir: distWithoutEmailScope() });
    for (const getter of ["getActiveUser", "getEffectiveUser"]) {
      expect(() => inScript(em, `return Session.${getter}().getEmail();`)).toThrow(
        `You do not have permission to call Session.${getter}. Required permissions: ${EMAIL_SCOPE}`,
      );
    }
    expect(inScript(em, `return Session.getActiveUserLocale();`)).toBe("en_US");
  });
  it("gives both users once the manifest lists it", () => {
    const em = emulator();
    expect(inScript(em, `return Session.getEffectiveUser().getEmail();`)).toBe("ana@example.com");
  });
});

describe("the Properties quota per day", () => {
  const readMany = `var p = PropertiesService.getUserProperties(); for (var i = 0; i < args.n; i++) p.getProperty("k"); return true;`;
  it("refuses a consumer account's read past 50,000 in 24 hours, counting every store and write", () => {
    const em = emulator();
    // "" is the fixture's consumer account.
    expect(inScript(em, readMany, { n: 49_997 }, { user: "" })).toBe(true);
    inScript(
      em,
      `PropertiesService.getDocumentProperties().setProperty("a", "1"); PropertiesService.getScriptProperties().getKeys();`,
      null,
      { user: "" },
    );
    expect(em.propertiesToday("")).toBe(49_999);
    expect(() => inScript(em, readMany, { n: 2 }, { user: "" })).toThrow(
      "Service invoked too many times for one day: properties.",
    );
    // Another user's quota is their own; the window frees 24 hours after its first call.
    expect(inScript(em, readMany, { n: 10 }, { user: "ana@example.com" })).toBe(true);
    em.advanceTime(24 * 3_600_000);
    expect(inScript(em, readMany, { n: 10 }, { user: "" })).toBe(true);
  });
  it("gives a Workspace account 500,000", () => {
    const em = emulator();
    expect(inScript(em, readMany, { n: 50_001 }, { user: "ana@example.com" })).toBe(true);
    const small = emulator({ dailyPropertiesQuota: 3 });
    expect(() => inScript(small, readMany, { n: 4 })).toThrow(
      "Service invoked too many times for one day: properties.",
    );
  });
});

describe("UrlFetch's URL length", () => {
  const fetchUrl = `return UrlFetchApp.fetch(args.url).getResponseCode();`;
  /** `echo.base`/echo?q=… padded to `bytes` bytes of UTF-8. */
  function urlOf(bytes: number, tail = ""): string {
    const head = `${echo.base}/echo?q=`;
    return head + "a".repeat(bytes - Buffer.byteLength(head + tail, "utf8")) + tail;
  }
  it("sends a URL of 2 KB and refuses one byte more (Google's quotas page: 2 KB)", () => {
    const em = emulator();
    expect(MAX_URL_BYTES).toBe(2048);
    expect(inScript(em, fetchUrl, { url: urlOf(2048) })).toBe(200);
    expect(() => inScript(em, fetchUrl, { url: urlOf(2049) })).toThrow("URL Length Exceeded");
    // Shorter than the 2,082 characters public reports give, and counted in bytes.
    expect(() => inScript(em, fetchUrl, { url: urlOf(2080) })).toThrow("URL Length Exceeded");
    expect(() => inScript(em, fetchUrl, { url: urlOf(2050, "é") })).toThrow("URL Length Exceeded");
    expect(em.urlFetchToday()).toBe(1);
  });
});
