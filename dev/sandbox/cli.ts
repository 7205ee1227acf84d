/**
 * `npm run sandbox [-- --port 8787 --seed 42 --funds 40 --reports 300 --latency 0]`: starts the
 * sandbox and prints, first and one per line, `API: <url>`, `Token: <token>`, `Admin id: <id>`.
 */
import { parseArgs } from "node:util";
import { startSandbox } from "./index";

const FLAGS = ["port", "seed", "funds", "reports", "latency", "employees"] as const;

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
    },
    strict: true,
  });
  const v = values as Record<string, string | undefined>;
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
  });
  console.log(`API: ${running.url}`);
  console.log(`Token: ${running.token}`);
  console.log(`Admin id: ${running.adminId}`);
  console.log(`Manager id: ${running.managerId}`);
  console.log(`Control: ${running.origin}/_sandbox (users, state, reset, faults)`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
