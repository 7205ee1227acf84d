/**
 * The built add-on for the benchmark and the end-to-end tests: dist/ rebuilt with
 * scripts/build.ts when a source file is newer than it, and a private copy of the script built
 * the same way (one IIFE plus a top-level stub per entry point), so that a rebuild of dist/
 * elsewhere cannot change the code under measurement in the middle of a run.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { BUNDLE_GLOBAL, ENTRY_POINTS } from "../../src/entrypoints";

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

/** The add-on (script, manifest, sidebars) built into a folder of its own; returns the folder. */
export function privateBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), "addon-dist-"));
  const result = buildSync({
    entryPoints: [join(root, "src/main.ts")],
    bundle: true,
    format: "iife",
    globalName: BUNDLE_GLOBAL,
    target: "es2019",
    platform: "neutral",
    mainFields: ["module", "main"],
    charset: "utf8",
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  const stubs = ENTRY_POINTS.map(
    (name) => `function ${name}() { return ${BUNDLE_GLOBAL}.${name}.apply(this, arguments); }`,
  ).join("\n");
  writeFileSync(join(dir, "addon.js"), `${result.outputFiles[0]?.text ?? ""}\n${stubs}\n`);
  copyFileSync(join(root, "appsscript.json"), join(dir, "appsscript.json"));
  buildSidebars(dir);
  return dir;
}

/**
 * Each sidebar as scripts/build.ts makes it (its client bundled and inlined with the shared
 * CSS); one that does not build is left out rather than failing everything else.
 */
function buildSidebars(dir: string): void {
  const sidebars = join(root, "src/ui/sidebars");
  const css = existsSync(join(sidebars, "common.css"))
    ? readFileSync(join(sidebars, "common.css"), "utf8")
    : "";
  for (const entry of readdirSync(sidebars, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(sidebars, entry.name);
    try {
      let script = "";
      if (existsSync(join(folder, "client.ts"))) {
        const bundle = buildSync({
          entryPoints: [join(folder, "client.ts")],
          bundle: true,
          format: "iife",
          target: "es2019",
          platform: "browser",
          charset: "utf8",
          legalComments: "none",
          write: false,
          logLevel: "silent",
        });
        script = (bundle.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
      }
      const html = readFileSync(join(folder, "index.html"), "utf8")
        .replace("<!-- inline:style -->", () => `<style>\n${css}</style>`)
        .replace("<!-- inline:script -->", () => `<script>\n${script}</script>`);
      writeFileSync(join(dir, `${entry.name}.html`), html);
    } catch (_err) {
      // A sidebar under construction elsewhere; the refresh does not need it.
    }
  }
}
