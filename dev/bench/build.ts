/**
 * The built add-on for the benchmark and the end-to-end tests: dist/ rebuilt with
 * scripts/build.ts when a source file is newer than it, and a private copy built by the same
 * code into a folder of its own, so that a rebuild of dist/ elsewhere cannot change the code
 * under measurement in the middle of a run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildAddOn } from "../../scripts/build";

const root = resolve(import.meta.dirname, "../..");

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/addon.js is missing or older than a file of src/. */
export function distIsStale(): boolean {
  const addon = join(root, "dist/addon.js");
  return !existsSync(addon) || statSync(addon).mtimeMs < newestIn(join(root, "src"));
}

/** Runs `npm run build` when dist/ is stale; returns false (and why) when the build fails. */
export function buildIfNeeded(): { built: boolean; error?: string } {
  if (!distIsStale()) return { built: false };
  try {
    execFileSync(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/build.ts"], {
      cwd: root,
      stdio: "pipe",
    });
    return { built: true };
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? String(err);
    return { built: false, error: stderr.trim().split("\n")[0] };
  }
}

/**
 * The add-on (script, manifest, sidebars) built into a folder of its own by scripts/build.ts,
 * quietly, leaving out a sidebar that does not build (the refresh does not need it); returns
 * the folder.
 */
export function privateBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "addon-dist-"));
  buildAddOn(dir, { logLevel: "silent", skipBrokenSidebars: true, sourceMap: true });
  return dir;
}
