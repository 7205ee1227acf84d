/**
 * The layers of ARCHITECTURE.md, enforced: an import that runs back up the layers, or a file
 * outside src/gas/ that touches an Apps Script global, fails here with the file and line; an
 * import circle fails with the files that close it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..");

/**
 * What each area of src/ may import besides itself. The core (everything from i18n to outbox)
 * is pure; gas/ adapts Apps Script services to it; app/ composes both; main.ts exports app/.
 * Sidebars (ui/) run in the browser: they import pure code, and app/ for its types only.
 */
const PURE_BELOW: Record<string, string[]> = {
  i18n: [],
  api: ["i18n"],
  company: [],
  sheets: ["i18n", "api", "company"],
  longrun: ["i18n", "api"],
  diagnostics: ["i18n", "api"],
  audit: ["i18n", "api", "company", "sheets"],
  schedule: ["i18n", "api", "longrun"],
  settings: ["i18n", "api", "company", "schedule"],
  refresh: ["i18n", "api", "company", "sheets", "longrun", "settings"],
  outbox: ["i18n", "api", "company", "sheets", "audit"],
  summary: ["i18n", "api", "company", "sheets", "longrun", "settings", "refresh"],
  close: ["i18n", "api", "company", "sheets", "audit", "longrun", "settings", "refresh", "outbox"],
};
const CORE = Object.keys(PURE_BELOW);
const ALLOWED: Record<string, string[]> = {
  ...PURE_BELOW,
  gas: CORE,
  app: [...CORE, "gas"],
  main: ["app"],
  ui: [...CORE],
};
/** Areas an area may import with `import type` only (erased from the bundle). */
const TYPES_ONLY: Record<string, string[]> = { ui: ["app"] };

/** What each folder of dev/ may import besides itself (and src/). */
const DEV_ALLOWED: Record<string, string[]> = {
  "dev/shared": [],
  "dev/sandbox": ["dev/shared"],
  "dev/emulator": ["dev/shared"],
  "dev/playground": ["dev/emulator", "dev/sandbox", "dev/shared"],
  "dev/bench": ["dev/emulator", "dev/sandbox", "dev/shared", "scripts"],
};

/** The Apps Script globals; only src/gas/ may name them. */
const GAS_GLOBALS = [
  "SpreadsheetApp",
  "UrlFetchApp",
  "PropertiesService",
  "LockService",
  "ScriptApp",
  "Session",
  "HtmlService",
  "CacheService",
  "MailApp",
  "GmailApp",
  "Utilities",
  "Logger",
  "DriveApp",
  "DocumentApp",
  "ContentService",
  "Browser",
  "CardService",
];

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Files outside src/ that src/ may import: the manifest (its urlFetchWhitelist). */
const OUTSIDE_ALLOWED = ["appsscript.json"];

/** The source without comments and string literals (so "SpreadsheetApp" in a message is fine). */
function codeOnly(text: string, keepStrings = false): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g,
    (m) => (keepStrings && !m.startsWith("/") ? m : m.replace(/[^\n]/g, " ")),
  );
}

interface Import {
  line: number;
  target: string;
  typeOnly: boolean;
}

/** The relative imports of a file, resolved to paths from the repository's root. */
function importsOf(file: string, source: string): Import[] {
  const text = codeOnly(source, true);
  const found: Import[] = [];
  const pattern =
    /(^|\n)\s*(import|export)(\s+type)?\b[^;"']*?from\s*["'](\.{1,2}\/[^"']*)["']|import\(\s*["'](\.{1,2}\/[^"']*)["']\s*\)/g;
  for (const match of text.matchAll(pattern)) {
    const spec = match[4] ?? match[5];
    if (!spec) continue;
    const line = text.slice(0, match.index + (match[1]?.length ?? 0)).split("\n").length;
    const typeOnly =
      Boolean(match[3]) || (match[5] !== undefined && /typeof\s*$/.test(text.slice(0, match.index)));
    found.push({ line, target: relative(root, resolve(root, dirname(file), spec)), typeOnly });
  }
  return found;
}

/** The file an import's target names (`./x` is `./x.ts`, or `./x/index.ts`), or undefined. */
function fileOf(target: string): string | undefined {
  const candidates = [target, `${target}.ts`, `${target}.mts`, `${target}/index.ts`];
  return candidates.find((path) => /\.(ts|mts|mjs)$/.test(path) && existsSync(join(root, path)));
}

/**
 * The import circles among `files` (type-only imports included: a circle of types is still
 * two files that cannot be read one before the other), each as the chain of files that closes
 * it. A depth-first search that reports each circle once, from the first file it reaches.
 */
