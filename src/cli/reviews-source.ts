/**
 * Where `run`, `report` and `review` find an experiment's reviews, and how they load them into the
 * store: the file named by `--reviews`, else the experiment's `reviews` (default `reviews/<name>.json`).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { installAnalyses, type RunInfo } from "../analysis/run.ts";
import { loadExperiment, type ResolvedExperiment } from "../experiments/config.ts";
import { importGraderModules } from "../experiments/grader-modules.ts";
import { type ReviewFile, readReviewFile } from "../reviews/file.ts";
import { saveReviews } from "../reviews/store.ts";
import { StoreLockedError, VerdictStore } from "../store/store.ts";
import { InputError, UsageError } from "./errors.ts";
import { memoryLimitOf } from "./memory-limit.ts";

export interface ExperimentFlags {
  readonly db?: string;
  readonly reviews?: string;
}

/** The experiment with `--db` and `--reviews` applied; a bad config is a usage error. */
export function experimentFor(file: string, flags: ExperimentFlags): ResolvedExperiment {
  return loadExperiment(file, {
    ...(flags.db === undefined ? {} : { db: resolve(flags.db) }),
    ...(flags.reviews === undefined ? {} : { reviews: resolve(flags.reviews) }),
  });
}

/** The reviews file, validated: a bad file is a usage error naming the file and the JSON path. */
export function reviewFileAt(path: string): ReviewFile {
  return readReviewFile(path);
}

/** Opens an existing store (a missing file would otherwise become an empty store). */
export async function openExistingStore(db: string, memoryLimit?: string): Promise<VerdictStore> {
  if (!existsSync(db))
    throw new UsageError(`${db}: no such DuckDB file (write one with \`tau-rescore run\`)`);
  return await VerdictStore.open(db, { memoryLimit });
}

/** A run of `experiment` must be selected: reviews are matched against it. */
export function checkRunOf(run: RunInfo | null, experiment: string, db: string): RunInfo {
  if (run === null)
    throw new InputError(
      `${db} has no completed run (run the experiment first: tau-rescore run <experiment>)`,
    );
  if (run.experiment !== experiment)
    throw new UsageError(
      `run ${run.run_id} in ${db} is of experiment ${JSON.stringify(run.experiment)}, not ${JSON.stringify(experiment)} (pass --db or --run)`,
    );
  return run;
}

/**
 * The store, writable; read-only when another process has it open (a `tau-rescore view` of it), so a
 * terminal review and the browser can run side by side: reviews then go to the reviews file, and into
 * the store's own tables at its next writable open.
 */
async function openForReviews(db: string, memoryLimit?: string): Promise<VerdictStore> {
  try {
    return await openExistingStore(db, memoryLimit);
  } catch (e) {
    if (!(e instanceof StoreLockedError)) throw e;
    try {
      return await VerdictStore.open(db, { readOnly: true, memoryLimit });
    } catch {
      throw e; // a writer holds it (a run): say that, not the read-only attempt
    }
  }
}

export interface ReviewSession {
  readonly exp: ResolvedExperiment;
  readonly store: VerdictStore;
  readonly run: RunInfo;
  readonly file: ReviewFile;
}

/**
 * For the `review` commands: the experiment, its store with the analysis views over the selected run,
 * and its reviews file, loaded into the store so the views see exactly the file.
 */
export async function openReviewSession(
  experimentFile: string,
  flags: ExperimentFlags & { readonly run?: string; readonly memoryLimit?: string },
): Promise<ReviewSession> {
  const exp = experimentFor(experimentFile, flags);
  await importGraderModules(exp.graderModules); // reviews may name their graders
  const file = reviewFileAt(exp.reviewsFile);
  const memoryLimit = memoryLimitOf(flags.memoryLimit, exp.config.duckdb?.memory_limit);
  const store = await openForReviews(exp.output, memoryLimit);
  try {
    const run = checkRunOf(await installAnalyses(store, flags.run), exp.config.name, exp.output);
    await saveReviews(store, exp.config.name, file.reviews, file.sampled);
    return { exp, store, run, file };
  } catch (e) {
    store.close();
    throw e;
  }
}
