/**
 * `tau-rescore run`: grade every file of an experiment with both graders into one DuckDB file.
 * Idempotent and resumable: a file whose rows were committed under this run id is skipped. Files
 * are graded on worker threads when there is more than one core; rows are written by this thread,
 * one transaction per file.
 */
import { statSync } from "node:fs";
import { relative } from "node:path";
import type { ResolvedExperiment } from "../experiments/config.ts";
import type { VerdictStore } from "../store/store.ts";
import { listInputFiles } from "./inputs.ts";
import { gradeInWorkers, inputBytes, workerCount } from "./parallel.ts";
import { type FileJob, type FileResult, processFile } from "./process-file.ts";
import type { Progress } from "./progress.ts";
import { fileDepsFor, runIdFor, settingsFor, TOOL_VERSION } from "./settings.ts";

export { runIdFor, TOOL_VERSION };

/** Files per transaction (`TAU_RESCORE_COMMIT_FILES` overrides; 1 = a commit per file). */
const commitFiles = (): number => {
  const n = Number(process.env.TAU_RESCORE_COMMIT_FILES);
  return Number.isInteger(n) && n > 0 ? n : 16;
};
const COMMIT_SIMULATIONS = 2000;

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

async function ensureRun(store: VerdictStore, exp: ResolvedExperiment, runId: string): Promise<void> {
  const existing = await store.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM runs WHERE run_id = $1",
    [runId],
  );
  if ((existing[0]?.n ?? 0) > 0) return;
  const seq = (await store.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM runs"))[0]?.n ?? 0;
  const c = exp.config;
  await store.append("runs", [
    [
      runId,
      seq + 1,
      c.name,
      exp.configHash,
      TOOL_VERSION,
      JSON.stringify(c),
      c.infrastructure_errors,
      c.ranking.min_task_coverage,
      c.ranking.bootstrap_samples,
      c.ranking.seed,
    ],
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
  exp: ResolvedExperiment,
  runId: string,
  jobs: readonly FileJob[],
  committed: ReadonlySet<string>,
  workers: number,
): AsyncGenerator<FileResult> {
  if (workers > 1) {
    yield* gradeInWorkers(jobs, { exp, runId, committed: [...committed] }, workers);
    return;
  }
  const deps = fileDepsFor(exp, runId, committed);
  for (const job of jobs) yield await processFile(job, deps);
}

export async function runExperiment(
  exp: ResolvedExperiment,
  store: VerdictStore,
  progress: Progress,
): Promise<RunSummary> {
  const runId = runIdFor(exp);
  await ensureRun(store, exp, runId);
  const committed = await store.committedFiles(runId);
  const rejectedFixtures = settingsFor(exp).rejectedFixtures;
  const jobs = jobsFor(exp);
  const workers = workerCount(jobs.length, inputBytes(jobs));
  const counts = { skipped: 0, notTrajectories: 0, failedFiles: 0, simulations: 0, errors: 0 };
  // Files are committed in small groups: one transaction (and one WAL sync) per group, not per file.
  const pending: Exclude<FileResult, { kind: "skipped" }>[] = [];
  let pendingSims = 0;
  const groupSize = commitFiles();
  const flush = async () => {
    await store.writeFiles(pending);
    pending.length = 0;
    pendingSims = 0;
  };
  progress.start(jobs.length);
  for await (const r of gradeJobs(exp, runId, jobs, committed, workers)) {
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
  progress.stop();
  return { runId, files: jobs.length, ...counts, rejectedFixtures, workers };
}
