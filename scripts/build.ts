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
import { minify_sync } from "terser";
import ts from "typescript";
import { allStrings, type StringTable } from "../src/i18n";
import { keysNamedIn, packStrings, shortKeyNames } from "./bundle-strings";

const root = resolve(import.meta.dirname, "..");
const sidebarsDir = join(root, "src/ui/sidebars");

/** Global name of the bundle's IIFE: the entry points in ENTRY_POINTS' order, which the stubs call. */
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
 * Text of the top-level stub for the entry point `name`, the `index`-th of ENTRY_POINTS, so
 * Google can see the function. The bundle's global is the array of the entry points in that
 * order (each name written once in addon.js, here); the stub spreads its arguments into the
 * function there (no entry point uses `this`: they are module functions).
 */
export function forwardingStub(name: string, index: number): string {
  return `function ${name}(){return ${BUNDLE_GLOBAL}[${index}](...arguments)}`;
}

/**
 * Most bytes each pushed file may have. addon.js is parsed on every execution (onOpen
 * included); a sidebar is loaded each time it opens. addon.js carries its strings (two
 * languages) as plain JSON text: parsing it costs less on each execution than unpacking it would.
 */
export const SIZE_LIMITS = { script: 400_000, html: 120_000 } as const;

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
export function bundleWithItsStrings(options: EsbuildOptions, packing: { shortKeys?: boolean } = {}): string {
  const { code, map } = bundleWithMap(options, packing);
  if (map !== null && options.outfile) writeFileSync(`${options.outfile}.map`, map);
  return code;
}

