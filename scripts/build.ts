/**
 * Builds what clasp pushes: dist/addon.js (one IIFE plus top-level forwarding stubs for every
 * entry point), dist/appsscript.json, and one self-contained HTML file per sidebar or dialog
 * (src/ui/sidebars/<name>/index.html with its client.ts bundled and the shared CSS inlined).
 * Run as a script it builds dist/; dev/bench/build.ts calls buildAddOn for a private copy.
 */

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync, type BuildOptions as EsbuildOptions } from "esbuild";
import { allStrings } from "../src/i18n";
import { carriedStrings, keysNamedIn } from "./bundle-strings";

const root = resolve(import.meta.dirname, "..");
const sidebarsDir = join(root, "src/ui/sidebars");

/** Global name of the bundle's IIFE: an object of src/main.ts's exports, which the stubs call. */
export const BUNDLE_GLOBAL = "AddOn";

/** A function Google calls by name: one of src/main.ts's exports. */
export type EntryPoint = keyof typeof import("../src/main");

/**
 * The one list of functions Google calls by name (simple triggers, menu items, trigger
 * handlers, everything a sidebar calls through google.script.run): the exports of src/main.ts,
 * as esbuild reads them. The build emits a top-level forwarding stub for each.
 */
export function entryPointsOf(mainFile: string): string[] {
  const result = buildSync({
    entryPoints: [mainFile],
    bundle: false,
    format: "esm",
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs).flatMap((output) => output.exports);
}

export const ENTRY_POINTS = entryPointsOf(join(root, "src/main.ts")) as readonly EntryPoint[];

/**
 * Text of the top-level stub for the entry point `name`, so Google can see the function: it
 * spreads its arguments into the function of that name in the bundle's global (no entry point
 * uses `this`: they are module functions).
 */
export function forwardingStub(name: string): string {
  return `function ${name}(){return ${BUNDLE_GLOBAL}.${name}(...arguments)}`;
}

/**
 * Most bytes each pushed file may have. addon.js is parsed on every execution (onOpen
 * included); a sidebar is loaded each time it opens. The limits leave room to grow: bytes are
 * not the goal, a build that stays readable is.
 */
export const SIZE_LIMITS = { script: 600_000, html: 120_000 } as const;

/** The limit that applies to a file of dist/, or null for files without one (the manifest). */
export function sizeLimit(file: string): number | null {
  if (file.endsWith(".js")) return SIZE_LIMITS.script;
  if (file.endsWith(".html")) return SIZE_LIMITS.html;
  return null;
}

export interface BuildOptions {
  /** esbuild's warnings on stderr ("warning", as `npm run build` shows them) or none. */
  logLevel?: "warning" | "silent";
  /** A sidebar whose client does not build is left out instead of failing the build. */
  skipBrokenSidebars?: boolean;
  /** Minify sidebar clients (the default); tests read unminified pages. */
  minifySidebars?: boolean;
  /** Writes addon.js.map beside addon.js (the bench maps its CPU profile back to src/ with it). */
  sourceMap?: boolean;
}

/**
 * Bundles with the user-facing strings the code names and no others: a first build without any
 * string shows what the code names (scripts/bundle-strings.ts).
 */
export function bundleWithItsStrings(options: EsbuildOptions): string {
  const { code, map } = bundleWithMap(options);
  if (map !== null && options.outfile) writeFileSync(`${options.outfile}.map`, map);
  return code;
}

/** bundleWithItsStrings's code and, when `options.sourcemap` asks for one, its source map (JSON text). */
function bundleWithMap(options: EsbuildOptions): { code: string; map: string | null } {
  const catalogue = allStrings();
  // One JSON text per language, parsed on that language's first translation of an execution
  // (src/i18n/index.ts).
  const strings = (keys: readonly string[]) => {
    const carried = carriedStrings(catalogue, keys);
    return {
      BUNDLED_STRINGS_EN: JSON.stringify(JSON.stringify(carried.en)),
      BUNDLED_STRINGS_ES: JSON.stringify(JSON.stringify(carried.es)),
    };
  };
  const probe = buildSync({
    ...options,
    minify: false,
    minifyIdentifiers: false,
    minifySyntax: false,
    minifyWhitespace: false,
    define: strings([]),
    write: false,
    sourcemap: false,
    logLevel: "silent",
  });
  const keys = keysNamedIn(probe.outputFiles[0]?.text ?? "", Object.keys(catalogue.en));
  const result = buildSync({ ...options, define: strings(keys), write: false });
  const code = result.outputFiles.find((f) => !f.path.endsWith(".map")) ?? result.outputFiles[0];
  const map = result.outputFiles.find((f) => f.path.endsWith(".map"));
  return { code: code?.text ?? "", map: map?.text ?? null };
}

function buildServer(outDir: string, options: BuildOptions): void {
  const { code, map } = bundleWithMap({
    entryPoints: [join(root, "src/main.ts")],
    // `var AddOn = (() => {...})();`: a top-level var in Apps Script's shared global scope, an
    // object of src/main.ts's exports; the stubs below are what Google lists and calls.
    globalName: BUNDLE_GLOBAL,
    bundle: true,
    format: "iife",
    target: "es2019",
    platform: "neutral",
    mainFields: ["module", "main"],
    // Minified as esbuild does it; error names are set explicitly, so nothing depends on names.
    minify: true,
    charset: "utf8",
    legalComments: "none",
    logLevel: options.logLevel ?? "warning",
    ...(options.sourceMap ? { sourcemap: "external" as const, outfile: join(outDir, "addon.js") } : {}),
  });
  if (map !== null) writeFileSync(join(outDir, "addon.js.map"), map);
  const stubs = ENTRY_POINTS.map((name) => forwardingStub(name)).join("\n");
  writeFileSync(
    join(outDir, "addon.js"),
    `${code}\n// Entry points called by Google (generated from the exports of src/main.ts)\n${stubs}\n`,
  );
}

function buildSidebars(outDir: string, options: BuildOptions): string[] {
  const names = existsSync(sidebarsDir)
    ? readdirSync(sidebarsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
  const built: string[] = [];
  for (const name of names) {
    try {
      writeFileSync(join(outDir, `${name}.html`), sidebarHtml(name, options));
      built.push(name);
    } catch (err) {
      // A sidebar under construction elsewhere: the private builds carry on without it.
      if (!options.skipBrokenSidebars) throw err;
    }
  }
  return built;
}

/** One sidebar's page: its index.html with the shared CSS, any named stylesheet and its bundled client inlined. */
export function sidebarHtml(name: string, options: BuildOptions = {}): string {
  const dir = join(sidebarsDir, name);
  const sharedCss = existsSync(join(sidebarsDir, "common.css"))
    ? readFileSync(join(sidebarsDir, "common.css"), "utf8")
    : "";
  let html = readFileSync(join(dir, "index.html"), "utf8");
  let script = "";
  if (existsSync(join(dir, "client.ts"))) {
    const code = bundleWithItsStrings({
      entryPoints: [join(dir, "client.ts")],
      bundle: true,
      format: "iife",
      target: "es2019",
      platform: "browser",
      // Sidebars bundle the contract's validation (zod); minified they load faster in the
      // sidebar's iframe.
      minify: options.minifySidebars ?? true,
      charset: "utf8",
      legalComments: "none",
      logLevel: options.logLevel ?? "warning",
    });
    // A literal "</script" inside the inlined code would end the element early.
    script = code.replace(/<\/script/gi, "<\\/script");
  }
  html = html.replace("<!-- inline:style -->", () => `<style>\n${sharedCss}</style>`);
  // A stylesheet shared by some sidebars only (e.g. the write-back forms): <!-- inline:css forms.css -->
  html = html.replace(/<!-- inline:css ([\w.-]+\.css) -->/g, (_whole, file: string) => {
    return `<style>\n${readFileSync(join(sidebarsDir, file), "utf8")}</style>`;
  });
  return html.replace("<!-- inline:script -->", () => `<script>\n${script}</script>`);
}

/** One line per file of `dir`: its size and its limit, marked when over it. */
export function sizeReport(dir: string): string[] {
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  return readdirSync(dir)
    .sort()
    .map((file) => {
      const size = statSync(join(dir, file)).size;
      const limit = sizeLimit(file);
      if (limit === null) return `  ${file.padEnd(18)} ${kB(size).padStart(9)}`;
      const mark = size > limit ? "  OVER THE LIMIT" : "";
      return `  ${file.padEnd(18)} ${kB(size).padStart(9)}  (limit ${kB(limit)})${mark}`;
    });
}

/**
 * Builds the add-on into `outDir` (emptied first): addon.js, appsscript.json and one HTML file
 * per sidebar. Returns the names of the sidebars built.
 */
export function buildAddOn(outDir: string, options: BuildOptions = {}): string[] {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  buildServer(outDir, options);
  const sidebars = buildSidebars(outDir, options);
  copyFileSync(join(root, "appsscript.json"), join(outDir, "appsscript.json"));
  return sidebars;
}

// Imported (by the bench) it only exports; run (`npm run build`) it builds dist/.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dist = join(root, "dist");
  const sidebars = buildAddOn(dist);
  console.log(
    `Built dist/addon.js (${ENTRY_POINTS.length} entry points), ${sidebars.length} HTML file(s), appsscript.json`,
  );
  for (const line of sizeReport(dist)) console.log(line);
}
