/** `tau-rescore run <experiment.json>`: grade an experiment's corpus into its DuckDB file. */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { ExperimentError, loadExperiment } from "../../experiments/config.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { GradingSpecError } from "../../graders/spec.ts";
import { stderrProgress } from "../../pipeline/progress.ts";
import { runExperiment, type StoredFailures } from "../../pipeline/run.ts";
import { planRun, type RunPlan } from "../../pipeline/settings.ts";
import type { ReviewFile } from "../../reviews/file.ts";
import { saveReviews } from "../../reviews/store.ts";
import { StoreError, VerdictStore } from "../../store/store.ts";
import { resolveDataDir } from "../data-dir.ts";
import { judgeDefaults, judgeSecrets, runTuning } from "../env.ts";
import { InputError, UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import {
  addJudgeRuntimeOptions,
  checkJudgeEndpoint,
  type JudgeRuntimeOptions,
  judgeRuntime,
  reportJudge,
} from "../judge-options.ts";
import { MEMORY_LIMIT_OPTION, memoryLimitOf } from "../memory-limit.ts";
import { reviewFileAt } from "../reviews-source.ts";

interface RunOptions extends JudgeRuntimeOptions {
  db?: string;
  corpus?: string[];
  dataDir?: string;
  reviews?: string;
  memoryLimit?: string;
}

export function registerRunCommand(program: Command): void {
  const cmd = program
    .command("run")
    .description("grade every simulation of an experiment with both graders into one DuckDB file")
    .argument("<experiment>", "experiment config (JSON, see experiments/default.json)")
    .option("--db <path>", "DuckDB output file (default: the experiment's `output`)")
    // One path per flag (repeatable): a variadic option would swallow the experiment after it.
    .option(
      "--corpus <path>",
      "trajectory file or folder, replacing the experiment's corpus (repeat for several)",
      (p: string, all: string[] = []) => [...all, p],
    )
    .option("--data-dir <dir>", "tau2 data dir, replacing the experiment's (also $TAU2_DATA_DIR)")
    .option("--reviews <file>", "reviews file, replacing the experiment's (loaded into the store)")
    .option(...MEMORY_LIMIT_OPTION);
  addJudgeRuntimeOptions(cmd);
  cmd.action((file: string, opts: RunOptions) => runCommand(file, opts));
}

/** Everything is checked here, before the store is opened: a bad config (or reviews file) writes nothing. */
function plan(file: string, opts: RunOptions): { plan: RunPlan; reviews: ReviewFile } {
  try {
    const dataDir = opts.dataDir ?? (process.env.TAU2_DATA_DIR || undefined);
    const exp = loadExperiment(file, {
      ...(dataDir === undefined ? {} : { dataDir: resolveDataDir(dataDir) }),
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
    const reviews = reviewFileAt(exp.reviewsFile);
    return { plan: planRun(exp, judgeDefaults(), judgeSecrets(), judgeRuntime(opts)), reviews };
  } catch (e) {
    if (e instanceof ExperimentError) throw new UsageError(e.message);
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

async function runCommand(file: string, opts: RunOptions): Promise<void> {
  const { plan: p, reviews } = plan(file, opts);
  const { exp } = p;
  const tuning = runTuning(); // read before the store is created: a bad value writes nothing
  const memoryLimit = memoryLimitOf(opts.memoryLimit, exp.config.duckdb?.memory_limit);
  if (p.grading.spec.judge.mode === "http") await checkJudgeEndpoint(p.grading.spec.judge.base_url);
  mkdirSync(dirname(exp.output), { recursive: true });
  let store: VerdictStore;
  try {
    store = await VerdictStore.open(exp.output, { memoryLimit });
  } catch (e) {
    if (e instanceof StoreError) throw new InputError(e.message);
    throw e;
  }
  const started = Date.now();
  const progress = stderrProgress(process.stderr, tuning.progressMs);
  let stored = 0;
  const removeHandlers = onInterrupt(
    () => progress.stop(),
    // A commit already under way when the signal came may still land: the count is a lower bound.
    () => `${stored} files stored (a group being committed may add more); re-run to continue`,
  );
  try {
    const s = await runExperiment(p, store, progress, { ...tuning, onStored: (n) => (stored = n) });
    // Reviews change without re-grading: every run refreshes the store's copy of the experiment's file.
    await saveReviews(store, exp.config.name, reviews.reviews);
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      [
        `run ${s.runId} of ${exp.config.name} → ${exp.output}`,
        `  files: ${s.files} (${s.skipped} already done, ${s.notTrajectories} not trajectories, ${s.failedFiles} unreadable now${s.duplicates > 0 ? `, ${s.duplicates} duplicates of another file` : ""})`,
        ...s.warnings.map((w) => `  ${terminalSafe(w)}`),
        `  simulations graded now: ${s.simulations} (${s.errors} into the errors table), ${secs}s`,
        storedLine(s.stored),
        ...s.stored.unreadable.map((f) => `  unreadable: ${terminalSafe(f.error)}`),
        ...(s.rejectedFixtures > 0 ? [`  requirement fixtures rejected: ${s.rejectedFixtures}`] : []),
        `  reviews: ${reviews.reviews.length} from ${exp.reviewsFile} (stale ones are listed by \`tau-rescore review list\`)`,
      ].join("\n") + "\n",
    );
    const judgeFailed = reportJudge(p.grading.judge);
    const failed = s.stored.unreadable.length > 0 || s.stored.simulationErrors > 0;
    if (failed || s.failedFiles > 0 || s.errors > 0 || judgeFailed) process.exitCode = 1;
  } finally {
    removeHandlers();
    store.close();
  }
}
