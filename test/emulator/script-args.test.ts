/**
 * Arguments reach the script the way google.script.run carries them, whether the call comes
 * through `emulator.run` or through the worker-thread host the playground uses: a member named
 * "__proto__" stays a plain member, a Date or a function fails the call with Google's message,
 * undefined in an array becomes null.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorHost } from "../../dev/emulator/host";
import { FIXTURE_DIST, fixtureEmulator, inScript } from "./helpers";

const PROTO_ARGUMENT = '{"__proto__": {"baseUrl": "https://attacker.example/v1"}, "pageSize": "50"}';
/** What the script sees of the argument: its own keys, whether it inherits baseUrl, its prototype. */
const LOOK = `return [Object.keys(args), args.baseUrl === undefined, Object.getPrototypeOf(args) === Object.prototype, args.pageSize];`;

describe("emulator.run as google.script.run", () => {
  const em = fixtureEmulator();
  afterAll(() => em.close());

  it("hands the script a __proto__ member as a plain member, never as the argument's prototype", () => {
    expect(inScript(em, LOOK, JSON.parse(PROTO_ARGUMENT))).toEqual([
      ["__proto__", "pageSize"],
      true,
      true,
      "50",
    ]);
    const nested = inScript(em, `return [Object.keys(args.form), args.form.baseUrl === undefined];`, {
      form: JSON.parse(PROTO_ARGUMENT),
    });
    expect(nested).toEqual([["__proto__", "pageSize"], true]);
  });
});

describe("EmulatorHost (the playground's emulator) as google.script.run", () => {
  let host: EmulatorHost;
  beforeAll(async () => {
    host = await EmulatorHost.start({ emulator: { distDir: FIXTURE_DIST, users: ["ana@example.com"] } });
  });
  afterAll(async () => {
    await host?.close();
  });

  it("fails a call with a function or a Date argument with Google's message", async () => {
    await expect(host.run("echo", [() => 1], undefined, "script.run")).resolves.toEqual({
      ok: false,
      error: "Failed due to illegal value in property: 0",
      name: "TypeError",
    });
    await expect(host.run("echo", [{ when: new Date() }], undefined, "script.run")).resolves.toMatchObject({
      ok: false,
      error: "Failed due to illegal value in property: when",
    });
  });

  it("turns undefined in arrays into null and keeps a __proto__ member plain", async () => {
    await expect(host.run("echo", [[1, undefined, 3]], undefined, "script.run")).resolves.toEqual({
      ok: true,
      result: [1, null, 3],
    });
    await expect(
      host.run("snippet", [LOOK, JSON.parse(PROTO_ARGUMENT)], undefined, "script.run"),
    ).resolves.toEqual({ ok: true, result: [["__proto__", "pageSize"], true, true, "50"] });
  });
});
