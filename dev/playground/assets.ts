/**
 * Builds the playground page at start: the page's TypeScript and the sidebar bridge bundled by
 * esbuild into a fresh directory with index.html and style.css, plus functions.json, the
 * top-level functions of dist/addon.js (what `google.script.run` may call, as Google lists them).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const pageDir = join(here, "page");
const defaultDist = resolve(here, "../../dist");

export interface PlaygroundAssets {
  /** Directory to serve as the page's static root. */
  dir: string;
  /** Removes the directory. */
  dispose(): void;
}

/**
 * Names of the top-level function declarations of a built script, minus those ending in `_`,
 * which `google.script.run` cannot call. The bundle's IIFE is indented, so top-level
 * declarations are the ones at the start of a line.
 */
export function callableFunctions(script: string): string[] {
  const names = new Set<string>();
  for (const match of script.matchAll(/^function\s+([A-Za-z_$][\w$]*)\s*\(/gm)) {
    const name = match[1] as string;
    if (!name.endsWith("_")) names.add(name);
  }
  return [...names];
}

/** Bundles the page into a temporary directory; `distDir` is where the add-on was built. */
export async function buildPlaygroundAssets(distDir = defaultDist): Promise<PlaygroundAssets> {
  const dir = mkdtempSync(join(tmpdir(), "playground-page-"));
  const common = {
    bundle: true,
    format: "iife" as const,
    platform: "browser" as const,
    target: "es2020",
    charset: "utf8" as const,
    legalComments: "none" as const,
    logLevel: "warning" as const,
  };
  await Promise.all([
    build({ ...common, entryPoints: [join(pageDir, "main.ts")], outfile: join(dir, "app.js") }),
    build({ ...common, entryPoints: [join(pageDir, "bridge.ts")], outfile: join(dir, "bridge.js") }),
  ]);
  copyFileSync(join(pageDir, "index.html"), join(dir, "index.html"));
  copyFileSync(join(pageDir, "style.css"), join(dir, "style.css"));
  const addon = join(distDir, "addon.js");
  if (!existsSync(addon)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`No built add-on at ${addon}: run \`npm run build\` first`);
  }
  writeFileSync(join(dir, "functions.json"), JSON.stringify(callableFunctions(readFileSync(addon, "utf8"))));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
