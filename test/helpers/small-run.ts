/** A small experiment over a corpus subset, graded once per test file into a temp DuckDB. */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CORPUS_DIR, DATA_DIR } from "./data.ts";

export const CLI = resolve("bin/tau-rescore.js");

export const SMALL_CORPUS = [
  "sierra-tau2-bench__pr170-tau2-trace",
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_retail_defautl_gpt-4.1_1trials.json",
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_telecom_default_gpt-4.1_1trials.json",
  "sierra-tau2-bench__pr448-whissle/airline_run1.json",
];

export function smallExperiment(files: readonly string[] = SMALL_CORPUS): {
  experiment: string;
  dir: string;
} {
  const dir = mkdtempSync(join(tmpdir(), "tr-run-"));
  for (const f of files) cpSync(join(CORPUS_DIR, f), join(dir, "corpus", f), { recursive: true });
  mkdirSync(join(dir, "experiments"));
  const experiment = join(dir, "experiments", "small.json");
  writeFileSync(
    experiment,
    JSON.stringify({
      name: "small",
      roots: { corpus: "../corpus", data: DATA_DIR, output: "../out", repo: resolve(".") },
      corpus: ["."],
      output: "small.duckdb",
      corrections: true,
      ranking: { min_task_coverage: 0.5, bootstrap_samples: 50, seed: 1 },
    }),
  );
  return { experiment, dir };
}

/**
 * Writes a small experiment config at `path`: the corpus folder `corpus` and the output beside it,
 * τ³ only. `over` replaces top-level keys (an undefined value drops one), `roots` single roots.
 */
export function writeExperiment(
  path: string,
  over: Record<string, unknown> = {},
  roots: Record<string, string> = {},
): string {
  writeFileSync(
    path,
    JSON.stringify({
      name: "x",
      roots: { corpus: "corpus", data: DATA_DIR, output: ".", repo: resolve("."), ...roots },
      corpus: ["."],
      output: "x.duckdb",
      graders: ["tau3"],
      ...over,
    }),
  );
  return path;
}

export const cli = (args: readonly string[], env: Record<string, string> = {}) => {
  const e: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete e.TAU2_DATA_DIR;
  return spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: e });
};
