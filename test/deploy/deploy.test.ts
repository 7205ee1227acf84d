/**
 * `npm run deploy`: every check runs before `clasp push`, a version or a deployment only after
 * it; the script id comes from .clasp.json (committed with a placeholder the deploy refuses) or,
 * with --target dev|prod, from .clasp.dev.json / .clasp.prod.json (ignored by git), which nothing
 * else needs.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  claspProjectProblem,
  deploySteps,
  nextStepAfterVersion,
  PLACEHOLDER_SCRIPT_ID,
  parseDeployArgs,
  versionMade,
} from "../../scripts/deploy";
import { tsxArgs } from "../support/tsx";

const root = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];

function scratch(clasp?: object, file = ".clasp.json"): string {
  const dir = mkdtempSync(join(tmpdir(), "deploy-"));
  dirs.push(dir);
  mkdirSync(join(dir, "scripts"));
  copyFileSync(join(root, "scripts", "deploy.ts"), join(dir, "scripts", "deploy.ts"));
  if (clasp) writeFileSync(join(dir, file), JSON.stringify(clasp));
  return dir;
}

/**
 * `npm run deploy -- …args` as a deployer types it, in a copy of the project holding only the
 * script: its exit status and what it printed, once it has ended (the tests that start it run
 * side by side, each in a folder of its own).
 */
function deploy(dir: string, args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, tsxArgs(join(dir, "scripts", "deploy.ts"), args), { cwd: dir });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", fail);
    child.on("close", (status) => done({ status, out, err }));
  });
}

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("npm run deploy", () => {
  it("is scripts/deploy.ts", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["deploy"]).toBe("tsx scripts/deploy.ts");
  });

  it("type-checks, lints and tests (npm test) before clasp push, and pushes with nothing after it by default", () => {
    expect(deploySteps(parseDeployArgs([]))).toEqual([
      { what: "build, type-check, lint and test", command: "npm", args: ["test"] },
      { what: "push dist/ to Apps Script", command: "clasp", args: ["push", "--force"] },
    ]);
    const test = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.test as string;
    expect(test).toMatch(/npm run build/);
    expect(test).toMatch(/npm run typecheck/);
    expect(test).toMatch(/npm run lint/);
    expect(test).toMatch(/vitest run/);
  });

  it("creates a version of what it pushed with --version", () => {
    const steps = deploySteps(parseDeployArgs(["--version", "1.2: schedule fixes"]));
    expect(steps.map((s) => s.args[0])).toEqual(["test", "push", "create-version"]);
    expect(steps[2]?.args).toEqual(["create-version", "1.2: schedule fixes"]);
  });

  it("creates a deployment with --deploy, or moves an existing one with --deployment-id", () => {
    expect(deploySteps(parseDeployArgs(["--deploy", "1.3"]))[2]?.args).toEqual([
      "create-deployment",
      "--description",
      "1.3",
    ]);
    expect(deploySteps(parseDeployArgs(["--deploy", "1.3", "--deployment-id", "AKfy123"]))[2]?.args).toEqual([
      "create-deployment",
      "--description",
      "1.3",
      "--deploymentId",
      "AKfy123",
    ]);
  });

  it("refuses arguments it does not know, a flag without its value, and --version with --deploy", () => {
    expect(() => parseDeployArgs(["--force"])).toThrow(/Unknown argument --force/);
    expect(() => parseDeployArgs(["--version"])).toThrow(/--version needs a value/);
    expect(() => parseDeployArgs(["--deploy", "--dry-run"])).toThrow(/--deploy needs a value/);
    expect(() => parseDeployArgs(["--version", "a", "--deploy", "b"])).toThrow(/not both/);
    expect(() => parseDeployArgs(["--deployment-id", "AKfy"])).toThrow(/goes with --deploy/);
    expect(() => parseDeployArgs(["--target", "staging"])).toThrow(
      /--target: must be dev or prod, got "staging"/,
    );
    expect(() => parseDeployArgs(["--target"])).toThrow(/--target needs a value/);
  });

  it("with --target gives every clasp step the target's project file (clasp --project)", () => {
    const steps = deploySteps(
      parseDeployArgs(["--target", "prod", "--deploy", "1.4", "--deployment-id", "AKfy9"]),
    );
    expect(steps.map((s) => s.args)).toEqual([
      ["test"],
      ["--project", ".clasp.prod.json", "push", "--force"],
      [
        "--project",
        ".clasp.prod.json",
        "create-deployment",
        "--description",
        "1.4",
        "--deploymentId",
        "AKfy9",
      ],
    ]);
    expect(deploySteps(parseDeployArgs(["--target", "dev", "--version", "try"]))[2]?.args).toEqual([
      "--project",
      ".clasp.dev.json",
      "create-version",
      "try",
    ]);
  });

  it("reads the version clasp made from what it prints, and names where its number goes", () => {
    expect(versionMade("Creating a new version...\nCreated version 12\n")).toBe(12);
    expect(versionMade("Deployed AKfycbx123 @4\n")).toBe(4);
    expect(versionMade("Deployed AKfycbx123 @HEAD\n")).toBeNull();
    expect(nextStepAfterVersion(12)[0]).toContain("enter 12 as the script version and Save");
    expect(nextStepAfterVersion(null)[0]).toContain("npx clasp list-versions");
  });

  it("matches clasp 3's own commands and flags", () => {
    const commands = join(root, "node_modules", "@google", "clasp", "build", "src", "commands");
    const push = readFileSync(join(commands, "push.js"), "utf8");
    const version = readFileSync(join(commands, "create-version.js"), "utf8");
    const deployment = readFileSync(join(commands, "create-deployment.js"), "utf8");
    expect(push).toContain("'-f, --force'");
    expect(version).toContain("new Command('create-version')");
    expect(version).toContain(".arguments('[description]')");
    expect(deployment).toContain("new Command('create-deployment')");
    expect(deployment).toContain("'-d, --description <description>'");
    expect(deployment).toContain("'-i, --deploymentId <id>'");
    const program = readFileSync(join(commands, "program.js"), "utf8");
    expect(program).toContain("'-P, --project <file>'");
  });
});

