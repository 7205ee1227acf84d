/**
 * `npm run deploy`: type-check, lint and test (`npm test`, which builds dist/ first), then
 * `clasp push` dist/; optionally make a version of what was pushed, or a deployment.
 *
 *   npm run deploy                                   checks, push
 *   npm run deploy -- --version "notes"              … then clasp create-version "notes"
 *   npm run deploy -- --deploy "notes"               … then clasp create-deployment (clasp makes
 *                                                    the version it deploys)
 *   npm run deploy -- --deploy "notes" --deployment-id ID
 *                                                    … moves an existing deployment to a new
 *                                                    version (its id, and so its users, stay)
 *   --target dev | prod                              uses .clasp.dev.json or .clasp.prod.json
 *                                                    (clasp --project) instead of .clasp.json
 *   --dry-run                                        prints the steps, runs nothing
 *
 * Once clasp has made a version, the deploy prints the next step with its number: an editor
 * add-on's Marketplace listing names a script version, entered by hand on the Marketplace SDK's
 * App Configuration page after every release (docs/deploy.md).
 *
 * The committed .clasp.json holds a placeholder script id, which this script refuses: a deployer
 * puts a real id in it and keeps it out of commits (`git update-index --skip-worktree
 * .clasp.json`), or keeps a test and a production script apart in .clasp.dev.json and
 * .clasp.prod.json, which git ignores, and chooses one with --target (docs/deploy.md). Nothing
 * else (build, tests) reads these files.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const PLACEHOLDER_SCRIPT_ID = "REPLACE_WITH_YOUR_SCRIPT_ID";

/** The script a deployment goes to: a test (dev) or a production (prod) script, each in its file. */
export const TARGETS = ["dev", "prod"] as const;
export type DeployTarget = (typeof TARGETS)[number];

/** The clasp project file of `target` (.clasp.json without one). */
export function claspFile(target: DeployTarget | undefined): string {
  return target === undefined ? ".clasp.json" : `.clasp.${target}.json`;
}

export interface DeployOptions {
  /** Description of a version to create after the push. */
  version?: string;
  /** Description of a deployment to create (or update) after the push. */
  deploy?: string;
  /** Existing deployment to move to the new version instead of creating another. */
  deploymentId?: string;
  /** Which clasp project file to use (.clasp.dev.json, .clasp.prod.json); .clasp.json without. */
  target?: DeployTarget;
  dryRun: boolean;
}

/** One command of the deployment, in the order they run. */
export interface DeployStep {
  what: string;
  command: "npm" | "clasp";
  args: string[];
  /** It makes a version (create-version, create-deployment): its number is read from clasp's output. */
  makesVersion?: boolean;
}

/**
 * The number of the version clasp says it made: "Created version 7" (create-version) or
 * "Deployed AKfy… @7" (create-deployment); null when its output names none.
 */
export function versionMade(claspOutput: string): number | null {
  const match = /Created version (\d+)/.exec(claspOutput) ?? /Deployed \S+ @(\d+)/.exec(claspOutput);
  return match ? Number(match[1]) : null;
}

/** What the deployer does next, once a version is made: the listing takes its number by hand. */
export function nextStepAfterVersion(version: number | null): string[] {
  const number =
    version === null ? "the new version's number (npx clasp list-versions lists them)" : `${version}`;
  return [
    `deploy: version ${version ?? "made"}. Next step, for the published add-on: in the Google Cloud console, APIs & Services → Google Workspace Marketplace SDK → App Configuration, under Sheets add-on, enter ${number} as the script version and Save.`,
    "deploy: users get it the next time they open a spreadsheet; until you save it there, the listing keeps the version it names (keep the same Script ID: a listing pointed at another script or deployment disables users' installed triggers).",
  ];
}

