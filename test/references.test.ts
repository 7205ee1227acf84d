/**
 * Every file a doc or a comment names is in the repository, and every section it names by
 * title is in that file: what the code relies on is written down here, never in a file the
 * repository does not hold. Markdown links are checked by test/readme.test.ts; this checks the
 * references written as paths from the repository's root, and a section's title in quotes
 * after a page's path.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Text files of docs and code: Markdown anywhere, and the sources of src/, dev/, scripts/, test/. */
function files(): string[] {
  const found = ["README.md", "ARCHITECTURE.md"];
  for (const dir of ["docs", "src", "dev", "scripts", "test"]) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !/\.(md|ts|mjs|html|css)$/.test(entry.name)) continue;
      const path = relative(root, join(entry.parentPath, entry.name));
      if (path.startsWith("test/fixtures/")) continue;
      found.push(path);
    }
  }
  return found;
}

const PATH = /(?<![\w./-])((?:docs|src|dev|scripts|test)\/[\w./-]*\.(?:md|ts|mjs|json|html))/g;
/** A Markdown file cited by its bare name in upper case, as ARCHITECTURE.md is. */
const BARE = /(?<![\w./-])([A-Z][A-Z_]+\.md)\b/g;
/** A page and a section of it: the path, a comma, the title in quotes. */
const SECTION = /((?:docs|src|dev|scripts)\/[\w./-]*\.md)`?,\s*\n?\s*(?:\*\s*)?"([^"]+)"/g;

/** Titles a page gives: its headings and the bold lead of its list items. */
function titlesOf(text: string): string[] {
  const headings = [...text.matchAll(/^#+\s+(.+)$/gm)].map((m) => m[1] ?? "");
  const bold = [...text.matchAll(/\*\*([^*]+?)\.?\*\*/g)].map((m) => m[1] ?? "");
  return [...headings, ...bold].map((t) => t.replace(/`/g, "").trim());
}

function problemsIn(path: string, text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(PATH)) {
    const target = (m[1] ?? "").replace(/[.]+$/, "");
    if (!existsSync(join(root, target))) problems.push(`${path}: ${target} is not in the repository`);
  }
  for (const m of text.matchAll(BARE)) {
    const name = m[1] ?? "";
    if (!existsSync(join(root, name))) problems.push(`${path}: ${name} is not in the repository`);
  }
  for (const m of text.matchAll(SECTION)) {
    const [, target = "", title = ""] = m;
    if (!existsSync(join(root, target))) continue;
    const wanted = title.replace(/\s+/g, " ").trim();
    const titles = titlesOf(readFileSync(join(root, target), "utf8"));
    if (!titles.some((t) => t === wanted || t.startsWith(wanted)))
      problems.push(`${path}: ${target} has no section "${wanted}"`);
  }
  return problems;
}

/** What a reader reads of a file: a page whole, a source's comments only (its strings are data). */
function readable(path: string): string {
  const text = readFileSync(join(root, path), "utf8");
  if (path.endsWith(".md")) return text;
  const comments = text.match(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/.*$/gm) ?? [];
  return comments.map((c) => c.replace(/^\s*\*\s?/gm, "")).join("\n");
}

describe("references to files and sections", () => {
  it("every path a doc or comment gives is a file of the repository, and every section it names is there", () => {
    const problems = files().flatMap((path) => problemsIn(path, readable(path)));
    expect(problems).toEqual([]);
  });

  it("the check finds a missing file, a cited file outside the repository and a missing section (it can fail)", () => {
    expect(problemsIn("x.ts", "see docs/nowhere.md")).toEqual([
      "x.ts: docs/nowhere.md is not in the repository",
    ]);
    expect(problemsIn("x.ts", "(PLATFORM.md, facts)")).toEqual([
      "x.ts: PLATFORM.md is not in the repository",
    ]);
    expect(problemsIn("x.ts", '(docs/real-apps-script.md, "Gone section")')).toEqual([
      'x.ts: docs/real-apps-script.md has no section "Gone section"',
    ]);
    expect(problemsIn("x.ts", 'docs/real-apps-script.md, "The checks" and ARCHITECTURE.md')).toEqual([]);
  });
});
