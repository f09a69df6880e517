/** `run` refusing an experiment config: one line naming the file, exit 2, and no store written. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";

/** Runs the experiment `file` (its store is `x.duckdb` beside it) and expects it refused with `pattern`. */
export async function expectRefused(file: string, pattern: RegExp): Promise<void> {
  const r = await runInProcess(registerRunCommand, ["run", file], { TAU2_DATA_DIR: DATA_DIR });
  expect(r.code).toBe(2);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`${file}: `);
  expect(lines[0]).toMatch(pattern);
  expect(existsSync(join(file, "..", "x.duckdb"))).toBe(false);
}
