/** `tau-rescore run` as a library function. */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { unmatchedExclusionWarnings } from "../../analysis/exclusions.ts";
import { loadExperiment } from "../../experiments/config.ts";
import { errorCauseLine, NO_SIMULATIONS } from "../../formats/file-warnings.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { GradingSpecError } from "../../graders/spec.ts";
import { stderrProgress } from "../../pipeline/progress.ts";
import { runExperiment, type StoredFailures } from "../../pipeline/run.ts";
import { planRun, type RunPlan } from "../../pipeline/settings.ts";
import type { ReviewFile } from "../../reviews/file.ts";
import { saveReviews } from "../../reviews/store.ts";
import { VerdictStore } from "../../store/store.ts";
import { LIMITS } from "../../util/limits.ts";
import { numberArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { judgeDefaults, judgeSecrets, runTuning } from "../env.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import type { CommandIo } from "../io.ts";
import type { JudgeRuntimeOptions } from "../judge-flags.ts";
import { checkJudgeEndpoint, judgeRuntime, reportJudge } from "../judge-options.ts";
import { memoryLimitOf } from "../memory-limit.ts";
import { reviewFileAt } from "../reviews-source.ts";

export interface RunOptions extends JudgeRuntimeOptions {
  db?: string;
  corpus?: string[];
  dataDir?: string;
  reviews?: string;
  memoryLimit?: string;
  graderTimeout?: string;
}

/** Everything is checked here, before the store is opened: a bad config (or reviews file) writes nothing. */
async function plan(
  file: string,
  opts: RunOptions,
  io: CommandIo,
): Promise<{ plan: RunPlan; reviews: ReviewFile }> {
  try {
    const dataDir = opts.dataDir ?? (io.env.TAU2_DATA_DIR || undefined);
    const exp = loadExperiment(file, {
      ...(dataDir === undefined ? {} : { dataDir: resolveDataDir(dataDir, io.env) }),
      ...(opts.corpus === undefined ? {} : { corpus: opts.corpus.map((p) => resolve(p)) }),
      ...(opts.db === undefined ? {} : { db: resolve(opts.db) }),
      ...(opts.reviews === undefined ? {} : { reviews: resolve(opts.reviews) }),
    });
    // A typo in a corpus path is a usage mistake, found before the store is opened.
    for (const c of exp.corpusPaths)
      if (!existsSync(c))
        throw new UsageError(
          `${opts.corpus === undefined ? `${file}: ` : "--corpus: "}corpus path ${c} not found`,
        );
    const planned = await planRun(
      exp,
      judgeDefaults(io.env),
      judgeSecrets(io.env),
      judgeRuntime(opts, io.stderr),
    );
    // After planRun: reviews may name graders from the experiment's modules, registered there.
    return { plan: planned, reviews: reviewFileAt(exp.reviewsFile) };
  } catch (e) {
    if (e instanceof GradingSpecError) throw new UsageError(`${file}: ${e.message}`);
    throw e;
  }
}

/** Every invocation says what the store holds that did not grade, not only the one that read it. */
function storedLine(f: StoredFailures): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? "" : "s"}`;
  return (
    `  in the store: ${n(f.unreadable.length, "unreadable file")}, ` +
    `${n(f.simulationErrors, "simulation")} in the errors table` +
    (f.simulationErrors > 0 ? ` (in ${n(f.filesWithSimulationErrors, "file")})` : "") +
    (f.gone > 0 ? `; not counted: ${n(f.gone, "file")} with failures no longer in the corpus` : "")
  );
}

/** Grades the experiment into its store; returns the exit status (1 when any input failed). */
export async function runCommand(file: string, opts: RunOptions, io: CommandIo): Promise<number> {
  const { plan: p, reviews } = await plan(file, opts, io);
  const { exp } = p;
  // Read before the store is created: a bad value writes nothing.
  const tuning = runTuning(io.env);
  const graderTimeout =
    opts.graderTimeout === undefined
      ? tuning.graderModuleTimeoutSeconds
      : numberArg("--grader-timeout", opts.graderTimeout, LIMITS.graderModuleTimeout);
  const memoryLimit = memoryLimitOf(opts.memoryLimit, exp.config.duckdb?.memory_limit);
  if (p.grading.spec.judge.mode === "http") await checkJudgeEndpoint(p.grading.spec.judge.base_url);
  mkdirSync(dirname(exp.output), { recursive: true });
  const store = await VerdictStore.open(exp.output, { memoryLimit });
  const started = Date.now();
  const progress = stderrProgress(io.stderr as NodeJS.WriteStream, tuning.progressMs);
  let stored = 0;
  const removeHandlers = onInterrupt(
    () => progress.stop(),
    // A commit already under way when the signal came may still land: the count is a lower bound.
    () => `${stored} files stored (a group being committed may add more); re-run to continue`,
    io,
  );
  try {
    const { debugWorkers, ...grading } = tuning;
    const s = await runExperiment(p, store, progress, {
      ...grading,
      graderModuleTimeoutSeconds: graderTimeout,
      ...(debugWorkers ? { workerLog: (line: string) => io.stderr.write(line) } : {}),
      onStored: (n) => (stored = n),
    });
    // Reviews change without re-grading: every run refreshes the store's copy of the experiment's file.
    await saveReviews(store, exp.config.name, reviews.reviews, reviews.sampled);
    const exclusionWarnings = await unmatchedExclusionWarnings(store, s.runId);
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    io.stderr.write(
      [
        `run ${s.runId} of ${exp.config.name} → ${exp.output}`,
        ...(s.analysisUpdated
          ? ["  comparisons, rankings and exclusions updated from the experiment (they re-grade nothing)"]
          : []),
        `  files: ${s.files} (${s.skipped} already done, ${s.notTrajectories} not trajectories, ${s.failedFiles} unreadable now${s.duplicates > 0 ? `, ${s.duplicates} duplicates of another file` : ""})`,
        ...s.warnings.map((w) => `  ${terminalSafe(w)}`),
        ...exclusionWarnings.map((w) => `  warning: ${terminalSafe(w)}`),
        `  simulations graded now: ${s.simulations} (${s.errors} into the errors table), ${secs}s`,
        storedLine(s.stored),
        ...s.stored.unreadable.map((f) => `  unreadable: ${terminalSafe(f.error)}`),
        ...s.stored.causes.map((c) => `  ${terminalSafe(errorCauseLine(c.path, c.n, c.message))}`),
        ...s.stored.empty.map((path) => `  ${terminalSafe(path)}: ${NO_SIMULATIONS}`),
        ...(s.rejectedFixtures > 0 ? [`  requirement fixtures rejected: ${s.rejectedFixtures}`] : []),
        `  reviews: ${reviews.reviews.length} from ${exp.reviewsFile} (stale ones are listed by \`tau-rescore review list\`)`,
      ].join("\n") + "\n",
    );
    const judgeFailed = reportJudge(p.grading.judge, io.stderr);
    const failed = s.stored.unreadable.length > 0 || s.stored.simulationErrors > 0;
    return failed || s.failedFiles > 0 || s.errors > 0 || judgeFailed ? 1 : 0;
  } finally {
    removeHandlers();
    store.close();
  }
}
