/**
 * `npm ci` installs from package-lock.json alone and refuses a lockfile that leaves out an
 * optional dependency, even one built for another platform (Biome's and esbuild's binaries for
 * macOS, Windows, musl…). So the lockfile lists every platform's binaries, whichever machine
 * wrote it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  integrity?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const root = resolve(import.meta.dirname, "../..");
const lock = JSON.parse(readFileSync(resolve(root, "package-lock.json"), "utf8")) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** The entry npm would use for `name` required from the package at `from` (node_modules lookup). */
function resolveFrom(from: string, name: string): LockEntry | undefined {
  let base = from;
  for (;;) {
    const entry = lock.packages[`${base ? `${base}/` : ""}node_modules/${name}`];
    if (entry) return entry;
    if (!base) return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut < 0 ? "" : base.slice(0, cut);
  }
}

describe("package-lock.json", () => {
  it("is a version 3 lockfile", () => {
    expect(lock.lockfileVersion).toBe(3);
  });

  it("has an entry, at the pinned version, for every optional dependency of every platform", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
        const found = resolveFrom(path, name);
        if (!found?.version) missing.push(`${path || "(root)"} → ${name}@${range}`);
        else if (/^\d+\.\d+\.\d+/.test(range) && found.version !== range) {
          missing.push(`${path} → ${name}@${range} (lock has ${found.version})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("lists the binaries of macOS, Windows and Linux for Biome and esbuild", () => {
    for (const name of [
      "@biomejs/cli-darwin-arm64",
      "@biomejs/cli-darwin-x64",
      "@biomejs/cli-win32-x64",
      "@biomejs/cli-linux-x64",
      "@biomejs/cli-linux-x64-musl",
      "@esbuild/darwin-arm64",
      "@esbuild/win32-x64",
      "@esbuild/linux-x64",
    ]) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry?.optional, name).toBe(true);
      expect(entry?.os?.length, name).toBe(1);
      expect(entry?.cpu?.length, name).toBe(1);
    }
  });

  it("has an integrity hash for every package that is not platform-specific", () => {
    const withoutHash = Object.entries(lock.packages)
      .filter(([path, entry]) => path && !entry.optional && !entry.integrity)
      .map(([path]) => path);
    expect(withoutHash).toEqual([]);
  });
});
