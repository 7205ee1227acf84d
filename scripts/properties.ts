/**
 * `npm run properties`: the Outbox's property over many cases of a fresh seed (10,000 by
 * default), printing the seed first so a failure can be run again with `-- --seed N`. CI runs the
 * fixed seed of test/outbox/properties.test.ts; this is the longer run made before each release.
 *
 *   npm run properties                      a seed from the clock, 10,000 cases
 *   npm run properties -- --seed 40001 --runs 2000
 *   npm run properties -- --rounds 3        three seeds one after another
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    runs: { type: "string", default: "10000" },
    rounds: { type: "string", default: "1" },
  },
});
const rounds = Number(values.rounds);
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number above 0, not ${values.runs}`);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a whole number above 0, not ${values.rounds}`);

let failed = 0;
for (let round = 0; round < rounds; round += 1) {
  const seed =
    values.seed !== undefined && round === 0 ? Number(values.seed) : (Date.now() + round * 7919) % 2 ** 31;
  console.log(`Property seed: ${seed} (${runs} cases)`);
  const result = spawnSync(
    "npx",
    ["vitest", "run", "test/outbox/properties.test.ts", "--testTimeout=0", "--reporter=dot"],
    { stdio: "inherit", env: { ...process.env, PROPERTY_SEED: String(seed), PROPERTY_RUNS: String(runs) } },
  );
  if (result.status !== 0) {
    failed += 1;
    console.log(
      `Property seed ${seed} failed: run it again with npm run properties -- --seed ${seed} --runs ${runs}`,
    );
  }
}
process.exit(failed > 0 ? 1 : 0);
