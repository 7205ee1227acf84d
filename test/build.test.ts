/**
 * The pushed files, as Google will load them: dist/addon.js in a fresh V8 context holding only
 * ES2020's globals, naming no other global anywhere in its code, every entry point a top-level
 * function declaration, every file within its size limit, every HTML file self-contained, the
 * manifest least-privilege.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import { join, relative, resolve } from "node:path";
import vm from "node:vm";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedBuild, TEST_BUILD } from "../dev/bench/build";
import { ES2020_GLOBALS, restrictToAppsScriptRuntime } from "../dev/emulator/realm";
import {
  BUNDLE_GLOBAL,
  ENTRY_POINTS,
  type EntryPoint,
  forwardingStub,
  SIZE_LIMITS,
  sizeLimit,
} from "../scripts/build";
import { allStrings, type StringTable } from "../src/i18n";
import type * as Main from "../src/main";

// Compile-time: src/main.ts exports a function for every entry point (a missing one is named
// in the type error).
type Missing = Exclude<EntryPoint, keyof typeof Main>;
const everyEntryPointExported: [Missing] extends [never] ? true : Missing = true;
type NotFunctions = {
  [K in EntryPoint]: (typeof Main)[K] extends (...args: never[]) => unknown ? never : K;
}[EntryPoint];
const everyExportAFunction: [NotFunctions] extends [never] ? true : NotFunctions = true;

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");

/** Globals of Node, browsers or newer ECMAScript that Apps Script does not have. */
const FORBIDDEN_GLOBALS = [
  "require",
  "module",
  "exports",
  "process",
  "Buffer",
  "global",
  "window",
  "self",
  "document",
  "fetch",
  "XMLHttpRequest",
  "setTimeout",
  "setInterval",
  "setImmediate",
  "queueMicrotask",
  "URL",
  "URLSearchParams",
  "TextEncoder",
  "TextDecoder",
  "atob",
  "btoa",
  "structuredClone",
  "crypto",
  "navigator",
  "File",
  "Blob",
  "WeakRef",
  "FinalizationRegistry",
  "SharedArrayBuffer",
];

/** Apps Script services: loading the bundle must not use them (onOpen may run in AuthMode.NONE). */
const SERVICES = [
  "SpreadsheetApp",
  "PropertiesService",
  "UrlFetchApp",
  "ScriptApp",
  "Session",
  "HtmlService",
  "Utilities",
  "LockService",
  "CacheService",
  "MailApp",
  "Logger",
  "console",
];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The text of every TypeScript file under `dir`, by path. */
function sourceTexts(dir: string, texts = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceTexts(path, texts);
    else if (entry.name.endsWith(".ts")) texts.set(path, readFileSync(path, "utf8"));
  }
  return texts;
}

/** Builds dist/ unless it is there and newer than every source file and the build itself. */
function ensureBuilt(): void {
  const bundle = join(dist, "addon.js");
  const sources = Math.max(
    newestSource(join(root, "src")),
    newestSource(join(root, "scripts")),
    statSync(join(root, "appsscript.json")).mtimeMs,
  );
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  execFileSync("npx", ["tsx", "scripts/build.ts"], { cwd: root, stdio: "pipe" });
}

let code = "";
let htmlFiles: string[] = [];

beforeAll(() => {
  ensureBuilt();
  code = readFileSync(join(dist, "addon.js"), "utf8");
  htmlFiles = readdirSync(dist).filter((f) => f.endsWith(".html"));
}, 120_000);

/**
 * Loads the bundle in a context holding only Apps Script's V8 built-ins (ES2020, as the
 * emulation's realm), where every forbidden global and service is a trap.
 */
function load() {
  const touched = new Set<string>();
  const context = vm.createContext({});
  restrictToAppsScriptRuntime(context);
  for (const name of [...FORBIDDEN_GLOBALS, ...SERVICES]) {
    Object.defineProperty(context, name, {
      configurable: true,
      enumerable: false,
      get() {
        touched.add(name);
        return undefined;
      },
    });
  }
  vm.runInContext(code, context, { filename: "addon.js" });
  return { context: context as Record<string, unknown>, touched };
}

/** TypeScript's "Cannot find name" diagnostics, with or without a suggestion or a hint. */
const CANNOT_FIND_NAME = new Set([2304, 2552, 2580, 2581, 2582, 2583, 2584, 2591, 2592, 2593]);

