import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/helpers/build-dist.ts", "test/helpers/temp-root.ts"],
    env: { TZ: "UTC" },
  },
});
