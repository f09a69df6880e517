/**
 * `tau-rescore run`: grade every file of an experiment with its graders into one DuckDB file.
 * Idempotent and resumable: a file whose rows were committed under this run id is skipped. Files
 * are graded on worker threads when there is more than one core; rows are written by this thread,
 * one transaction per group of files. The run is marked completed once every file is committed.
 */
import { realpathSync, statSync } from "node:fs";
import { relative } from "node:path";
import { ANALYSIS_KEYS, type ResolvedExperiment } from "../experiments/config.ts";
import { stableJson } from "../formats/stable-json.ts";
import { GRADER_MODULE_TIMEOUT_SECONDS } from "../graders/module-checks.ts";
import { loadJudgments, saveJudgments } from "../store/judgments.ts";
import type { VerdictStore } from "../store/store.ts";
import { FileLedger, type LedgerDecision } from "./file-ledger.ts";
import { judgeLookahead } from "./grade.ts";
import { listInputFiles, targetOutside } from "./inputs.ts";
import {
  gradeInWorkers,
  gradingStaysHere,
  inputBytes,
  modulesThreadsCannotLoad,
  typescriptModuleWarning,
  workerCount,
} from "./parallel.ts";
import {
  exclusionFor,
  type FileDeps,
  type FileJob,
  type FileResult,
  prefetchFile,
  processFile,
} from "./process-file.ts";
import type { Progress } from "./progress.ts";
import { fileDepsFor, type RunPlan, TOOL_VERSION, workerInit } from "./settings.ts";
import { submissionRows } from "./submissions.ts";

export { TOOL_VERSION };

const COMMIT_SIMULATIONS = 2000;

type WriteResult = Extract<LedgerDecision, { kind: "write" }>["result"];

export interface RunOptions {
  /** Grading threads (1 = this thread); by default chosen by `workerCount`. */
  readonly workers?: number;
  /** Files per transaction (1 = a commit per file); 16 by default. */
  readonly commitFiles?: number;
  /** Told the threads' wall and busy time when the run ends (`TAU_RESCORE_DEBUG_WORKERS`). */
  readonly workerLog?: (line: string) => void;
  /** Told how many files of the run the store holds, at the start and after every commit. */
  readonly onStored?: (files: number) => void;
  /** Seconds a grader module may take on one simulation before it is an error row (default 60). */
  readonly graderModuleTimeoutSeconds?: number;
}

export interface RunSummary {
  readonly runId: string;
  /** The run existed and its comparisons, rankings or exclusions were written over (nothing re-graded for them). */
  readonly analysisUpdated: boolean;
  readonly files: number;
  readonly skipped: number;
  /** Files whose content is stored under another path (recorded, not graded again). */
  readonly duplicates: number;
  readonly notTrajectories: number;
  readonly failedFiles: number;
  /** Lines for the terminal about files graded anyway (duplicate simulation ids). */
  readonly warnings: readonly string[];
  /** Each file that could not be read, with the reason (also in the store's `files` and `errors`). */
  readonly failures: readonly { readonly path: string; readonly error: string }[];
  readonly simulations: number;
  readonly errors: number;
  readonly rejectedFixtures: number;
  readonly workers: number;
  /** What did not grade, as the store holds it for the corpus's files, whichever invocation read them. */
  readonly stored: StoredFailures;
}

export interface StoredFailures {
  /** Files that could not be read (`files.status = 'error'`), with the reason. */
  readonly unreadable: readonly { readonly path: string; readonly error: string }[];
  /** Simulations in the errors table (they could not be graded), and the files holding them. */
  readonly simulationErrors: number;
  readonly filesWithSimulationErrors: number;
  /** The errors table per file and reason, with how many simulations each holds. */
  readonly causes: readonly { readonly path: string; readonly message: string; readonly n: number }[];
  /** Trajectory files that hold no simulations. */
  readonly empty: readonly string[];
  /** Files with either kind that are no longer in the corpus (not counted above). */
  readonly gone: number;
}

/**
 * Read back after every invocation: a file already stored is skipped, so this invocation's own counts
 * miss the failures an earlier one recorded.
 */
