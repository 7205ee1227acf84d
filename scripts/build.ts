/**
 * Builds what clasp pushes: dist/addon.js (one IIFE plus top-level forwarding stubs for every
 * entry point), dist/appsscript.json, and one self-contained HTML file per sidebar or dialog
 * (src/ui/sidebars/<name>/index.html with its client.ts bundled and the shared CSS inlined).
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
import { build } from "esbuild";
import { BUNDLE_GLOBAL, ENTRY_POINTS } from "../src/entrypoints";

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");
const sidebarsDir = join(root, "src/ui/sidebars");

/** Text of a top-level stub that forwards to the bundle, so Google can see the function. */
export function forwardingStub(name: string): string {
  return `function ${name}() { return ${BUNDLE_GLOBAL}.${name}.apply(this, arguments); }`;
}

async function buildServer(): Promise<void> {
  const result = await build({
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
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.text ?? "";
  // esbuild emits `var AddOn = (() => {...})();` which is a top-level var in Apps Script's
  // shared global scope; the stubs below are what Google lists and calls.
  const stubs = ENTRY_POINTS.map(forwardingStub).join("\n");
  writeFileSync(
    join(dist, "addon.js"),
    `${code}\n// Entry points called by Google (generated from src/entrypoints.ts)\n${stubs}\n`,
  );
}

async function buildSidebars(): Promise<string[]> {
  const names = existsSync(sidebarsDir)
    ? readdirSync(sidebarsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
  const sharedCss = existsSync(join(sidebarsDir, "common.css"))
    ? readFileSync(join(sidebarsDir, "common.css"), "utf8")
    : "";
  for (const name of names) {
    const dir = join(sidebarsDir, name);
    let html = readFileSync(join(dir, "index.html"), "utf8");
    let script = "";
    if (existsSync(join(dir, "client.ts"))) {
      const result = await build({
        entryPoints: [join(dir, "client.ts")],
        bundle: true,
        format: "iife",
        target: "es2019",
        platform: "browser",
        // Sidebars bundle the contract's validation (zod); minified they load faster in the
        // sidebar's iframe. The server bundle stays readable for Apps Script's stack traces.
        minify: true,
        charset: "utf8",
        legalComments: "none",
        write: false,
        logLevel: "warning",
      });
      // A literal "</script" inside the inlined code would end the element early.
      script = (result.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
    }
    html = html.replace("<!-- inline:style -->", () => `<style>\n${sharedCss}</style>`);
    html = html.replace("<!-- inline:script -->", () => `<script>\n${script}</script>`);
    writeFileSync(join(dist, `${name}.html`), html);
  }
  return names;
}

async function main(): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await buildServer();
  const sidebars = await buildSidebars();
  copyFileSync(join(root, "appsscript.json"), join(dist, "appsscript.json"));
  console.log(
    `Built dist/addon.js (${ENTRY_POINTS.length} entry points), ${sidebars.length} HTML file(s), appsscript.json`,
  );
}

await main();
