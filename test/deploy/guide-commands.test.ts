/**
 * docs/deploy.md's commands as clasp 3 knows them: every `npx clasp …` the guide gives, and
 * every clasp step `npm run deploy` runs, is a command of the installed clasp, and each flag it
 * uses is one that command's own help lists (or a global option of clasp's).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { deploySteps, parseDeployArgs } from "../../scripts/deploy";

const root = resolve(import.meta.dirname, "../..");
const clasp = join(root, "node_modules", ".bin", "clasp");
const guide = readFileSync(join(root, "docs", "deploy.md"), "utf8");

const helps = new Map<string, string>();
/** clasp's own help: of the program (""), or of one command. */
function help(command: string): string {
  let text = helps.get(command);
  if (text === undefined) {
    text = execFileSync(clasp, command === "" ? ["--help"] : [command, "--help"], {
      cwd: root,
      encoding: "utf8",
    });
    helps.set(command, text);
  }
  return text;
}

/** The commands and their aliases clasp lists ("create-script|create" gives both). */
function commands(): Set<string> {
  const list = help("").split("Commands:")[1] ?? "";
  return new Set([...list.matchAll(/^\s{2}([\w|-]+)/gm)].flatMap((m) => (m[1] ?? "").split("|")));
}

/** The words of each `npx clasp …` the guide gives, in code spans and blocks. */
function guideCommands(): string[][] {
  const found = [...guide.matchAll(/npx clasp ([^`\n#]+)/g)].map((m) =>
    (m[1] ?? "").trim().replace(/[.,;)]+$/, ""),
  );
  return found.map((text) => text.split(/\s+/));
}

/** The flags of `words` (after the command name) that neither the command nor clasp lists. */
function unknownFlags(words: string[]): string[] {
  const [command = "", ...rest] = words;
  const own = help(command);
  const global = help("");
  return rest
    .filter((w) => w.startsWith("-"))
    .filter(
      (flag) =>
        !new RegExp(`(^|[\\s,])${flag.replace(/[-]/g, "\\-")}([\\s,=<]|$)`, "m").test(`${own}\n${global}`),
    );
}

describe("the deploy guide against clasp's own help", { timeout: 300_000 }, () => {
  it("gives clasp commands the installed clasp has, with flags it lists", () => {
    const given = guideCommands();
    expect(given.length).toBeGreaterThan(4);
    const known = commands();
    for (const words of given) {
      expect(known, `npx clasp ${words.join(" ")}`).toContain(words[0]);
      expect(unknownFlags(words), `npx clasp ${words.join(" ")}`).toEqual([]);
    }
  });

  it("says what clasp login --no-localhost asks for: the redirected URL, pasted", () => {
    expect(help("login")).toMatch(/--no-localhost/);
    const source = readFileSync(
      join(root, "node_modules/@google/clasp/build/src/auth/serverless_auth_code_flow.js"),
      "utf8",
    );
    expect(source).toContain("copy the URL from your browser and paste it here");
    expect(guide).toMatch(/--no-localhost`[^.]*paste[^.]*URL/);
  });

  it("does not tell anyone to run clasp create where a .clasp.json exists (clasp refuses: Project file already exists)", () => {
    const create = readFileSync(
      join(root, "node_modules/@google/clasp/build/src/commands/create-script.js"),
      "utf8",
    );
    expect(create).toContain("Project file already exists.");
    expect(guide).toContain("an empty folder");
  });

  it("runs, in npm run deploy, only clasp commands and flags clasp lists", () => {
    const all = [
      [],
      ["--version", "v"],
      ["--deploy", "d"],
      ["--deploy", "d", "--deployment-id", "AKfy"],
      ["--target", "prod", "--version", "v"],
    ].flatMap((args) => deploySteps(parseDeployArgs(args)).filter((s) => s.command === "clasp"));
    const known = commands();
    for (const step of all) {
      // A global option and its value come first (--project file), then the command.
      const words = step.args[0] === "--project" ? step.args.slice(2) : step.args;
      expect(known).toContain(words[0]);
      expect(unknownFlags(words), step.args.join(" ")).toEqual([]);
    }
  });
});