export async function storedFailures(
  store: VerdictStore,
  runId: string,
  corpus: ReadonlySet<string>,
): Promise<StoredFailures> {
  const unreadable = await store.query<{ path: string; error: string | null }>(
    "SELECT path, error FROM files WHERE run_id = $1 AND status = 'error' ORDER BY path",
    [runId],
  );
  const ungraded = await store.query<{ path: string; n: number }>(
    `SELECT f.path, count(*)::INTEGER AS n FROM errors e JOIN files f USING (run_id, file_id)
     WHERE e.run_id = $1 AND e.stage <> 'load' GROUP BY f.path`,
    [runId],
  );
  const here = ungraded.filter((u) => corpus.has(u.path));
  const causes = await store.query<{ path: string; message: string; n: number }>(
    `SELECT f.path, e.message, count(*)::INTEGER AS n FROM errors e JOIN files f USING (run_id, file_id)
     WHERE e.run_id = $1 AND e.stage <> 'load' GROUP BY ALL ORDER BY f.path, n DESC, e.message`,
    [runId],
  );
  const empty = await store.query<{ path: string }>(
    `SELECT f.path FROM files f WHERE f.run_id = $1 AND f.status = 'graded' AND f.simulations = 0 AND f.rejected = 0
       AND NOT EXISTS (SELECT 1 FROM simulations s WHERE s.run_id = f.run_id AND s.file_id = f.file_id)
     ORDER BY f.path`,
    [runId],
  );
  const gone = new Set(
    [...unreadable.map((u) => u.path), ...ungraded.map((u) => u.path)].filter((p) => !corpus.has(p)),
  );
  return {
    unreadable: unreadable
      .filter((u) => corpus.has(u.path))
      .map((u) => ({ path: u.path, error: u.error ?? "unreadable" })),
    simulationErrors: here.reduce((n, u) => n + u.n, 0),
    filesWithSimulationErrors: here.length,
    causes: causes.filter((c) => corpus.has(c.path)),
    empty: empty.map((e) => e.path).filter((p) => corpus.has(p)),
    gone: gone.size,
  };
}

/**
 * Writes what only the analyses read (comparisons, rankings, exclusions: `ANALYSIS_KEYS`) over a run that
 * already exists, so a changed comparison or exclusion re-grades nothing. Returns whether any changed.
 */
async function updateAnalysisSettings(store: VerdictStore, plan: RunPlan): Promise<boolean> {
  const c = plan.exp.config;
  const [run] = await store.query<{ config_json: string }>("SELECT config_json FROM runs WHERE run_id = $1", [
    plan.runId,
  ]);
  const stored = JSON.parse(run?.config_json ?? "{}") as Record<string, unknown>;
  const config = c as unknown as Record<string, unknown>;
  if (ANALYSIS_KEYS.every((k) => stableJson(stored[k] ?? null) === stableJson(config[k] ?? null)))
    return false;
  const files = await store.query<{
    file_id: string;
    path: string;
    agent_model: string | null;
    excluded: boolean;
  }>("SELECT file_id, path, agent_model, excluded FROM files WHERE run_id = $1 AND status = 'graded'", [
    plan.runId,
  ]);
  await store.conn.run("BEGIN TRANSACTION");
  try {
    await store.conn.run(
      "UPDATE runs SET config_json = $2, min_task_coverage = $3, bootstrap_samples = $4, seed = $5 WHERE run_id = $1",
      [
        plan.runId,
        JSON.stringify(c),
        c.ranking.min_task_coverage,
        c.ranking.bootstrap_samples,
        c.ranking.seed,
      ],
    );
    for (const table of ["comparisons", "task_exclusions"] as const)
      await store.conn.run(`DELETE FROM ${table} WHERE run_id = $1`, [plan.runId]);
    await appendAnalysisRows(store, plan);
    for (const f of files) {
      const reason = exclusionFor(c.exclude_from_rankings, f.path, f.agent_model);
      await store.conn.run(
        "UPDATE files SET excluded = $3, exclusion_reason = $4 WHERE run_id = $1 AND file_id = $2",
        [plan.runId, f.file_id, reason !== null, reason],
      );
    }
    await store.conn.run("COMMIT");
  } catch (e) {
    await store.conn.run("ROLLBACK").catch(() => undefined);
    throw e;
  }
  return true;
}

