/**
 * The settings sidebar's HTML as scripts/build.ts makes it (client bundled, shared CSS inlined),
 * built here so that the tests do not depend on a dist/ that others rebuild at any moment.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";

const root = resolve(import.meta.dirname, "../..");

export function settingsSidebarHtml(): string {
  const dir = join(root, "src/ui/sidebars/settings");
  const out = buildSync({
    entryPoints: [join(dir, "client.ts")],
    bundle: true,
    format: "iife",
    target: "es2019",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const css = readFileSync(join(root, "src/ui/sidebars/common.css"), "utf8");
  const script = (out.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
  return readFileSync(join(dir, "index.html"), "utf8")
    .replace("<!-- inline:style -->", () => `<style>${css}</style>`)
    .replace("<!-- inline:script -->", () => `<script>${script}</script>`);
}
