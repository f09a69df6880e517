/** `scripts/inspect-scale.ts` on a few files: one timing line, and a failure past the time limit. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DATA_DIR } from "../helpers/data.ts";

const inspectScale = (...args: string[]) =>
  spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/inspect-scale.ts", ...args, "--data-dir", DATA_DIR],
    { encoding: "utf8" },
  );

describe("inspect-scale", () => {
  it("times corpus inspect on N one-simulation files read as one run", () => {
    const r = inspectScale("30");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^inspect-scale: 30 files in \d+\.\d s\n$/);
  }, 120_000);

  it("fails over the time limit", () => {
    const r = inspectScale("3", "--max-seconds", "0.001");
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/inspect-scale: 3 files: stopped after|over the 0\.001 s limit/);
  }, 120_000);
});