/**
 * The free identifiers of a script: every global name its code uses, reached or not, `typeof`
 * probes included. TypeScript checks the script with no library at all, so each global it uses
 * is a name it cannot find.
 */
function freeNames(source: string): string[] {
  const file = "/bundle/script.js";
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: true,
    noLib: true,
    noResolve: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (name) =>
    name === file
      ? ts.createSourceFile(file, source, ts.ScriptTarget.ES2020, true, ts.ScriptKind.JS)
      : undefined;
  host.fileExists = (name) => name === file;
  host.readFile = (name) => (name === file ? source : undefined);
  const program = ts.createProgram([file], options, host);
  const names = new Set<string>();
  for (const d of program.getSemanticDiagnostics(program.getSourceFile(file))) {
    if (!CANNOT_FIND_NAME.has(d.code)) continue;
    const name = /'([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, "\n"))?.[1];
    if (name) names.add(name);
  }
  return [...names].sort();
}

describe("dist/addon.js", () => {
  it("was compiled with every entry point exported from src/main.ts", () => {
    expect(everyEntryPointExported).toBe(true);
    expect(everyExportAFunction).toBe(true);
  });

  it("loads in a bare V8 context without touching Node, browser or Apps Script globals", () => {
    const { touched } = load();
    expect([...touched]).toEqual([]);
  });

  it("the bare context really has none of them (the check above can fail)", () => {
    const context = vm.createContext({});
    restrictToAppsScriptRuntime(context);
    for (const name of FORBIDDEN_GLOBALS) {
      expect(vm.runInContext(`typeof ${name}`, context), name).toBe("undefined");
    }
  });

  it("names no global beyond ES2020's and Apps Script's services, even in code it does not reach", () => {
    const allowed = new Set([...ES2020_GLOBALS, ...SERVICES]);
    expect(freeNames(code).filter((name) => !allowed.has(name))).toEqual([]);
  }, 60_000);

  it("the free-name scan sees globals however they are used (the check above can fail)", () => {
    const script = `var AddOn = (() => {
      const local = 1;
      function f(a, { b } = {}) { try { return a + b + local + structuredClone; } catch (e) { return e; } }
      class C { m() { return new URL("x"); } }
      return { f, C, probe: typeof atob, later: () => setTimeout(f, 1), ok: [Object, JSON, SpreadsheetApp] };
    })();`;
    expect(freeNames(script)).toEqual([
      "JSON",
      "Object",
      "SpreadsheetApp",
      "URL",
      "atob",
      "setTimeout",
      "structuredClone",
    ]);
  });

  it("is strict code, as the modules it is built from", () => {
    expect(code.startsWith(`"use strict";var ${BUNDLE_GLOBAL}=`)).toBe(true);
    // A script-wide directive: an assignment to an undeclared name throws instead of making a global.
    expect(() => vm.runInContext(`${code}\nundeclaredName = 1;`, vm.createContext({}))).toThrow(
      /undeclaredName is not defined/,
    );
  });

  it("declares every entry point as a top-level function that forwards to the bundle", () => {
    const { context } = load();
    const bundle = context[BUNDLE_GLOBAL] as Record<string, unknown>;
    for (const name of ENTRY_POINTS) {
      expect(code, name).toMatch(new RegExp(`^function ${name}\\(`, "m"));
      expect(typeof context[name], name).toBe("function");
      expect(typeof bundle[name], `${BUNDLE_GLOBAL}.${name}`).toBe("function");
    }
  });

  it("the list of entry points is what src/main.ts exports, and the bundle exposes nothing else", () => {
    const { context } = load();
    const bundle = context[BUNDLE_GLOBAL] as Record<string, unknown>;
    expect(ENTRY_POINTS).toContain("onOpen");
    expect(Object.keys(bundle).sort()).toEqual([...ENTRY_POINTS].sort());
  });

  it("lists each entry point once, none ending in _ (google.script.run could not call it)", () => {
    expect(new Set(ENTRY_POINTS).size).toBe(ENTRY_POINTS.length);
    expect(ENTRY_POINTS.filter((n) => n.endsWith("_"))).toEqual([]);
  });

  it("forwards arguments and results through each stub to its own entry point", () => {
    const { context } = load();
    // The stubs look the bundle up when called, so a stand-in bundle shows what they forward.
    context[BUNDLE_GLOBAL] = Object.fromEntries(
      ENTRY_POINTS.map((name) => [name, (...args: unknown[]) => [name, ...args]]),
    );
    for (const name of ENTRY_POINTS) {
      expect((context[name] as (...a: unknown[]) => unknown)(1, "two"), name).toEqual([name, 1, "two"]);
    }
  });

  it("a stub spreads its arguments into the bundle's function (no `apply`, no `this`)", () => {
    expect(forwardingStub("onOpen")).toBe(`function onOpen(){return ${BUNDLE_GLOBAL}.onOpen(...arguments)}`);
    const stubs = code.slice(code.indexOf("\nfunction "));
    expect(stubs).not.toContain(".apply(this,arguments)");
  });

  it("carries the catalogue's strings its code names, under their keys, intact through the minifier", () => {
    const carried = carriedCatalogue(code);
    const table = allStrings();
    const keys = Object.keys(carried.en);
    expect(keys.length).toBeGreaterThan(300);
    expect(Object.keys(carried.es)).toEqual(keys);
    for (const key of keys) {
      expect(carried.en[key], key).toBe(table.en[key]);
      expect(carried.es[key], key).toBe(table.es[key]);
    }
    // A key the code names whole, and one it builds at run time (`status.fund.${status}`).
    expect(code).toContain('"outbox.run.busy"');
    expect(keys).toContain("outbox.run.busy");
    expect(keys).toContain("status.fund.1");
  });

  it("opens only HTML files that were built", () => {
    const opened = [...code.matchAll(/createHtmlOutputFromFile\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]);
    expect(opened.length).toBeGreaterThan(0);
    for (const name of opened) expect(htmlFiles, name).toContain(`${name}.html`);
  });
});

