import { defineConfig } from "vitest/config";
import LongFilesFirst from "./test/support/long-files-first.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits up to 15 s (vitest's default is 1 s): on 2 shared cores a page's answer
    // can take longer than a second to be drawn, and a poll only ever waits for what it expects.
    expect: { poll: { timeout: 15_000 } },
    pool: "forks",
    // Three test files at a time on the 2-core machines the suite runs on: a file is never busy
    // all the time (the browser tests wait on Chromium about half of theirs, the emulated ones
    // on the sandbox's thread), and a third keeps both cores at work (measured: 409 s with two,
    // 382 s with three). Files share nothing but read-only builds: each starts its own sandbox
    // and emulator on ports of their own, and the builds in the temporary folder are written
    // aside and renamed (dev/bench/build.ts, dev/shared/thread-file.ts).
    maxWorkers: 3,
    // A worker runs its files one after another in one module graph instead of importing
    // vitest, src/ and dev/ again for each (measured on 85 files of test/outbox, sheets,
    // settings, refresh and api: import 54 s -> 19 s, 67 s -> 40 s of wall time). Safe here
    // because no test mocks a module or stubs a global (none uses vi.mock, vi.stubGlobal or fake
    // timers), every emulated file starts its own emulator and sandbox and closes them, and the
    // add-on's own module state lives in each execution's fresh realm, not in the worker.
    isolate: false,
    // The files known to take longest start first (test/support/long-files-first.ts).
    sequence: { sequencer: LongFilesFirst },
    // The default reporter, then the ten slowest files (test/support/slowest-files.ts).
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
