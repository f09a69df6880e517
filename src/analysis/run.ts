/** The run the analysis views are about (`selectRun`, `installAnalyses`), and its comparisons. */
import type { VerdictStore } from "../store/store.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { rows } from "./rows.ts";
import { analysisStatements, RUN_VARIABLE } from "./views.ts";

/** `--run` names a run the store does not hold: a usage mistake. */
export class UnknownRunError extends RescoreError {
  override readonly code = "unknown_run";
  override readonly exitStatus = EXIT_USAGE;
  override readonly name = "UnknownRunError";
}

export interface RunInfo {
  run_id: string;
  seq: number;
  experiment: string;
  config_hash: string;
  tool_version: string;
  completed: boolean;
}

/**
 * Points every view at one run: `runId`, or else the latest completed run. Returns that run, or null
 * when the store has no completed run (the views are then empty).
 */
export async function selectRun(store: VerdictStore, runId?: string): Promise<RunInfo | null> {
  const runs = await rows<RunInfo>(
    store,
    "SELECT run_id, seq, experiment, config_hash, tool_version, completed FROM runs ORDER BY seq",
  );
  if (runId !== undefined) {
    const hit = runs.find((r) => r.run_id === runId);
    if (hit === undefined)
      throw new UnknownRunError(
        `${store.path} has no run ${runId}` +
          (runs.length === 0
            ? ""
            : `; its runs: ${runs.map((r) => `${r.run_id} (${r.experiment})`).join(", ")}`),
      );
    await store.conn.run(`SET VARIABLE ${RUN_VARIABLE} = $1`, [runId]);
    return hit;
  }
  await store.conn.run(`SET VARIABLE ${RUN_VARIABLE} = NULL::VARCHAR`);
  return runs.filter((r) => r.completed).at(-1) ?? null;
}

/** Installs the analysis views over the selected run (see `selectRun`); returns that run. */
export async function installAnalyses(store: VerdictStore, runId?: string): Promise<RunInfo | null> {
  const run = await selectRun(store, runId);
  for (const sql of analysisStatements()) await store.conn.run(sql);
  return run;
}

/** A run's comparisons in the experiment's order; the first is the headline. */
export interface ComparisonRef {
  seq: number;
  comparison: string;
  baseline: string;
  candidate: string;
}

export const runComparisons = (store: VerdictStore): Promise<ComparisonRef[]> =>
  rows<ComparisonRef>(store, "SELECT seq, comparison, baseline, candidate FROM run_comparisons ORDER BY seq");