describe("dist/addon.js.map (written for the bench)", () => {
  it("maps the minified code back to the lines of src/ it came from", () => {
    // The build the tests and the bench share (made once a run), with its source map.
    const dir = sharedBuild(TEST_BUILD);
    const built = readFileSync(join(dir, "addon.js"), "utf8");
    const map = new SourceMap(JSON.parse(readFileSync(join(dir, "addon.js.map"), "utf8")));
    const lines = built.split("\n");
    // Texts that stand once in the code, each in a known file (quoted: the catalogue's texts name
    // the same property). Each is checked to stand once in src/ and once in the bundle, so the
    // place found cannot depend on the order of the bundle's modules.
    const places = [
      ['"diagnostics.enabled"', "src/diagnostics/checks.ts"],
      ['"Diagnostics scratch"', "src/gas/diagnostics.ts"],
      ["numeric text with a dot decimal point", "src/api/responses.ts"],
    ] as const;
    const sources = sourceTexts(join(root, "src"));
    const count = (haystack: string, text: string) => haystack.split(text).length - 1;
    for (const [text, file] of places) {
      expect(
        [...sources].filter(([, source]) => source.includes(text)).map(([path]) => relative(root, path)),
        text,
      ).toEqual([file]);
      expect(count(sources.get(join(root, file)) ?? "", text), text).toBe(1);
      expect(count(built, text), text).toBe(1);
      const line = lines.findIndex((l) => l.includes(text));
      const column = lines[line]?.indexOf(text) ?? -1;
      expect(column, text).toBeGreaterThan(0);
      const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
      expect(relative(root, resolve(dir, entry.originalSource ?? "")), text).toBe(file);
      const source = readFileSync(join(root, file), "utf8").split("\n")[entry.originalLine ?? -1];
      expect(source, text).toContain(text);
    }
  }, 60_000);
});

describe("sizes", () => {
  it("every pushed file is within its limit (addon.js 600 kB, each sidebar 120 kB)", () => {
    expect(SIZE_LIMITS).toEqual({ script: 600_000, html: 120_000 });
    const files = readdirSync(dist);
    expect(files).toContain("addon.js");
    const over = files
      .map((file) => ({ file, size: statSync(join(dist, file)).size, limit: sizeLimit(file) }))
      .filter((f) => f.limit !== null && f.size > f.limit);
    expect(over).toEqual([]);
  });
});

