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
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { BUNDLE_GLOBAL, ENTRY_POINTS } from "../src/entrypoints";

const root = resolve(import.meta.dirname, "..");
const sidebarsDir = join(root, "src/ui/sidebars");

/** Text of a top-level stub that forwards to the bundle, so Google can see the function. */
export function forwardingStub(name: string): string {
  return `function ${name}() { return ${BUNDLE_GLOBAL}.${name}.apply(this, arguments); }`;
}

export interface BuildOptions {
  /** esbuild's warnings on stderr ("warning", as `npm run build` shows them) or none. */
  logLevel?: "warning" | "silent";
  /** A sidebar whose client does not build is left out instead of failing the build. */
  skipBrokenSidebars?: boolean;
  /** Minify sidebar clients (the default); tests read unminified pages. */
  minifySidebars?: boolean;
}

function buildServer(outDir: string, options: BuildOptions): void {
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
    logLevel: options.logLevel ?? "warning",
  });
  const code = result.outputFiles[0]?.text ?? "";
  // esbuild emits `var AddOn = (() => {...})();` which is a top-level var in Apps Script's
  // shared global scope; the stubs below are what Google lists and calls.
  const stubs = ENTRY_POINTS.map(forwardingStub).join("\n");
  writeFileSync(
    join(outDir, "addon.js"),
    `${code}\n// Entry points called by Google (generated from src/entrypoints.ts)\n${stubs}\n`,
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
    const result = buildSync({
      entryPoints: [join(dir, "client.ts")],
      bundle: true,
      format: "iife",
      target: "es2019",
      platform: "browser",
      // Sidebars bundle the contract's validation (zod); minified they load faster in the
      // sidebar's iframe. The server bundle stays readable for Apps Script's stack traces.
      minify: options.minifySidebars ?? true,
      charset: "utf8",
      legalComments: "none",
      write: false,
      logLevel: options.logLevel ?? "warning",
    });
    // A literal "</script" inside the inlined code would end the element early.
    script = (result.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
  }
  html = html.replace("<!-- inline:style -->", () => `<style>\n${sharedCss}</style>`);
  // A stylesheet shared by some sidebars only (e.g. the write-back forms): <!-- inline:css forms.css -->
  html = html.replace(/<!-- inline:css ([\w.-]+\.css) -->/g, (_whole, file: string) => {
    return `<style>\n${readFileSync(join(sidebarsDir, file), "utf8")}</style>`;
  });
  return html.replace("<!-- inline:script -->", () => `<script>\n${script}</script>`);
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
  const sidebars = buildAddOn(join(root, "dist"));
  console.log(
    `Built dist/addon.js (${ENTRY_POINTS.length} entry points), ${sidebars.length} HTML file(s), appsscript.json`,
  );
}
