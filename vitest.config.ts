import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The default reporter, then the ten slowest files (test/support/slowest-files.ts).
    reporters: ["default", "./test/support/slowest-files.ts"],
  },
});
