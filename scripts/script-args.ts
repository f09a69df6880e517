/** What the measurement scripts share: the corpus options and running a measurement in its own process. */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadExperiment, type ResolvedExperiment } from "../src/experiments/config.ts";
import { loadJsonFile } from "../src/formats/load.ts";
import type { TrajectoryFile } from "../src/formats/model.ts";
import { listInputFiles } from "../src/pipeline/inputs.ts";

/** `parseArgs` options for the corpus and the tau2 data dir (defaults: the shared reference data). */
export const corpusOptions = {
  corpus: { type: "string", default: resolve("../shared/corpus") },
  "data-dir": { type: "string", default: process.env.TAU2_DATA_DIR || resolve("../shared/tau2-data") },
} as const;

/** The default experiment over the given corpus and data dir. */
export const defaultExperiment = (args: { corpus: string; "data-dir": string }): ResolvedExperiment =>
  loadExperiment(resolve("experiments/default.json"), { corpus: [args.corpus], dataDir: args["data-dir"] });

/**
 * Runs `script` (a module URL) in a child Node process with `args` and parses the JSON it prints:
 * peak RSS is per process, so a measurement gets its own. `cwd`: where it runs (default: here).
 */
export function runInChild<T>(script: string, args: readonly string[], what: string, cwd?: string): T {
  const argv = [...process.execArgv, fileURLToPath(script), ...args];
  const child = spawnSync(process.execPath, argv, { encoding: "utf8", maxBuffer: 1 << 24, cwd });
  if (child.status !== 0) throw new Error(`${what} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as T;
}

/** The trajectory files under `corpus`, loaded (unreadable and non-trajectory files are passed over). */
export function* trajectoryFiles(corpus: string): Generator<{ path: string; file: TrajectoryFile }> {
  for (const path of listInputFiles([corpus])) {
    let file: ReturnType<typeof loadJsonFile>;
    try {
      file = loadJsonFile(path);
    } catch {
      continue;
    }
    if (file.variant !== "not-trajectories") yield { path, file };
  }
}
