/**
 * A grading worker thread: rebuilds the experiment's settings once, then turns file jobs into
 * row batches. Each worker loads the domain DBs it needs on first use.
 */
import { parentPort, workerData } from "node:worker_threads";
import { resolveQuirks } from "../domains/quirks.ts";
import type { ResolvedExperiment } from "../experiments/config.ts";
import { ContextPool } from "./contexts.ts";
import { type FileJob, processFile } from "./process-file.ts";
import { settingsFor } from "./settings.ts";

export interface WorkerInit {
  readonly exp: ResolvedExperiment;
  readonly runId: string;
  readonly committed: readonly string[];
}

export type WorkerRequest = { readonly job: FileJob; readonly seq: number } | { readonly stop: true };

const init = workerData as WorkerInit;
const settings = settingsFor(init.exp);
const deps = {
  runId: init.runId,
  dataDir: init.exp.dataDir,
  pool: new ContextPool(
    init.exp.dataDir,
    resolveQuirks(init.exp.config.quirks.preset, init.exp.config.quirks.overrides),
  ),
  settings: settings.grade,
  gatedRules: settings.gatedRules,
  exclusions: init.exp.config.exclude_from_rankings,
  committed: new Set(init.committed),
};

parentPort?.on("message", async (msg: WorkerRequest) => {
  if ("stop" in msg) {
    parentPort?.close();
    return;
  }
  try {
    const started = performance.now();
    const result = await processFile(msg.job, deps);
    parentPort?.postMessage({ seq: msg.seq, result, busyMs: performance.now() - started });
  } catch (e) {
    parentPort?.postMessage({
      seq: msg.seq,
      failure: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
});