/** bundleWithItsStrings's code and, when `options.sourcemap` asks for one, its source map (JSON text). */
function bundleWithMap(
  options: EsbuildOptions,
  packing: { shortKeys?: boolean },
): { code: string; map: string | null } {
  const catalogue = allStrings();
  /** The defines carrying `keys`, each under its name in `short` if it has one there. */
  const strings = (keys: readonly string[], short: ReadonlyMap<string, string> = new Map()) => {
    const table = renameKeys(catalogue, short);
    const named = (some: readonly string[]) => some.map((k) => short.get(k) ?? k);
    // Plain JSON text, parsed on the first translation of an execution: no unpacking service
    // call, no byte loop (Apps Script evaluates the bundle again on every execution).
    return { BUNDLED_STRINGS: JSON.stringify(packStrings(table, named(keys))) };
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
  const probed = probe.outputFiles[0]?.text ?? "";
  const keys = keysNamedIn(probed, Object.keys(catalogue.en));
  // In the server bundle a key its code names only whole travels under a short name, in the
  // code and in the catalogue alike.
  const short = packing.shortKeys ? shortKeyNames(probed, keys) : new Map<string, string>();
  const define = strings(keys, short);
  const result = buildSync({ ...options, define, write: false });
  const code = result.outputFiles.find((f) => !f.path.endsWith(".map")) ?? result.outputFiles[0];
  const map = result.outputFiles.find((f) => f.path.endsWith(".map"));
  const carried = JSON.parse(define.BUNDLED_STRINGS) as string;
  return { code: writeShortKeys(code?.text ?? "", short, carried), map: map?.text ?? null };
}

/** `table` with the keys of `short` under their short names. */
function renameKeys(table: StringTable, short: ReadonlyMap<string, string>): StringTable {
  if (short.size === 0) return table;
  const renamed = (texts: Record<string, string>) =>
    Object.fromEntries(Object.entries(texts).map(([k, text]) => [short.get(k) ?? k, text]));
  return { en: renamed(table.en), es: renamed(table.es) };
}

/**
 * `code` (esbuild's output) with each key of `short` as its short name wherever it stands as a
 * string literal, padded with spaces after the literal so that every later column, and so the
 * source map, stays as it was (terser drops the spaces). shortKeyNames chose keys the code holds
 * no other way; a key still found after the rewrite (outside `catalogue`, the carried strings'
 * packed text) fails the build rather than show a key.
 */
export function writeShortKeys(code: string, short: ReadonlyMap<string, string>, catalogue?: string): string {
  if (short.size === 0) return code;
  const file = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.ES2019, true, ts.ScriptKind.JS);
  const edits: { start: number; end: number; text: string }[] = [];
  const skipped: { start: number; end: number }[] = [];
  const visit = (node: ts.Node): void => {
    const tagged = node.parent !== undefined && ts.isTaggedTemplateExpression(node.parent);
    const literal = ts.isStringLiteral(node) || (ts.isNoSubstitutionTemplateLiteral(node) && !tagged);
    if (literal && node.text === catalogue) {
      // The carried catalogue itself: its keys were given their short names when it was packed.
      skipped.push({ start: node.getStart(file), end: node.end });
    } else if (literal) {
      const name = short.get(node.text);
      if (name !== undefined) {
        const start = node.getStart(file);
        const text = JSON.stringify(name);
        edits.push({ start, end: node.end, text: text.padEnd(node.end - start, " ") });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += code.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += code.slice(at);
  // Edits keep every offset, so the catalogue's ranges are the same in `out`.
  let checked = out;
  for (const { start, end } of skipped)
    checked = checked.slice(0, start) + " ".repeat(end - start) + checked.slice(end);
  const left = keysNamedIn(checked, [...short.keys()]);
  if (left.length > 0) throw new Error(`keys given short names are still in the bundle: ${left.join(", ")}`);
  return out;
}

/**
 * A second pass over esbuild's minified server bundle with terser, whose compressor merges and
 * inlines more than esbuild's (about 5.8 kB of addon.js). Same target (ES2019); string literals
 * (the catalogue included) come out as they went in. With `map` (esbuild's source map)
 * the returned map goes from terser's output straight to src/.
 */
export function compress(code: string, map: string | null): { code: string; map: string | null } {
  const methods = internalMethodNames(code, ENTRY_POINTS);
  const result = minify_sync(code, {
    ecma: 2019,
    // Function expressions without `this` or `arguments` become arrows: none is called with
    // `new` (constructors are classes, and zod's own ones use `this`). A third pass finds about
    // 170 bytes more that the second one's inlining made possible.
    compress: { passes: 3, hoist_funs: true, unsafe_arrows: true },
    // Besides local names, the names of the bundle's own methods (internalMethodNames).
    mangle: methods.length === 0 ? true : { properties: { regex: exactly(methods), keep_quoted: true } },
    format: { ascii_only: false, comments: false },
    sourceMap: map === null ? false : { content: map, url: "addon.js.map" },
  });
  const out = result.code ?? "";
  return { code: out, map: typeof result.map === "string" ? result.map : null };
}

/** A regular expression matching exactly the given names (word characters only). */
function exactly(names: readonly string[]): RegExp {
  return new RegExp(`^(?:${names.join("|")})$`);
}

/**
 * Names of properties that terser may shorten in `code` (esbuild's server bundle), found in
 * the code itself: every property of that name the bundle defines holds a function (a method,
 * an arrow or a function expression), never data, and it defines at least one. A function is
 * never stored (JSON drops it), never crosses to a sidebar or to the service, so only the
 * bundle reads such a name. Left out: any name the bundle also writes as text (a computed
 * `obj["name"]`, `"name" in obj`, a template's words), any word of ECMAScript's or Apps
 * Script's declarations (a method Google or the language calls: `toJSON`, `getRange`), the
 * entry points (the stubs outside the bundle call them by name) and names of one or two
 * characters (nothing to gain).
 */
export function internalMethodNames(code: string, entryPoints: readonly string[]): string[] {
  const file = ts.createSourceFile("bundle.js", code, ts.ScriptTarget.ES2019, false, ts.ScriptKind.JS);
  const functions = new Set<string>();
  const data = new Set<string>();
  const texts = new Set<string>(entryPoints);
  const functionNames = functionBindings(file);
  const isFunction = (node: ts.Node) =>
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    (ts.isIdentifier(node) && functionNames.has(node.text));
  const nameOf = (node: ts.Node): string | null =>
    ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isPrivateIdentifier(node) ? node.text : null;
  // A property set to another property (`keyOf: TABLE.keyOf`) holds a function when that one does.
  const copies = new Map<string, Set<string>>();
  const define = (name: ts.Node, value: ts.Node | undefined) => {
    const text = nameOf(name);
    if (text === null) texts.add(name.getText(file));
    else if (value !== undefined && ts.isPropertyAccessExpression(value)) {
      copies.set(text, (copies.get(text) ?? new Set()).add(value.name.text));
    } else (value !== undefined && isFunction(value) ? functions : data).add(text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.add(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const word of node.text.match(/[\w$]+/g) ?? []) texts.add(word);
    } else if (ts.isPropertyAssignment(node)) define(node.name, node.initializer);
    else if (ts.isShorthandPropertyAssignment(node)) define(node.name, node.name);
    else if (ts.isMethodDeclaration(node)) {
      const text = nameOf(node.name);
      if (text !== null) functions.add(text);
    } else if (ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isPropertyDeclaration(node)) {
      define(node.name, undefined);
    } else if (
      ts.isBindingElement(node) &&
      node.propertyName !== undefined &&
      nameOf(node.propertyName) === null
    ) {
      // A destructured property only reads a value (terser renames it there too); a computed one is text.
      texts.add(node.propertyName.getText(file));
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left)
    ) {
      define(node.left.name, node.right);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, sources] of copies) {
      if (data.has(name) || functions.has(name)) continue;
      if ([...sources].every((source) => functions.has(source) && !data.has(source) && !copies.has(source))) {
        functions.add(name);
        grew = true;
      }
    }
  }
  for (const [name, sources] of copies) {
    if ([...sources].some((source) => !functions.has(source) || data.has(source))) data.add(name);
  }
  const declared = declaredWords();
  return [...functions]
    .filter((name) => /^[A-Za-z_$][\w$]{2,}$/.test(name))
    .filter((name) => !data.has(name) && !texts.has(name) && !declared.has(name))
    .sort();
}

/**
 * Names that stand for a function wherever they appear in `file`: bound exactly once in the
 * whole file, by a function declaration or a `const`/`let`/`var` holding a function, and never
 * bound or assigned otherwise (a parameter, a destructured name, a class, a catch variable).
 */
function functionBindings(file: ts.SourceFile): Set<string> {
  const counts = new Map<string, { functions: number; others: number }>();
  const bind = (name: ts.Node | undefined, isFunction: boolean) => {
    if (name === undefined) return;
    if (!ts.isIdentifier(name)) {
      // A pattern: every name in it is bound to data.
      ts.forEachChild(name, function names(node): void {
        if (ts.isIdentifier(node)) bind(node, false);
        else ts.forEachChild(node, names);
      });
      return;
    }
    const count = counts.get(name.text) ?? { functions: 0, others: 0 };
    if (isFunction) count.functions++;
    else count.others++;
    counts.set(name.text, count);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node)) bind(node.name, true);
    else if (ts.isVariableDeclaration(node)) {
      const value = node.initializer;
      bind(node.name, value !== undefined && (ts.isArrowFunction(value) || ts.isFunctionExpression(value)));
    } else if (ts.isParameter(node) || ts.isBindingElement(node)) bind(node.name, false);
    else if (ts.isClassDeclaration(node) || ts.isClassExpression(node) || ts.isFunctionExpression(node)) {
      bind(node.name, false);
    } else if (ts.isCatchClause(node)) bind(node.variableDeclaration?.name, false);
    else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    ) {
      if (ts.isIdentifier(node.left)) bind(node.left, false);
      else if (ts.isObjectLiteralExpression(node.left) || ts.isArrayLiteralExpression(node.left)) {
        ts.forEachChild(node.left, function names(inner): void {
          if (ts.isIdentifier(inner)) bind(inner, false);
          else ts.forEachChild(inner, names);
        });
      }
    } else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      ts.isIdentifier(node.operand)
    ) {
      bind(node.operand, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return new Set([...counts].filter(([, c]) => c.functions === 1 && c.others === 0).map(([name]) => name));
}

/** Every word of TypeScript's ECMAScript declarations (lib.es*.d.ts) and of Apps Script's. */
function declaredWords(): Set<string> {
  const words = new Set<string>();
  const dirs = [
    join(root, "node_modules/typescript/lib"),
    join(root, "node_modules/@types/google-apps-script"),
  ];
  for (const dir of dirs) {
    for (const file of readdirSync(dir)) {
      // TypeScript's own API (typescript.d.ts) and the DOM's are no part of Apps Script.
      if (!file.endsWith(".d.ts") || /^(?:lib\.(?:dom|webworker|scripthost)|typescript|tsserver)/.test(file))
        continue;
      for (const word of readFileSync(join(dir, file), "utf8").match(/[\w$]+/g) ?? []) words.add(word);
    }
  }
  return words;
}

function buildServer(outDir: string, options: BuildOptions): void {
  const bundled = bundleWithMap(
    {
      // The IIFE sets the top-level var to an array of src/main.ts's exports in ENTRY_POINTS'
      // order itself: esbuild's `globalName` would add its CommonJS and getter helpers (about 550
      // bytes), and an object would write each name once more than the stubs do (about 0.9 kB).
      stdin: {
        contents: `import { ${ENTRY_POINTS.join(", ")} } from "./main";\n${BUNDLE_GLOBAL} = [${ENTRY_POINTS.join(", ")}];`,
        resolveDir: join(root, "src"),
        sourcefile: "entry-points.ts",
        loader: "ts",
      },
      // Strict as the modules it is made of (esbuild's own "use strict" goes with `globalName`).
      banner: { js: `"use strict";var ${BUNDLE_GLOBAL};` },
      bundle: true,
      format: "iife",
      target: "es2019",
      platform: "neutral",
      mainFields: ["module", "main"],
      // Apps Script parses the whole file on every execution, onOpen included: minified it stays
      // within SIZE_LIMITS.script. Error names are set explicitly, so nothing depends on names.
      // Local names are left to terser (compress), which gives them about 110 bytes fewer than
      // esbuild's short names do.
      minifySyntax: true,
      minifyWhitespace: true,
      charset: "utf8",
      legalComments: "none",
      logLevel: options.logLevel ?? "warning",
      ...(options.sourceMap ? { sourcemap: "external" as const, outfile: join(outDir, "addon.js") } : {}),
    },
    { shortKeys: true },
  );
  const { code, map } = compress(bundled.code, bundled.map);
  if (map !== null) writeFileSync(join(outDir, "addon.js.map"), map);
  // esbuild emits `var AddOn = (() => {...})();` which is a top-level var in Apps Script's
  // shared global scope; the stubs below are what Google lists and calls.
  const stubs = ENTRY_POINTS.map((name, index) => forwardingStub(name, index)).join("\n");
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