/** Reads the command line (`npm run deploy -- …`); throws a message naming the bad argument. */
export function parseDeployArgs(argv: readonly string[]): DeployOptions {
  const options: DeployOptions = { dryRun: false };
  const valueAfter = (i: number, flag: string): string => {
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a value.`);
    return value;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--version") options.version = valueAfter(i++, arg);
    else if (arg === "--deploy") options.deploy = valueAfter(i++, arg);
    else if (arg === "--deployment-id") options.deploymentId = valueAfter(i++, arg);
    else if (arg === "--target") {
      const target = valueAfter(i++, arg);
      if (!(TARGETS as readonly string[]).includes(target)) {
        throw new Error(`--target: must be ${TARGETS.join(" or ")}, got "${target}".`);
      }
      options.target = target as DeployTarget;
    } else
      throw new Error(
        `Unknown argument ${arg}. Use --version "notes", --deploy "notes" [--deployment-id ID], --target dev|prod, --dry-run.`,
      );
  }
  if (options.version !== undefined && options.deploy !== undefined) {
    throw new Error("Use --version or --deploy, not both: --deploy already makes the version it deploys.");
  }
  if (options.deploymentId !== undefined && options.deploy === undefined) {
    throw new Error('--deployment-id goes with --deploy "notes".');
  }
  return options;
}

/**
 * Checks the clasp project file the deployment uses (.clasp.json, or the target's): present,
 * with a real script id, pushing dist/. Returns the problem in words, or null when it is fine.
 */
export function claspProjectProblem(root: string, target?: DeployTarget): string | null {
  const name = claspFile(target);
  const file = join(root, name);
  if (!existsSync(file)) {
    return target === undefined
      ? "No .clasp.json: restore it (git checkout .clasp.json) and put your script's id in it (docs/deploy.md)."
      : `No ${name} for --target ${target}: copy .clasp.json to ${name} and put the ${target} script's id in it (docs/deploy.md).`;
  }
  let config: { scriptId?: unknown; rootDir?: unknown };
  try {
    config = JSON.parse(readFileSync(file, "utf8")) as typeof config;
  } catch {
    return `${name} is not valid JSON.`;
  }
  if (
    typeof config.scriptId !== "string" ||
    config.scriptId === "" ||
    config.scriptId === PLACEHOLDER_SCRIPT_ID
  ) {
    return `${name} has no script id: replace ${PLACEHOLDER_SCRIPT_ID} with your script's id (docs/deploy.md).`;
  }
  if (config.rootDir !== "dist") {
    return `${name} must keep "rootDir": "dist" (clasp pushes only what the build puts there).`;
  }
  return null;
}

/** The commands of a deployment: every check before the push, the push before any version. */
export function deploySteps(options: DeployOptions): DeployStep[] {
  // clasp's global --project names the project file; without a target clasp finds .clasp.json.
  const project = options.target === undefined ? [] : ["--project", claspFile(options.target)];
  const steps: DeployStep[] = [
    { what: "build, type-check, lint and test", command: "npm", args: ["test"] },
    { what: "push dist/ to Apps Script", command: "clasp", args: [...project, "push", "--force"] },
  ];
  if (options.version !== undefined) {
    steps.push({
      what: "create a version",
      command: "clasp",
      args: [...project, "create-version", options.version],
      makesVersion: true,
    });
  }
  if (options.deploy !== undefined) {
    const args = [...project, "create-deployment", "--description", options.deploy];
    if (options.deploymentId !== undefined) args.push("--deploymentId", options.deploymentId);
    steps.push({
      what: options.deploymentId === undefined ? "create a deployment" : "update the deployment",
      command: "clasp",
      args,
      makesVersion: true,
    });
  }
  return steps;
}

/** Runs a step; a step that makes a version has its output read (and shown) for the number. */
function run(root: string, step: DeployStep): { status: number; output: string } {
  const bin = step.command === "clasp" ? join(root, "node_modules", ".bin", "clasp") : "npm";
  const result = spawnSync(bin, step.args, {
    cwd: root,
    stdio: step.makesVersion ? ["inherit", "pipe", "inherit"] : "inherit",
    shell: process.platform === "win32",
    encoding: "utf8",
  });
  const output = typeof result.stdout === "string" ? result.stdout : "";
  if (output) process.stdout.write(output);
  return { status: result.status ?? 1, output };
}

function main(argv: readonly string[]): number {
  const root = resolve(import.meta.dirname, "..");
  let options: DeployOptions;
  try {
    options = parseDeployArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const problem = claspProjectProblem(root, options.target);
  if (problem !== null) {
    console.error(problem);
    return 1;
  }
  for (const step of deploySteps(options)) {
    console.log(`deploy: ${step.what}: ${step.command} ${step.args.join(" ")}`);
    if (options.dryRun) continue;
    const { status, output } = run(root, step);
    if (status !== 0) {
      console.error(`deploy: stopped, "${step.what}" failed (exit ${status}); nothing after it ran.`);
      return status;
    }
    if (step.makesVersion) for (const line of nextStepAfterVersion(versionMade(output))) console.log(line);
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