describe("dist/*.html", () => {
  it("has one place for the connection: the settings sidebar, no connection sidebar", () => {
    expect(htmlFiles).toContain("settings.html");
    expect(htmlFiles).not.toContain("connection.html");
  });

  it("each sidebar carries its own strings, not the whole catalogue", () => {
    const table = allStrings();
    const fund = readFileSync(join(dist, "fund.html"), "utf8");
    const settings = readFileSync(join(dist, "settings.html"), "utf8");
    expect(fund).toContain(table.es["form.section.deposit"]);
    expect(fund).not.toContain(table.es["settings.saved"]);
    expect(settings).toContain(table.es["settings.saved"]);
    expect(settings).not.toContain(table.es["form.section.deposit"]);
  });

  it("each file is self-contained: no external scripts, styles, frames or imports", () => {
    expect(htmlFiles.length).toBeGreaterThan(0);
    for (const file of htmlFiles) {
      const html = readFileSync(join(dist, file), "utf8");
      expect(html, file).not.toMatch(/<script\b[^>]*\bsrc\s*=/i);
      expect(html, file).not.toMatch(/<link\b[^>]*\bhref\s*=/i);
      expect(html, file).not.toMatch(/<iframe\b[^>]*\bsrc\s*=\s*["']?https?:/i);
      expect(html, file).not.toMatch(/@import\s/i);
      expect(html, file).not.toContain("<!-- inline:");
      expect(html, file).toMatch(/<script>[\s\S]+<\/script>/);
      expect(html, file).toMatch(/<style>[\s\S]+<\/style>/);
    }
  });
});

describe("dist/appsscript.json", () => {
  const SCOPES_ALLOWED = new Set([
    "https://www.googleapis.com/auth/spreadsheets.currentonly",
    "https://www.googleapis.com/auth/script.container.ui",
    "https://www.googleapis.com/auth/script.external_request",
    "https://www.googleapis.com/auth/script.scriptapp",
    "https://www.googleapis.com/auth/script.send_mail",
    "https://www.googleapis.com/auth/userinfo.email",
  ]);

  it("runs on V8 with exception logging", () => {
    const manifest = JSON.parse(readFileSync(join(dist, "appsscript.json"), "utf8"));
    expect(manifest.runtimeVersion).toBe("V8");
    expect(manifest.exceptionLogging).toBe("STACKDRIVER");
    expect(typeof manifest.timeZone).toBe("string");
  });

  it("asks for the least-privilege scopes the add-on needs, and no others", () => {
    const manifest = JSON.parse(readFileSync(join(dist, "appsscript.json"), "utf8"));
    const scopes: string[] = manifest.oauthScopes;
    for (const needed of [
      "https://www.googleapis.com/auth/spreadsheets.currentonly",
      "https://www.googleapis.com/auth/script.container.ui",
      "https://www.googleapis.com/auth/script.external_request",
      "https://www.googleapis.com/auth/script.scriptapp",
    ]) {
      expect(scopes).toContain(needed);
    }
    expect(scopes.filter((s) => !SCOPES_ALLOWED.has(s))).toEqual([]);
    // Sending mail is asked for only when the code sends mail.
    expect(scopes.includes("https://www.googleapis.com/auth/script.send_mail")).toBe(
      /\bMailApp\b/.test(code),
    );
  });

  it("whitelists the real service's URL, https prefixes with a path only", () => {
    const manifest = JSON.parse(readFileSync(join(dist, "appsscript.json"), "utf8"));
    const whitelist: string[] = manifest.urlFetchWhitelist;
    expect(whitelist).toContain("https://api.rindegastos.com/");
    for (const prefix of whitelist) expect(prefix).toMatch(/^https:\/\/[^/]+\/.*$/);
  });
});

/**
 * The one string literal of `code` holding the carried catalogue (JSON text of a StringTable),
 * read as the bundle reads it.
 */
function carriedCatalogue(code: string): StringTable {
  // One JSON text per language (src/i18n/index.ts reads only the one in use): the literals whose
  // text is an object of keys, told apart by a key whose English and Spanish differ.
  const literals = [...code.matchAll(/(["'`])\{\\?"[a-z]+\.[\w.]+\\?":(?:\\.|(?!\1)[^\\])*\1/g)].map(
    (m) => JSON.parse(vm.runInNewContext(m[0]) as string) as Record<string, string>,
  );
  const tables = literals.filter((t) => "outbox.run.busy" in t);
  expect(tables).toHaveLength(2);
  const spanish = allStrings().es["status.fund.2"];
  const es = tables.find((t) => t["status.fund.2"] === spanish);
  const en = tables.find((t) => t !== es);
  if (!en || !es) throw new Error("no Spanish table among the bundle's string tables");
  return { en, es };
}