/** The run's comparisons and task exclusions, as the experiment declares them now. */
async function appendAnalysisRows(store: VerdictStore, plan: RunPlan): Promise<void> {
  const c = plan.exp.config;
  await store.append(
    "comparisons",
    plan.comparisons.map((k, i) => ({ run_id: plan.runId, seq: i + 1, ...k })),
  );
  await store.append(
    "task_exclusions",
    c.exclude_tasks.map((t) => ({
      run_id: plan.runId,
      domain: t.domain,
      task_version: t.task_version ?? null,
      task_id: t.task_id,
      reason: t.reason,
    })),
  );
}

/** Creates the run, or brings an existing one's analysis settings up to date; true when those changed. */
async function ensureRun(store: VerdictStore, plan: RunPlan): Promise<boolean> {
  const existing = await store.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM runs WHERE run_id = $1",
    [plan.runId],
  );
  if ((existing[0]?.n ?? 0) > 0) return await updateAnalysisSettings(store, plan);
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
  await appendAnalysisRows(store, plan);
  return false;
}

/** The corpus files as jobs, each with the path the store records (relative to the corpus root). */
export function jobsFor(exp: ResolvedExperiment): FileJob[] {
  const first = exp.corpusPaths[0];
  const base =
    exp.corpusPaths.length === 1 && first !== undefined && statSync(first).isDirectory()
      ? first
      : process.cwd();
  const root = exp.corpusRoot;
  const realRoot = root === null ? null : realpathSync(root);
  return listInputFiles(exp.corpusPaths, root ?? undefined).map((full) => {
    const path = relative(base, full) || full;
    const outside = realRoot === null ? null : targetOutside(realRoot, full);
    return outside === null
      ? { full, path }
      : { full, path, refused: `symbolic link to ${outside}, outside the corpus root ${root}: not followed` };
  });
}

const gradedHere = (plan: RunPlan): boolean => gradingStaysHere(plan.grading.judge, plan.exp.graderModules);

export interface GradeJobsOptions {
  /** Told the threads' wall and busy time when the run ends. */
  readonly workerLog?: (line: string) => void;
  /** Seconds a grader module may take on one simulation (default 60). */
  readonly graderModuleTimeoutSeconds?: number;
}

/**
 * Results in completion order, from worker threads or (one worker) this thread. Grader modules grade
 * in threads even when one worker is asked for, unless grading must stay here (`gradedHere`): the main
 * thread then stays free to time them and to answer a signal, whatever a module does.
 */
export async function* gradeJobs(
  plan: RunPlan,
  jobs: readonly FileJob[],
  committed: ReadonlySet<string>,
  workers: number,
  { workerLog, graderModuleTimeoutSeconds = GRADER_MODULE_TIMEOUT_SECONDS }: GradeJobsOptions = {},
): AsyncGenerator<FileResult> {
  const init = workerInit(plan, committed);
  const modules = plan.exp.graderModules.length > 0;
  if (workers > 1 || (modules && !gradedHere(plan))) {
    yield* gradeInWorkers(jobs, init, workers, {
      log: workerLog,
      moduleTimeoutSeconds: modules ? graderModuleTimeoutSeconds : undefined,
    });
    return;
  }
  const loaded = await fileDepsFor(init, plan.grading);
  const deps: FileDeps = modules
    ? { ...loaded, settings: { ...loaded.settings, graderModuleTimeoutSeconds } }
    : loaded;
  // A live judge waits on the network: its requests for the next files start while one is graded
  // (files are still graded one at a time, in order).
  const ahead = judgeLookahead(jobs.length, (i) => prefetchFile(jobs[i] as FileJob, deps));
  for (const [i, job] of jobs.entries()) {
    ahead(i);
    yield await processFile(job, deps);
  }
}

