/**
 * `npm start`: the playground. Starts the bundled sandbox on a worker thread with demo data for
 * two companies, Alpha and Beta (`--companies N`: 1 to 10; 1 is the one-company demo), or uses
 * `--api-url URL --token T --admin-id N` (one company, the first), builds dist/ if it is missing,
 * runs the add-on in the emulation on a worker thread with every company pre-stored (the
 * document's list of companies, set up by the default user, and each demo user's own token and
 * IdAdmin for each), serves the control API and the page, runs onOpen, and prints the page's URL.
 * It opens no browser. Everything listens on 127.0.0.1 (`--host` takes only another loopback
 * address), and a token given with --token is never shown in full (GET /control/info gives its
 * last four characters; the caller has it already).
 *
 *   npm start -- --port 8080
 *   npm start -- --companies 1
 *   npm start -- --api-url https://api.example.com/v1 --token T --admin-id 1001
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isLoopbackHost } from "../emulator/local-only";
import { MAX_COMPANIES } from "../sandbox/companies";

const root = resolve(import.meta.dirname, "../..");

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const OPTIONS = {
  port: { type: "string", default: "8080" },
  host: { type: "string", default: "127.0.0.1" },
  "api-url": { type: "string" },
  token: { type: "string" },
  "admin-id": { type: "string" },
  user: { type: "string", multiple: true },
  companies: { type: "string" },
  /** The clock trigger without an active spreadsheet (the emulation's stricter default). */
  "trigger-without-spreadsheet": { type: "boolean", default: false },
} as const;

/** Companies of the demo with the bundled sandbox, unless --companies says otherwise. */
const DEMO_COMPANIES = 2;

function parseFlags() {
  try {
    return parseArgs({ options: OPTIONS, strict: true });
  } catch (err) {
    const known = Object.keys(OPTIONS)
      .map((name) => `--${name}`)
      .join(", ");
    return fail(`${err instanceof Error ? err.message : String(err)}. Options: ${known}`);
  }
}

