import { defineConfig } from "vitest/config";
import LongFilesFirst from "./test/support/long-files-first.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two test files at a time, one per core of the 2-core machines the suite runs on (vitest's
    // default, the cores less one, ran them one after the other). Files share nothing but
    // read-only builds: each starts its own sandbox and emulator on ports of their own, and the
    // builds in the temporary folder are written aside and renamed (dev/bench/build.ts,
    // dev/sandbox/index.ts).
    maxWorkers: 2,
    // The files known to take longest start first (test/support/long-files-first.ts).
    sequence: { sequencer: LongFilesFirst },
    // The default reporter, then the ten slowest files (test/support/slowest-files.ts).
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
