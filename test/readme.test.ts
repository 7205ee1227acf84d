/**
 * The README is read by a newcomer in five minutes: it stays short, its two commands are the
 * ones CI runs, and every page it leads to (docs/, the areas' READMEs) is there, down to the
 * heading a link names.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** The Markdown pages whose links are checked: the README, docs/, and every README and map. */
function pages(): string[] {
  const found = ["README.md", "ARCHITECTURE.md"];
  for (const dir of ["docs", "src", "dev"]) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
      const path = relative(root, join(entry.parentPath, entry.name));
      if (dir === "docs" || entry.name === "README.md") found.push(path);
    }
  }
  return found;
}

/** The text without fenced code blocks (a "# comment" in one is not a heading). */
function withoutFences(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, " "));
}

/** The text without code blocks and code spans: a link written as code is not a link. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/** The targets of a page's links and images, with their line, outside code. */
function linksOf(text: string): { line: number; target: string }[] {
  const body = prose(text);
  return [...body.matchAll(/\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
    line: body.slice(0, match.index).split("\n").length,
    target: match[1] as string,
  }));
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const heading = (match[1] as string).replace(/`/g, "");
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** What is wrong with the relative links of `page`: a missing file, or a missing heading. */
function brokenLinks(page: string, text: string, readPage: (path: string) => string | null): string[] {
  const broken: string[] = [];
  for (const { line, target } of linksOf(text)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not checked here
    const [path = "", anchor] = target.split("#");
    const file = path === "" ? page : relative(root, resolve(root, dirname(page), decodeURI(path)));
    const content = readPage(file);
    if (content === null) {
      broken.push(`${page}:${line} links to ${target}: no such file`);
    } else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(content).has(anchor)) {
      broken.push(`${page}:${line} links to ${target}: no heading with that anchor`);
    }
  }
  return broken;
}

function readIfThere(path: string): string | null {
  const full = join(root, path);
  if (!existsSync(full)) return null;
  return statSync(full).isFile() ? readFileSync(full, "utf8") : "";
}

describe("README.md", () => {
  const readme = read("README.md");

  it("is at most 15 kB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000);
  });

  it("gives the two commands: try it with npm install and npm start, test it with npm test, as CI does", () => {
    expect(readme).toContain("```sh\nnpm install\nnpm start\n```");
    expect(readme).toContain("```sh\nnpm test\n```");
    expect(read(".ci/run").split("\n")).toContain("npm test");
  });

  it("leads to every page of docs/ in one click", () => {
    const linked = new Set(linksOf(readme).map(({ target }) => target.split("#")[0]));
    const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });
});

describe("links between the Markdown pages", () => {
  it("every relative link of the README, docs/ and the areas' READMEs reaches a file, and its heading", () => {
    const checked = pages();
    expect(checked).toContain("docs/settings.md");
    const broken = checked.flatMap((page) => brokenLinks(page, read(page), readIfThere));
    expect(broken).toEqual([]);
  });

  it("the check finds a missing file and a missing heading, and passes good links (it can fail)", () => {
    const files: Record<string, string> = {
      "docs/a.md": "# A page\n\n## The `allowlist` (urlFetchWhitelist)\n",
      "docs/b.md": [
        "[good](a.md) [anchor](a.md#the-allowlist-urlfetchwhitelist) [web](https://example.com)",
        "[gone](missing.md) [wrong anchor](a.md#nothing-here)",
        "`[code](not-a-link.md)` ![picture](../img.png)",
      ].join("\n"),
    };
    const broken = brokenLinks("docs/b.md", files["docs/b.md"] as string, (path) => files[path] ?? null);
    expect(broken).toEqual([
      "docs/b.md:2 links to missing.md: no such file",
      "docs/b.md:2 links to a.md#nothing-here: no heading with that anchor",
      "docs/b.md:3 links to ../img.png: no such file",
    ]);
  });
});