function readOptions() {
  const { values } = parseFlags();
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`--port: must be a whole number from 0 to 65535, got "${values.port}"`);
  if (!isLoopbackHost(values.host as string)) {
    fail(
      `--host: the playground is reachable from this machine only: 127.0.0.1, ::1 or localhost, got "${values.host}"`,
    );
  }
  const external = [values["api-url"], values.token, values["admin-id"]];
  if (external.some((v) => v !== undefined) && external.some((v) => v === undefined)) {
    fail(
      "--api-url, --token and --admin-id go together: give all three to use another service, or none for the sandbox",
    );
  }
  const adminId = values["admin-id"] === undefined ? undefined : Number(values["admin-id"]);
  if (adminId !== undefined && (!Number.isInteger(adminId) || adminId < 1)) {
    fail(`--admin-id: must be a positive whole number, got "${values["admin-id"]}"`);
  }
  const given = values.companies;
  const companies = given === undefined ? undefined : Number(given);
  if (companies !== undefined && (!/^\d+$/.test(given ?? "") || companies < 1 || companies > MAX_COMPANIES)) {
    fail(`--companies: must be a whole number from 1 to ${MAX_COMPANIES}, got "${given}"`);
  }
  if (values["api-url"] !== undefined && companies !== undefined && companies > 1) {
    fail(
      "--companies: another service (--api-url) is one company, the one --token reaches; several companies need the bundled sandbox",
    );
  }
  return {
    port,
    host: values.host as string,
    apiUrl: values["api-url"],
    token: values.token,
    adminId,
    companies: companies ?? (values["api-url"] === undefined ? DEMO_COMPANIES : 1),
    triggerWithoutSpreadsheet: values["trigger-without-spreadsheet"] === true,
    users:
      values.user && values.user.length > 0
        ? values.user
        : ["treasurer@example.com", "accountant@example.com"],
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  // The sandbox, the emulation and the page's build load once the flags are good: a mistyped
  // flag is told at once, without loading them.
  const [
    { startControlServer },
    { EmulatorHost },
    { startSandboxThread },
    { buildPlaygroundAssets },
    routesModule,
  ] = await Promise.all([
    import("../emulator/control"),
    import("../emulator/host"),
    import("../sandbox/index"),
    import("./assets"),
    import("./routes"),
  ]);
  const { playgroundRoutes, sandboxOriginOf } = routesModule;
  if (!existsSync(join(root, "dist", "addon.js"))) {
    console.log("dist/ is missing: building the add-on…");
    const built = spawnSync(
      process.execPath,
      [join(root, "node_modules/tsx/dist/cli.mjs"), join(root, "scripts/build.ts")],
      {
        stdio: "inherit",
        cwd: root,
      },
    );
    if (built.status !== 0) fail("The build failed; see the messages above.");
  }

  // The bundled service writes its times on the spreadsheet's clock, as a service of the
  // company's own country would: a fund created now shows the time it is here.
  const sandbox = options.apiUrl
    ? undefined
    : await startSandboxThread({
        host: "127.0.0.1",
        timeZone: manifestTimeZone(join(root, "dist")),
        companies: options.companies,
      });
  const connection = sandbox
    ? { apiUrl: sandbox.url, token: sandbox.token, adminId: sandbox.adminId }
    : {
        apiUrl: options.apiUrl as string,
        token: options.token as string,
        adminId: options.adminId as number,
      };
  // With one company the spreadsheet stays a one-company spreadsheet (no list written, its
  // company unnamed), as today's; with several, each is named as the sandbox names it.
  const companies =
    sandbox && sandbox.companies.length > 1
      ? sandbox.companies.map((c) => ({
          name: c.name,
          apiUrl: sandbox.url,
          token: c.token,
          adminId: c.adminId,
        }))
      : undefined;

  const host = await EmulatorHost.start({
    emulator: {
      users: options.users,
      spreadsheetName: "Funds and expense reports",
      addonName: "Funds & Reports",
      // The demo's scheduled refresh runs as on a deployment whose clock trigger sees its
      // spreadsheet; --trigger-without-spreadsheet shows the stricter reading, where it fails
      // visibly (docs/real-apps-script.md).
      triggerSeesSpreadsheet: options.triggerWithoutSpreadsheet !== true,
    },
    connection: { ...connection, addOnName: "Funds & Reports", ...(companies ? { companies } : {}) },
    storeSettings: true,
    interactive: true,
  });
  const assets = await buildPlaygroundAssets(join(root, "dist"));
  const routes = playgroundRoutes({ sandboxOrigin: sandbox ? sandboxOriginOf(sandbox.url) : null });
  const server = await startControlServer({
    target: host,
    port: options.port,
    host: options.host,
    staticDir: assets.dir,
    routes,
    // The bundled sandbox's demo tokens are nobody's secret; one given with --token is.
    revealToken: sandbox !== undefined,
  }).catch(async (err: NodeJS.ErrnoException) => {
    await host.close();
    await sandbox?.close();
    assets.dispose();
    if (err.code === "EADDRINUSE")
      fail(`Port ${options.port} is in use: choose another with --port N (0 picks a free one).`);
    throw err;
  });

  console.log(`Service: ${connection.apiUrl}${sandbox ? " (bundled sandbox, demo data)" : ""}`);
  if (companies)
    console.log(`Companies: ${companies.map((c) => c.name).join(", ")} (one token each, saved for you)`);
  console.log(`Playground: ${server.url}/`);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    await host.close();
    await sandbox?.close();
    assets.dispose();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

await main();

/** The time zone of the built manifest (the spreadsheet's, as the emulation uses it). */
function manifestTimeZone(distDir: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(distDir, "appsscript.json"), "utf8")) as {
      timeZone?: unknown;
    };
    return typeof manifest.timeZone === "string" && manifest.timeZone ? manifest.timeZone : "UTC";
  } catch {
    return "UTC";
  }
}
