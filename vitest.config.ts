import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Both cores: most files wait on child processes, DuckDB or threads, not on this process.
    maxWorkers: 2,
    globalSetup: ["test/helpers/build-dist.ts", "test/helpers/temp-root.ts"],
    env: { TZ: "UTC" },
  },
});
