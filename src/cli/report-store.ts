/**
 * The store as `report` reads it: opened read-only (so a read-only file, or one another reader has open,
 * works), with a reviews file laid over its `reviews` table in a TEMP table of the same name, which the
 * analysis views read first. Nothing is ever written into the store.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { selectRun } from "../analysis/run.ts";
import type { ResolvedExperiment } from "../experiments/config.ts";
import type { ReviewFile } from "../reviews/file.ts";
import { overlayReviews, overlaySampledReviews } from "../reviews/store.ts";
import { VerdictStore } from "../store/store.ts";
import { UsageError } from "./errors.ts";
import { memoryLimitOf } from "./memory-limit.ts";
import { checkRunOf, experimentFor, reviewFileAt } from "./reviews-source.ts";

/** The store, experiment and reviews file a command reading a store was given (`--experiment`, or `--db` and `--reviews`). */
export interface StoreSources {
  readonly db: string;
  /** The flag that named the store, for messages. */
  readonly flag: "--db" | "--experiment";
  /** The experiment, when `--experiment` named one. */
  readonly exp: ResolvedExperiment | null;
  readonly experiment: string | null;
  readonly reviews: { readonly path: string; readonly file: ReviewFile } | null;
  readonly memoryLimit: string | undefined;
}

export interface StoreFlags {
  readonly experiment?: string;
  readonly db?: string;
  readonly reviews?: string;
  readonly memoryLimit?: string;
}

/** Resolves a command's store flags, checked before anything is opened; `command` names the command in messages. */
export function storeSources(command: string, opts: StoreFlags): StoreSources {
  const exp =
    opts.experiment === undefined
      ? null
      : experimentFor(opts.experiment, {
          ...(opts.db === undefined ? {} : { db: opts.db }),
          ...(opts.reviews === undefined ? {} : { reviews: opts.reviews }),
        });
  const db = exp?.output ?? (opts.db === undefined ? undefined : resolve(opts.db));
  if (db === undefined) throw new UsageError(`${command}: pass --experiment <file> or --db <file>`);
  const path = exp?.reviewsFile ?? (opts.reviews === undefined ? undefined : resolve(opts.reviews));
  return {
    db,
    flag: opts.db === undefined ? "--experiment" : "--db",
    exp,
    experiment: exp?.config.name ?? null,
    reviews: path === undefined ? null : { path, file: reviewFileAt(path) },
    memoryLimit: memoryLimitOf(opts.memoryLimit, exp?.config.duckdb?.memory_limit),
  };
}

/** Lays the reviews file over the store's reviews of the selected run's experiment (the store is not written). */
export async function overlayReviewsFile(
  store: VerdictStore,
  src: StoreSources,
  runId: string | undefined,
): Promise<void> {
  if (src.reviews === null) return;
  const run = await selectRun(store, runId);
  if (run === null) return; // nothing to match against: the command says the store has no run
  const experiment =
    src.experiment === null ? run.experiment : checkRunOf(run, src.experiment, src.db).experiment;
  await overlayReviews(store, experiment, src.reviews.file.reviews);
  await overlaySampledReviews(store, experiment, src.reviews.file.sampled ?? []);
}

export async function openStoreReadOnly(db: string, memoryLimit?: string): Promise<VerdictStore> {
  if (!existsSync(db))
    throw new UsageError(`${db}: no such DuckDB file (write one with \`tau-rescore run\`)`);
  return await VerdictStore.open(db, { readOnly: true, memoryLimit });
}
