/**
 * `tau-rescore run`: grade every file of an experiment with its graders into one DuckDB file.
 * Idempotent and resumable: a file whose rows were committed under this run id is skipped. Files
 * are graded on worker threads when there is more than one core; rows are written by this thread,
 * one transaction per group of files. The run is marked completed once every file is committed.
 */
import { statSync } from "node:fs";
import { relative } from "node:path";
import type { ResolvedExperiment } from "../experiments/config.ts";
import { stableJson } from "../formats/stable-json.ts";
import type { VerdictStore } from "../store/store.ts";
import { listInputFiles } from "./inputs.ts";
import { gradeInWorkers, inputBytes, workerCount } from "./parallel.ts";
import { type FileJob, type FileResult, processFile } from "./process-file.ts";
import type { Progress } from "./progress.ts";
import { fileDepsFor, type RunPlan, TOOL_VERSION, workerInit } from "./settings.ts";

export { TOOL_VERSION };

const COMMIT_SIMULATIONS = 2000;

export interface RunOptions {
  /** Grading threads (1 = this thread); by default chosen by `workerCount`. */
  readonly workers?: number;
  /** Files per transaction (1 = a commit per file); 16 by default. */
  readonly commitFiles?: number;
  /** Prints the threads' wall and busy time on stderr. */
  readonly debugWorkers?: boolean;
}

export interface RunSummary {
  readonly runId: string;
  readonly files: number;
  readonly skipped: number;
  readonly notTrajectories: number;
  readonly failedFiles: number;
  readonly simulations: number;
  readonly errors: number;
  readonly rejectedFixtures: number;
  readonly workers: number;
}

async function ensureRun(store: VerdictStore, plan: RunPlan): Promise<void> {
  const existing = await store.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM runs WHERE run_id = $1",
    [plan.runId],
  );
  if ((existing[0]?.n ?? 0) > 0) return;
  const seq = (await store.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM runs"))[0]?.n ?? 0;
  const c = plan.exp.config;
  await store.append("runs", [
    {
      run_id: plan.runId,
      seq: seq + 1,
      experiment: c.name,
      config_hash: plan.exp.configHash,
      tool_version: TOOL_VERSION,
      config_json: JSON.stringify(c),
      grading_spec: stableJson(plan.grading.spec),
      infrastructure_errors: c.infrastructure_errors,
      min_task_coverage: c.ranking.min_task_coverage,
      bootstrap_samples: c.ranking.bootstrap_samples,
      seed: c.ranking.seed,
      completed: false,
    },
  ]);
}

/** The corpus files as jobs, each with the path the store records (relative to the corpus root). */
export function jobsFor(exp: ResolvedExperiment): FileJob[] {
  const first = exp.corpusPaths[0];
  const base =
    exp.corpusPaths.length === 1 && first !== undefined && statSync(first).isDirectory()
      ? first
      : process.cwd();
  return listInputFiles(exp.corpusPaths).map((full) => ({ full, path: relative(base, full) || full }));
}

/** Results in completion order, from worker threads or (one worker) this thread. */
export async function* gradeJobs(
  plan: RunPlan,
  jobs: readonly FileJob[],
  committed: ReadonlySet<string>,
  workers: number,
  debugWorkers = false,
): AsyncGenerator<FileResult> {
  const init = workerInit(plan, committed);
  if (workers > 1) {
    yield* gradeInWorkers(jobs, init, workers, debugWorkers);
    return;
  }
  const deps = fileDepsFor(init, plan.grading);
  for (const job of jobs) yield await processFile(job, deps);
}

export async function runExperiment(
  plan: RunPlan,
  store: VerdictStore,
  progress: Progress,
  options: RunOptions = {},
): Promise<RunSummary> {
  await ensureRun(store, plan);
  const committed = await store.committedFiles(plan.runId);
  const rejectedFixtures = plan.grading.graders.structured?.requirements?.problems.length ?? 0;
  const jobs = jobsFor(plan.exp);
  const workers = workerCount(jobs.length, inputBytes(jobs), options.workers);
  const counts = { skipped: 0, notTrajectories: 0, failedFiles: 0, simulations: 0, errors: 0 };
  // Files are committed in small groups: one transaction (and one WAL sync) per group, not per file.
  const pending: Exclude<FileResult, { kind: "skipped" }>[] = [];
  let pendingSims = 0;
  const groupSize = options.commitFiles ?? 16;
  const flush = async () => {
    await store.writeFiles(pending);
    pending.length = 0;
    pendingSims = 0;
  };
  progress.start(jobs.length);
  for await (const r of gradeJobs(plan, jobs, committed, workers, options.debugWorkers)) {
    if (r.kind === "skipped") {
      counts.skipped++;
      progress.tick(r.path, 0);
      continue;
    }
    if (r.kind === "not-trajectories") counts.notTrajectories++;
    if (r.kind === "error") counts.failedFiles++;
    counts.simulations += r.simulations;
    counts.errors += r.kind === "error" ? 0 : r.errors;
    pending.push(r);
    pendingSims += r.simulations;
    progress.tick(r.path, r.simulations);
    if (pending.length >= groupSize || pendingSims >= COMMIT_SIMULATIONS) await flush();
  }
  await flush();
  await store.conn.run("UPDATE runs SET completed = true WHERE run_id = $1 AND NOT completed", [plan.runId]);
  progress.stop();
  return { runId: plan.runId, files: jobs.length, ...counts, rejectedFixtures, workers };
}