function importCircles(
  files: string[],
  read: (file: string) => string,
  resolveFile: (target: string) => string | undefined = fileOf,
): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file, read(file)).map(({ target }) => resolveFile(target));
    edges.set(
      file,
      targets.filter((target): target is string => target !== undefined && files.includes(target)),
    );
  }
  const circles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at >= 0) {
      circles.push([...path.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of [...files].sort()) visit(file);
  return circles;
}

/** The area of src/ a path belongs to ("app", "ui", "main"…), or undefined outside src/. */
function areaOf(path: string): string | undefined {
  const parts = path.split("/");
  if (parts[0] !== "src") return undefined;
  if (parts.length === 2) return parts[1]?.replace(/\.ts$/, "");
  return parts[1];
}

function devAreaOf(path: string): string {
  const parts = path.split("/");
  return parts[0] === "dev" ? `${parts[0]}/${parts[1]}` : (parts[0] ?? "");
}

describe("layers", () => {
  it("every area of src/ imports only areas below it (ARCHITECTURE.md)", () => {
    const wrong: string[] = [];
    for (const file of filesUnder("src")) {
      const from = areaOf(file) as string;
      expect(ALLOWED[from], `${file}: an area ARCHITECTURE.md does not place`).toBeDefined();
      for (const { line, target, typeOnly } of importsOf(file, readFileSync(join(root, file), "utf8"))) {
        const to = areaOf(target);
        if (to === undefined) {
          if (OUTSIDE_ALLOWED.includes(target)) continue;
          wrong.push(`${file}:${line} imports ${target}, outside src/`);
        } else if (
          to !== from &&
          !ALLOWED[from]?.includes(to) &&
          !(typeOnly && TYPES_ONLY[from]?.includes(to))
        ) {
          wrong.push(`${file}:${line} (${from}) imports ${target} (${to})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("dev/ tools import only what they are built on, and never the tools above them", () => {
    const wrong: string[] = [];
    for (const file of filesUnder("dev")) {
      const from = devAreaOf(file);
      for (const { line, target } of importsOf(file, readFileSync(join(root, file), "utf8"))) {
        const to = devAreaOf(target);
        if (to === from || to === "src") continue;
        if (!DEV_ALLOWED[from]?.includes(to)) wrong.push(`${file}:${line} (${from}) imports ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("only src/gas/ touches Apps Script globals", () => {
    const pattern = new RegExp(`(?<![\\w.$])(${GAS_GLOBALS.join("|")})(?![\\w$])`, "g");
    const wrong: string[] = [];
    for (const file of filesUnder("src")) {
      if (file.startsWith("src/gas/")) continue;
      const code = codeOnly(readFileSync(join(root, file), "utf8"));
      for (const match of code.matchAll(pattern)) {
        const line = code.slice(0, match.index).split("\n").length;
        wrong.push(`${file}:${line} ${match[1]}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a token is chosen in one place: only src/app/company-clients.ts builds a client or reads a token", () => {
    const home = "src/app/company-clients.ts";
    const reads: Record<string, string> = {};
    const wrong: string[] = [];
    for (const file of filesUnder("src")) {
      // The store defines the readers; the client module defines createClient.
      if (file === home || file === "src/settings/store.ts" || file === "src/api/client.ts") continue;
      const source = readFileSync(join(root, file), "utf8");
      const code = codeOnly(source);
      for (const match of code.matchAll(/\.token\(|\bcompanyToken\(/g)) {
        const line = code.slice(0, match.index).split("\n").length;
        const allowed = reads[file];
        if (allowed && code.startsWith(allowed, match.index - allowed.length + match[0].length)) continue;
        wrong.push(`${file}:${line} reads a token (${match[0]})`);
      }
      const importText = codeOnly(source, true);
      for (const match of importText.matchAll(
        /\bimport\b[^;]*?\bcreateClient\b[^;]*?from\s*["']([^"']+)["']/g,
      )) {
        const target = relative(root, resolve(root, dirname(file), match[1] as string));
        if (target.startsWith("src/api")) {
          const line = importText.slice(0, match.index).split("\n").length;
          wrong.push(`${file}:${line} imports createClient`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("in src/app/ and src/gas/, no catch swallows a failure: tolerate (src/api/errors.ts) does, with its reason", () => {
    const swallowing = [...filesUnder("src/app"), ...filesUnder("src/gas")].filter(
      // entry.ts is the error boundary: its one catch without a binding rethrows.
      (file) =>
        file !== "src/app/entry.ts" &&
        /\bcatch\s*(\(\s*_|\{)/.test(codeOnly(readFileSync(join(root, file), "utf8"))),
    );
    expect(swallowing).toEqual([]);
  });

  it("no file of src/, dev/ or scripts/ imports itself through others (no import circle)", () => {
    const files = [...filesUnder("src"), ...filesUnder("dev"), ...filesUnder("scripts")];
    const circles = importCircles(files, (file) => readFileSync(join(root, file), "utf8"));
    expect(circles.map((circle) => circle.join(" → "))).toEqual([]);
  });

  it("the circle check finds a circle, of types too, and passes a chain", () => {
    const sources: Record<string, string> = {
      "src/a.ts": 'import { b } from "./b";',
      "src/b.ts": 'import type { C } from "./c";',
      "src/c.ts": 'export { a } from "./a";',
      "src/d.ts": 'import { a } from "./a";',
    };
    const read = (file: string) => sources[file] ?? "";
    const fileOfSource = (target: string) => (`${target}.ts` in sources ? `${target}.ts` : undefined);
    expect(importCircles(Object.keys(sources), read, fileOfSource)).toEqual([
      ["src/a.ts", "src/b.ts", "src/c.ts", "src/a.ts"],
    ]);
    delete sources["src/c.ts"];
    expect(importCircles(Object.keys(sources), read, fileOfSource)).toEqual([]);
  });

  it("the checks above catch what they are meant to", () => {
    expect(importsOf("src/api/x.ts", 'import { a } from "../app/refresh";')).toEqual([
      { line: 1, target: "src/app/refresh", typeOnly: false },
    ]);
    expect(importsOf("src/ui/x.ts", 'import type * as S from "../app/refresh";')[0]?.typeOnly).toBe(true);
    expect(importsOf("src/ui/x.ts", 'serverFunctions<typeof import("../app/refresh")>()')[0]?.typeOnly).toBe(
      true,
    );
    expect(codeOnly('const a = "SpreadsheetApp"; // Session\nSession.getActiveUser();')).toMatch(
      /^const a =\s+;\s+\nSession\./,
    );
  });
});
