/** The sandbox's README names the flags the CLI takes and the control routes the server answers. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Running, start } from "./sandbox-client";

const dir = join(import.meta.dirname, "../../dev/sandbox");
const readme = readFileSync(join(dir, "README.md"), "utf8");

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

/** The option names of cli.ts's parseArgs: the FLAGS list and the other `name: { type: "string" }` keys. */
function cliFlags(): string[] {
  const source = readFileSync(join(dir, "cli.ts"), "utf8");
  const list = /const FLAGS = \[([^\]]*)\]/.exec(source)?.[1] ?? "";
  const listed = [...list.matchAll(/"([\w-]+)"/g)].map((m) => m[1] as string);
  const others = [...source.matchAll(/^\s+"?([\w-]+)"?: \{ type: "string" \}/gm)].map((m) => m[1] as string);
  return [...new Set([...listed, ...others])].sort();
}

describe("README", () => {
  it("lists exactly the flags of npm run sandbox", () => {
    const paragraph = /^Flags: ([\s\S]*?)\n\n/m.exec(readme)?.[1] ?? "";
    const documented = [
      ...new Set([...paragraph.matchAll(/`--([\w-]+)/g)].map((m) => m[1] as string)),
    ].sort();
    expect(cliFlags().length).toBeGreaterThan(5);
    expect(documented).toEqual(cliFlags());
  });

  it("lists control routes that the server answers with the methods given", async () => {
    const rows = readme.split("\n").filter((line) => /^\| `(GET|POST|DELETE)[^|]*\/_sandbox/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const state = (await (await fetch(`${sandbox.origin}/_sandbox/state`)).json()) as {
      reports: Array<{ id: number; files: Array<{ Name: string }> }>;
    };
    const withFile = state.reports.find((r) => r.files.length > 0);
    if (!withFile) throw new Error("no report with a file in the demo data");
    for (const row of rows) {
      const cell = row.split("|")[1] ?? "";
      const methods = [...cell.matchAll(/\b(GET|POST|DELETE)\b/g)].map((m) => m[1] as string);
      const path = (/\/_sandbox[^`\s]*/.exec(cell)?.[0] ?? "")
        .replace("/policies/{id}", "/policies/201")
        .replace("/reports/{id}", `/reports/${withFile.id}`)
        .replace("{reportId}/{name}", `${withFile.id}/${encodeURIComponent(withFile.files[0]?.Name ?? "")}`);
      expect(path, row).not.toMatch(/[{}]/);
      for (const method of methods) {
        const res = await fetch(`${sandbox.origin}${path}`, {
          method,
          headers: method === "GET" ? {} : { "Content-Type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        const text = await res.text();
        expect(res.status, `${method} ${path}: ${text}`).not.toBe(405);
        if (res.status === 404) expect(JSON.parse(text).Error.Field, `${method} ${path}`).not.toBe("path");
      }
    }
  });
});