export async function runExperiment(
  plan: RunPlan,
  store: VerdictStore,
  progress: Progress,
  options: RunOptions = {},
): Promise<RunSummary> {
  const analysisUpdated = await ensureRun(store, plan);
  const judgeCache = plan.grading.judge.cache;
  if (judgeCache !== undefined) {
    await loadJudgments(store, judgeCache);
    // Files where the judge failed are graded again (their replies are asked again, the rest cached).
    await store.dropFilesWithJudgeFailures(plan.runId);
  }
  const storedBefore = await store.storedFiles(plan.runId);
  const ledger = new FileLedger(plan.runId, storedBefore);
  let stored = storedBefore.length;
  options.onStored?.(stored);
  const rejectedFixtures = plan.grading.graders.structured?.requirements?.problems.length ?? 0;
  const jobs = jobsFor(plan.exp);
  await store.replaceSubmissions(plan.runId, submissionRows(plan.runId, jobs));
  const workers = gradedHere(plan) ? 1 : workerCount(jobs.length, inputBytes(jobs), options.workers);
  const counts = { skipped: 0, duplicates: 0, notTrajectories: 0, failedFiles: 0, simulations: 0, errors: 0 };
  // Files are committed in small groups: one transaction (and one WAL sync) per group, not per file.
  const failures: { path: string; error: string }[] = [];
  const warnings: string[] = modulesThreadsCannotLoad(plan.exp.graderModules).map(typescriptModuleWarning);
  // Each grading thread says a data dir's task-set warnings once: the same line from two threads is one.
  const said = new Set(warnings);
  const sayOnce = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    warnings.push(line);
  };
  const pending: WriteResult[] = [];
  let pendingSims = 0;
  const groupSize = options.commitFiles ?? 16;
  const flush = async () => {
    await store.writeFiles(pending);
    if (judgeCache !== undefined) await saveJudgments(store, judgeCache);
    // A replacement takes its old version's place; a new path adds one.
    stored += pending.filter((w) => !w.replaces).length;
    options.onStored?.(stored);
    pending.length = 0;
    pendingSims = 0;
  };
  const grading = {
    workerLog: options.workerLog,
    graderModuleTimeoutSeconds: options.graderModuleTimeoutSeconds,
  };
  progress.start(jobs.length);
  // Stopped on every exit: a running bar keeps a timer alive (the process would never end).
  try {
    let todo: readonly FileJob[] = jobs;
    while (todo.length > 0) {
      const regrade = new Set<string>();
      for await (const r of gradeJobs(plan, todo, ledger.committed(), workers, grading)) {
        const d = ledger.decide(r);
        for (const p of d.regrade) regrade.add(p);
        if (d.kind === "skip") {
          counts.skipped++;
          progress.tick(r.path, 0);
          continue;
        }
        const w = d.result;
        if (w.kind === "duplicate") counts.duplicates++;
        else for (const line of w.warnings ?? []) sayOnce(line);
        if (w.kind === "not-trajectories") counts.notTrajectories++;
        if (w.kind === "error") {
          counts.failedFiles++;
          failures.push({ path: w.path, error: w.fileRow.error ?? "unreadable" });
        }
        counts.simulations += w.simulations;
        counts.errors += w.kind === "graded" ? w.errors : 0;
        pending.push(w);
        pendingSims += w.simulations;
        progress.tick(r.path, w.simulations);
        if (pending.length >= groupSize || pendingSims >= COMMIT_SIMULATIONS) await flush();
      }
      await flush();
      // Copies of content a rewritten file no longer holds: graded on their own now.
      todo = jobs.filter((j) => regrade.has(j.path));
    }
    await store.conn.run("UPDATE runs SET completed = true WHERE run_id = $1 AND NOT completed", [
      plan.runId,
    ]);
  } finally {
    progress.stop();
  }
  const inStore = await storedFailures(store, plan.runId, new Set(jobs.map((j) => j.path)));
  return {
    runId: plan.runId,
    analysisUpdated,
    files: jobs.length,
    ...counts,
    failures,
    warnings,
    rejectedFixtures,
    workers,
    stored: inStore,
  };
}
