/**
 * UrlFetchApp's redirects and the manifest's allowlist, as Apps Script has them: redirects are
 * followed by default with the request's headers (Authorization included) and not at all with
 * `followRedirects: false`; a URL outside `urlFetchWhitelist` (plus a local test deployment's
 * prefixes) is refused with Apps Script's message and nothing reaches the network, redirect
 * hops included.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../dev/emulator/index";
import { manifestAllows, notAllowedMessage } from "../../dev/emulator/url-fetch";
import { type RecordingServers, startRecordingServers } from "../support/recording-servers";
import { FIXTURE_DIST, fixtureEmulator, inScript } from "./helpers";

const fetchSource = `var r = UrlFetchApp.fetch(args.url, args.options || {});
  return { code: r.getResponseCode(), location: r.getHeaders().Location || "" };`;
const fetchAllSource = `return UrlFetchApp.fetchAll(args.requests).map(function (r) { return r.getResponseCode(); });`;

let servers: RecordingServers;
const dirs: string[] = [];
const emulators: Emulator[] = [];

beforeAll(async () => {
  servers = await startRecordingServers();
});
beforeEach(async () => {
  await servers.clear();
});
afterAll(async () => {
  for (const em of emulators) await em.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await servers.close();
});

/** The fixture script with a manifest of our own. */
function withManifest(manifest: object, options: EmulatorOptions = {}): Emulator {
  const dir = mkdtempSync(join(tmpdir(), "allowlist-"));
  dirs.push(dir);
  for (const f of readdirSync(FIXTURE_DIST))
    if (f !== "appsscript.json") copyFileSync(join(FIXTURE_DIST, f), join(dir, f));
  writeFileSync(
    join(dir, "appsscript.json"),
    JSON.stringify({ timeZone: "America/Santiago", runtimeVersion: "V8", ...manifest }),
  );
  const em = createEmulator({ distDir: dir, users: ["ana@example.com"], ...options });
  emulators.push(em);
  return em;
}

function failure(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}

describe("redirects", () => {
  const em = fixtureEmulator();
  emulators.push(em);

  it("are followed by default, and the Authorization header goes along to the new host", async () => {
    const r = inScript(em, fetchSource, {
      url: `${servers.redirector}/v1/getFunds?x=1`,
      options: { headers: { Authorization: "Bearer secret-1" } },
    });
    expect(r).toEqual({ code: 200, location: "" });
    expect(await servers.records()).toEqual([
      { method: "GET", url: "/v1/getFunds?x=1", authorization: "Bearer secret-1" },
    ]);
  });

  it("with followRedirects: false the 3xx is the answer and the new host gets nothing", async () => {
    const r = inScript(em, fetchSource, {
      url: `${servers.redirector}/v1/getFunds`,
      options: { headers: { Authorization: "Bearer secret-2" }, followRedirects: false },
    });
    expect(r).toEqual({ code: 302, location: `${servers.recorder}/v1/getFunds` });
    expect(await servers.records()).toEqual([]);
  });

  it("each request of a fetchAll follows or not as it asks", async () => {
    const codes = inScript(em, fetchAllSource, {
      requests: [
        { url: `${servers.redirector}/a`, followRedirects: false },
        { url: `${servers.redirector}/b` },
      ],
    });
    expect(codes).toEqual([302, 200]);
    expect((await servers.records()).map((r) => r.url)).toEqual(["/b"]);
  });
});

