/**
 * A newcomer's `npm install` (and CI's `npm ci`) prints no install-scripts warning: every
 * package the lockfile marks as having install scripts is decided, allowed or denied, in
 * package.json's `allowScripts` (docs/libraries.md says why esbuild's is denied).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..");
const json = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8"));

/** The packages of a lockfile (v3) that carry install scripts, by name. */
function withInstallScripts(lock: { packages: Record<string, { hasInstallScript?: boolean }> }): string[] {
  return Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
}

/** Those `allowScripts` leaves undecided: neither `name` nor `name@version` is a key of it. */
function undecided(names: string[], allowScripts: Record<string, boolean> | undefined): string[] {
  const keys = Object.keys(allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, "$1"));
  return names.filter((name) => !keys.includes(name));
}

describe("npm install", () => {
  it("every package with install scripts is decided in allowScripts", () => {
    const names = withInstallScripts(json("package-lock.json"));
    expect(names).toContain("esbuild");
    expect(undecided(names, json("package.json").allowScripts)).toEqual([]);
  });

  it("the check sees an undecided package, scoped or pinned names included (it can fail)", () => {
    const lock = {
      packages: {
        "": {},
        "node_modules/esbuild": { hasInstallScript: true },
        "node_modules/@scope/native": { hasInstallScript: true },
        "node_modules/plain": {},
      },
    };
    const names = withInstallScripts(lock);
    expect(names).toEqual(["esbuild", "@scope/native"]);
    expect(undecided(names, undefined)).toEqual(["esbuild", "@scope/native"]);
    expect(undecided(names, { esbuild: false })).toEqual(["@scope/native"]);
    expect(undecided(names, { esbuild: false, "@scope/native@1.2.3": true })).toEqual([]);
  });
});
