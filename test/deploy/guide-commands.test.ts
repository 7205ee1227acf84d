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
const guide = readFileSync(join(root, "docs", "deploy.md"), "utf8");

/**
 * The help clasp prints for `clasp --help` ("") and `clasp <command> --help`, for each of
 * `names`: the installed clasp's own program (the one its bin parses the arguments with), each
 * command's help written as --help writes it, all in one node process instead of one a command
 * (loading clasp is most of a help's time). A name clasp has no command for has no help.
 */
const HELPS_SCRIPT = `
import { pathToFileURL } from "node:url";
const [programJs, ...names] = process.argv.slice(1);
const { makeProgram } = await import(pathToFileURL(programJs).href);
const program = makeProgram();
const helps = {};
for (const name of names) {
  const command = name === "" ? program : program.commands.find((c) => c.name() === name || c.aliases().includes(name));
  if (!command) continue;
  let text = "";
  command.configureOutput({ writeOut: (s) => { text += s; }, writeErr: (s) => { text += s; } });
  command.outputHelp();
  helps[name] = text;
}
process.stdout.write(JSON.stringify(helps));
`;
function claspHelps(names: string[]): Map<string, string> {
  const programJs = join(root, "node_modules/@google/clasp/build/src/commands/program.js");
  const out = execFileSync(
    process.execPath,
    ["--input-type=module", "-e", HELPS_SCRIPT, programJs, ...names],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  return new Map(Object.entries(JSON.parse(out) as Record<string, string>));
}

let helps: Map<string, string> | undefined;
/** clasp's own help: of the program (""), or of one command (read once for every command used here). */
function help(command: string): string {
  helps ??= claspHelps([
    "",
    "login",
    ...guideCommands().map((w) => w[0] ?? ""),
    ...deployCommands().map((w) => w[0] ?? ""),
  ]);
  const text = helps.get(command);
  if (text === undefined) throw new Error(`clasp has no command ${command}`);
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

/**
 * The words of each clasp step `npm run deploy` runs, whatever its arguments, after a global
 * option and its value (--project file), which come first.
 */
function deployCommands(): string[][] {
  return [
    [],
    ["--version", "v"],
    ["--deploy", "d"],
    ["--deploy", "d", "--deployment-id", "AKfy"],
    ["--target", "prod", "--version", "v"],
  ]
    .flatMap((args) => deploySteps(parseDeployArgs(args)).filter((s) => s.command === "clasp"))
    .map((step) => (step.args[0] === "--project" ? step.args.slice(2) : step.args));
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
  it("reads the help of the program the installed clasp's bin parses its arguments with", () => {
    const clasp = join(root, "node_modules/@google/clasp");
    const bin = (JSON.parse(readFileSync(join(clasp, "package.json"), "utf8")) as { bin: { clasp: string } })
      .bin.clasp;
    const main = readFileSync(join(clasp, bin), "utf8");
    expect(main).toContain("import { makeProgram } from './commands/program.js';");
    expect(main).toContain("await program.parseAsync(process.argv);");
    expect(help("")).toMatch(/^Usage: clasp /);
  });

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
    const known = commands();
    const all = deployCommands();
    expect(all.length).toBeGreaterThan(4);
    for (const words of all) {
      expect(known).toContain(words[0]);
      expect(unknownFlags(words), words.join(" ")).toEqual([]);
    }
  });
});
