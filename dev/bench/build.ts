/**
 * The built add-on for the benchmark and the end-to-end tests: dist/ rebuilt with
 * scripts/build.ts when a source file is newer than it, and a private copy built by the same
 * code into a folder of its own, so that a rebuild of dist/ elsewhere cannot change the code
 * under measurement in the middle of a run.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BuildOptions } from "../../scripts/build";

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

/** Written last in a shared build's folder: the folder is complete. */
const BUILT_MARK = ".built";

/**
 * A hash of what a build with `options` reads: every file of src/ and scripts/, the manifest
 * and the lockfile (the bundler's and minifier's versions), the options themselves, and the
 * checkout's folder.
 */
function buildInputsHash(options: BuildOptions): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(options));
  // And where the sources are: the build's source map names them by a path relative to its
  // folder, so a build made from another checkout would lead the bench's profile elsewhere.
  hash.update(`\0${root}\0`);
  const add = (path: string) => {
    hash.update(`\0${relative(root, path)}\0`);
    hash.update(readFileSync(path));
  };
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) add(path);
    }
  };
  walk(join(root, "src"));
  walk(join(root, "scripts"));
  for (const file of ["appsscript.json", "package-lock.json"]) {
    const path = join(root, file);
    if (existsSync(path)) add(path);
  }
  return hash.digest("hex").slice(0, 24);
}

/**
 * The add-on built by scripts/build.ts with `options`, once per state of what the build reads:
 * the folder (under the system's temporary folder) is named by the hash of it, so every test
 * file of a run, and later runs, find the build that the first one made (a build costs seconds
 * of CPU). Nothing may write into it: take a copy of it (privateCopy) to change a file.
 */
export function sharedBuild(options: BuildOptions): string {
  const hash = buildInputsHash(options);
  const dir = join(tmpdir(), `addon-build-${hash}`);
  const mark = join(dir, BUILT_MARK);
  // One process builds; the others (test files starting side by side) wait for its folder.
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(mark)) return dir;
    if (takeLock(lock)) break;
    pause(200);
  }
  try {
    if (existsSync(mark)) return dir;
    // Built aside and renamed whole: a folder under that name is always complete.
    const fresh = mkdtempSync(join(tmpdir(), "addon-building-"));
    buildInChild(fresh, options);
    writeFileSync(join(fresh, BUILT_MARK), hash);
    rmSync(dir, { recursive: true, force: true });
    renameSync(fresh, dir);
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds with `options` into `dir` in a child process (this file run as a script): a process
 * that finds the build already made never loads the build's tools (TypeScript, the minifier,
 * the bundler), which costs more than a second of CPU in every test file.
 */
function buildInChild(dir: string, options: BuildOptions): void {
  try {
    execFileSync(
      process.execPath,
      [
        join(root, "node_modules/tsx/dist/cli.mjs"),
        fileURLToPath(import.meta.url),
        dir,
        JSON.stringify(options),
      ],
      { cwd: root, stdio: "pipe" },
    );
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`the add-on's build failed: ${stderr || String(err)}`);
  }
}

/** How long a build may hold its lock before another process takes it over (the holder died). */
const LOCK_STALE_MS = 5 * 60_000;

/** Takes the lock folder `lock`; false while another process holds it (and has not died). */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== "EEXIST") throw err;
  }
  try {
    if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
  } catch {
    // Let go of meanwhile: the next try takes it.
  }
  return false;
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A copy of the built folder `dir` in a new folder of its own, which its caller may change. */
export function privateCopy(dir: string, prefix = "addon-dist-"): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  cpSync(dir, copy, { recursive: true, filter: (source) => basename(source) !== BUILT_MARK });
  return copy;
}

/**
 * The one build the tests and the bench share (so a run makes one): quiet, leaving out a sidebar
 * that does not build (the refresh does not need it), every sidebar unminified (tests read the
 * pages), and addon.js.map beside addon.js (the bench maps its CPU profile back to src/).
 */
export const TEST_BUILD: BuildOptions = {
  logLevel: "silent",
  skipBrokenSidebars: true,
  minifySidebars: false,
  sourceMap: true,
};

/**
 * The add-on (script, manifest, sidebars) built by scripts/build.ts with TEST_BUILD, in a
 * folder of its own; returns the folder. The build itself is made once per state of the
 * sources (sharedBuild).
 */
export function privateBuild(prefix?: string): string {
  return privateCopy(sharedBuild(TEST_BUILD), prefix);
}

// Run as a script (buildInChild): `build.ts <folder> <options as JSON>` builds into the folder.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir, options] = process.argv.slice(2);
  if (!dir || !options) throw new Error("usage: build.ts <folder> <options as JSON>");
  const { buildAddOn } = await import("../../scripts/build");
  buildAddOn(dir, JSON.parse(options) as BuildOptions);
}
