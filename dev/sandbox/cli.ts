/**
 * `npm run sandbox [-- --port 8787 --seed 42 --funds 40 --reports 300 --latency 0 --shapes real
 * --integration-method POST]`: starts the
 * sandbox and prints, first and one per line, `API: <url>`, `Token: <token>`, `Admin id: <id>`.
 * With `--companies N` (2 or more), each company's lines carry its name instead:
 * `Token (Alpha): <token>`, `Admin id (Alpha): <id>`, `Manager id (Alpha): <id>`, then Beta's…
 * It listens on 127.0.0.1 unless `--host` asks otherwise. A token given with `--token` (the
 * first company's) is printed only by its last four characters (`Token: ••••abcd`): whoever gave
 * it has it already.
 */
import { parseArgs } from "node:util";
import { MAX_COMPANIES } from "./companies";
import { startSandbox } from "./index";
import { SHAPES, type Shapes } from "./real-shapes";

const FLAGS = ["port", "seed", "funds", "reports", "latency", "employees", "companies"] as const;

/** The token as printed: the demo token in full, a token given with --token by its last four characters. */
function shownToken(token: string, given: boolean): string {
  if (!given) return token;
  return token.length <= 4 ? "••••" : `••••${token.slice(-4)}`;
}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    console.error(`--${name}: must be a whole number (got "${value}")`);
    process.exit(2);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(FLAGS.map((f) => [f, { type: "string" as const }])),
      host: { type: "string" },
      token: { type: "string" },
      today: { type: "string" },
      shapes: { type: "string" },
      "time-zone": { type: "string" },
      "integration-method": { type: "string" },
    },
    strict: true,
  });
  const v = values as Record<string, string | undefined>;
  if (v.shapes !== undefined && !(SHAPES as readonly string[]).includes(v.shapes)) {
    console.error(`--shapes: must be one of ${SHAPES.join(", ")} (got "${v.shapes}")`);
    process.exit(2);
  }
  const integration = v["integration-method"];
  if (integration !== undefined && integration !== "PUT" && integration !== "POST") {
    console.error(`--integration-method: must be PUT or POST (got "${integration}")`);
    process.exit(2);
  }
  const companies = wholeNumber("companies", v.companies);
  if (companies !== undefined && (companies < 1 || companies > MAX_COMPANIES)) {
    console.error(`--companies: must be a whole number from 1 to ${MAX_COMPANIES} (got "${v.companies}")`);
    process.exit(2);
  }
  const running = await startSandbox({
    port: wholeNumber("port", v.port) ?? 8787,
    host: v.host ?? "127.0.0.1",
    seed: wholeNumber("seed", v.seed),
    funds: wholeNumber("funds", v.funds),
    reports: wholeNumber("reports", v.reports),
    employees: wholeNumber("employees", v.employees),
    latencyMs: wholeNumber("latency", v.latency),
    token: v.token,
    today: v.today,
    shapes: v.shapes as Shapes | undefined,
    timeZone: v["time-zone"],
    companies,
    integrationMethod: integration,
  });
  console.log(`API: ${running.url}`);
  // One company keeps the unlabelled lines that other tools read.
  const several = running.companies.length > 1;
  running.companies.forEach((company, i) => {
    const label = several ? ` (${company.name})` : "";
    console.log(`Token${label}: ${shownToken(company.token, i === 0 && v.token !== undefined)}`);
    console.log(`Admin id${label}: ${company.adminId}`);
    console.log(`Manager id${label}: ${company.managerId}`);
  });
  if (v.shapes === "real") console.log("Shapes: real (types vary as the real service's do)");
  const choose = several ? `; ?company=<name> picks one, default ${running.companies[0]?.name}` : "";
  console.log(`Control: ${running.origin}/_sandbox (users, state, reset, faults${choose})`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