// Some of these start the deploy script with tsx, a few seconds each on a busy machine: they run
// side by side.
describe.concurrent("the script id", { timeout: 60_000 }, () => {
  it("ships as .clasp.json at the top level, pushing dist/, with a placeholder id", () => {
    const committed = execFileSync("git", ["show", "HEAD:.clasp.json"], { cwd: root, encoding: "utf8" });
    expect(JSON.parse(committed)).toEqual({ scriptId: PLACEHOLDER_SCRIPT_ID, rootDir: "dist" });
    const tracked = execFileSync("git", ["ls-files", ".clasp.json", ".clasp.json.example"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(tracked.trim().split("\n")).toEqual([".clasp.json"]);
  });

  it("keeps the real ids of a test and a production script in files git ignores", () => {
    for (const file of [".clasp.dev.json", ".clasp.prod.json"]) {
      const ignored = spawnSync("git", ["check-ignore", "-q", file], { cwd: root });
      expect(ignored.status, file).toBe(0);
    }
    const committed = spawnSync("git", ["check-ignore", "-q", "--no-index", ".clasp.json"], { cwd: root });
    expect(committed.status).toBe(1);
  });

  it("refuses the committed .clasp.json as it is: its id is the placeholder", async () => {
    const dir = scratch();
    copyFileSync(join(root, ".clasp.json"), join(dir, ".clasp.json"));
    const { status, out, err } = await deploy(dir, ["--dry-run"]);
    expect(status).toBe(1);
    expect(err).toContain(
      `.clasp.json has no script id: replace ${PLACEHOLDER_SCRIPT_ID} with your script's id`,
    );
    expect(out).toBe("");
  });

  it("with --target prod reads .clasp.prod.json, not .clasp.json, and refuses when it is missing", async () => {
    const dir = scratch({ scriptId: "1prodID", rootDir: "dist" }, ".clasp.prod.json");
    copyFileSync(join(root, ".clasp.json"), join(dir, ".clasp.json"));
    const [prod, dev] = await Promise.all([
      deploy(dir, ["--dry-run", "--target", "prod"]),
      deploy(dir, ["--dry-run", "--target", "dev"]),
    ]);
    expect(prod.status).toBe(0);
    expect(prod.out).toContain("clasp --project .clasp.prod.json push --force");
    expect(dev.status).toBe(1);
    expect(dev.err).toContain("No .clasp.dev.json for --target dev: copy .clasp.json to .clasp.dev.json");
    expect(dev.out).toBe("");
    expect(claspProjectProblem(dir, "prod")).toBeNull();
    expect(claspProjectProblem(dir)).toMatch(/has no script id/);
  });

  it("is needed by nothing but clasp: no build, test or tool reads .clasp.json", () => {
    const readers = spawnSync(
      "git",
      [
        "grep",
        "-l",
        "-e",
        '.clasp.json"',
        "-e",
        ".clasp.json'",
        "--",
        "scripts",
        "src",
        "dev",
        "test",
        "vitest.config.ts",
      ],
      { cwd: root, encoding: "utf8" },
    );
    const files = readers.stdout.trim().split("\n").filter(Boolean);
    expect(files.filter((f) => f !== "scripts/deploy.ts" && !f.startsWith("test/deploy/"))).toEqual([]);
  });

  it("stops the deploy before anything runs when .clasp.json is missing, saying how to restore it", async () => {
    const dir = scratch();
    const { status, out, err } = await deploy(dir, ["--dry-run"]);
    expect(status).toBe(1);
    expect(err).toContain("restore it (git checkout .clasp.json)");
    expect(out).toBe("");
    expect(claspProjectProblem(dir)).toMatch(/No .clasp.json/);
  });

  it("stops the deploy when .clasp.json still holds the placeholder or pushes another folder", async () => {
    const [placeholder, otherRoot] = await Promise.all([
      deploy(scratch({ scriptId: PLACEHOLDER_SCRIPT_ID, rootDir: "dist" }), ["--dry-run"]),
      deploy(scratch({ scriptId: "1abcDEF", rootDir: "src" }), ["--dry-run"]),
    ]);
    expect(placeholder.status).toBe(1);
    expect(placeholder.err).toContain(`replace ${PLACEHOLDER_SCRIPT_ID}`);
    expect(otherRoot.status).toBe(1);
    expect(otherRoot.err).toContain('"rootDir": "dist"');
  });

  it("runs the steps in order once .clasp.json names a script (dry run)", async () => {
    const dir = scratch({ scriptId: "1abcDEF", rootDir: "dist" });
    const { status, out } = await deploy(dir, ["--dry-run", "--deploy", "1.3", "--deployment-id", "AKfy123"]);
    expect(status).toBe(0);
    expect(out.trim().split("\n")).toEqual([
      "deploy: build, type-check, lint and test: npm test",
      "deploy: push dist/ to Apps Script: clasp push --force",
      "deploy: update the deployment: clasp create-deployment --description 1.3 --deploymentId AKfy123",
    ]);
    expect(existsSync(join(dir, "dist"))).toBe(false);
  });

  it("after clasp makes a version, prints the next step with its number: the Marketplace SDK's App Configuration", async () => {
    const dir = scratch({ scriptId: "1abcDEF", rootDir: "dist" });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "x", private: true, scripts: { test: 'node -e "process.exit(0)"' } }),
    );
    // A clasp that answers as clasp 3 does, without reaching Google.
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    const fake = join(dir, "node_modules", ".bin", "clasp");
    writeFileSync(
      fake,
      '#!/bin/sh\ncase "$1" in create-version) echo "Created version 7" ;; *) echo "Pushed 5 files." ;; esac\n',
      { mode: 0o755 },
    );
    const { status, out } = await deploy(dir, ["--version", "1.1: fixes"]);
    expect(status).toBe(0);
    expect(out).toContain("Created version 7");
    expect(out).toContain(
      "Google Workspace Marketplace SDK → App Configuration, under Sheets add-on, enter 7 as the script version and Save.",
    );
    // Nothing of the kind after a plain push.
    expect((await deploy(dir, [])).out).not.toContain("App Configuration");
  });

  it("stops at the first failing step: no push after a failed check", async () => {
    const dir = scratch({ scriptId: "1abcDEF", rootDir: "dist" });
    // A project whose tests fail: npm test exits 1.
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "x", private: true, scripts: { test: 'node -e "process.exit(3)"' } }),
    );
    const { status, out, err } = await deploy(dir, []);
    expect(status).toBe(3);
    expect(out).toContain("deploy: build, type-check, lint and test: npm test");
    expect(out).not.toContain("clasp push");
    expect(err).toContain('stopped, "build, type-check, lint and test" failed (exit 3)');
  });
});