describe("the manifest's allowlist", () => {
  it("refuses a URL outside it with Apps Script's message; nothing is sent or counted", async () => {
    const em = withManifest({ urlFetchWhitelist: ["https://api.rindegastos.com/"] });
    const err = failure(() => inScript(em, fetchSource, { url: `${servers.recorder}/v1/getFunds?Status=1` }));
    expect(err.name).toBe("Exception");
    expect(err.message).toBe(
      `Request to ${servers.recorder}/v1/getFunds? failed because the URL has not been whitelisted in the script manifest.`,
    );
    expect(await servers.records()).toEqual([]);
    expect(em.urlFetchToday("ana@example.com")).toBe(0);
  });

  it("in a fetchAll, one URL outside it refuses the batch before any is sent", async () => {
    const em = withManifest(
      { urlFetchWhitelist: ["https://api.rindegastos.com/"] },
      {
        urlFetchAllowlist: [`${servers.recorder}/ok/`],
      },
    );
    const err = failure(() =>
      inScript(em, fetchAllSource, { requests: [`${servers.recorder}/ok/1`, `${servers.recorder}/no/2`] }),
    );
    expect(err.message).toBe(notAllowedMessage(`${servers.recorder}/no/2`));
    expect(await servers.records()).toEqual([]);
  });

  it("a local test deployment adds its prefix without touching the manifest", async () => {
    const em = withManifest(
      { urlFetchWhitelist: ["https://api.rindegastos.com/"] },
      {
        urlFetchAllowlist: [`${servers.recorder}/v1/`],
      },
    );
    expect(inScript(em, fetchSource, { url: `${servers.recorder}/v1/getFunds` })).toEqual({
      code: 200,
      location: "",
    });
    expect(
      failure(() => inScript(em, fetchSource, { url: `${servers.recorder}/v10/getFunds` })).message,
    ).toContain("has not been whitelisted in the script manifest");
    expect((await servers.records()).map((r) => r.url)).toEqual(["/v1/getFunds"]);
  });

  it("a redirect hop outside it is refused: the new host gets nothing", async () => {
    const em = withManifest(
      { urlFetchWhitelist: ["https://api.rindegastos.com/"] },
      {
        urlFetchAllowlist: [`${servers.redirector}/`],
      },
    );
    const err = failure(() =>
      inScript(em, fetchSource, {
        url: `${servers.redirector}/v1/getFunds`,
        options: { headers: { Authorization: "Bearer secret-3" } },
      }),
    );
    expect(err.message).toBe(notAllowedMessage(`${servers.recorder}/v1/getFunds`));
    expect(await servers.records()).toEqual([]);
  });

  it("no allowlist in the manifest (and none added): every URL is fetched", async () => {
    const em = withManifest({});
    expect(inScript(em, fetchSource, { url: `${servers.recorder}/any` })).toMatchObject({ code: 200 });
  });

  it("a manifest prefix that Apps Script would not accept stops the load; so does a bad local prefix", () => {
    expect(() => withManifest({ urlFetchWhitelist: ["http://api.rindegastos.com/"] })).toThrow(
      'appsscript.json has errors: urlFetchWhitelist "http://api.rindegastos.com/": URLs must use the HTTPS scheme.',
    );
    expect(() => withManifest({ urlFetchWhitelist: ["https://api.rindegastos.com"] })).toThrow(
      "non-empty path",
    );
    expect(() => withManifest({}, { urlFetchAllowlist: ["http://attacker.example/"] })).toThrow(
      "must use https:// (or http:// on 127.0.0.1, localhost or [::1])",
    );
  });

  it.each([
    ["https://api.rindegastos.com/v1/getFunds", "https://api.rindegastos.com/", true],
    ["https://api.rindegastos.com/v1?x", "https://api.rindegastos.com/v1", true],
    ["https://api.rindegastos.com/v10", "https://api.rindegastos.com/v1", false],
    ["https://eu.rindegastos.com/v1", "https://*.rindegastos.com/", true],
    ["https://rindegastos.com/v1", "https://*.rindegastos.com/", false],
    ["https://api.rindegastos.com@attacker.example/v1", "https://api.rindegastos.com/", false],
    ["https://api.rindegastos.com.attacker.example/v1", "https://api.rindegastos.com/", false],
  ])("%s under %s: %s", (url, prefix, allowed) => {
    expect(manifestAllows(url, [prefix])).toBe(allowed);
  });
});
