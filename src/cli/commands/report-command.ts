/** `tau-rescore report` as a library function (see `report.ts` for what it writes). */
import { resolve } from "node:path";
import { checkOutDir } from "../../analysis/out-dir.ts";
import { type Summary, selectRun, writeReport } from "../../analysis/report.ts";
import { importGraderModules } from "../../experiments/grader-modules.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import type { ReviewFile } from "../../reviews/file.ts";
import { overlaySampledReviews } from "../../reviews/store.ts";
import type { VerdictStore } from "../../store/store.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import type { CommandIo } from "../io.ts";
import { memoryLimitOf } from "../memory-limit.ts";
import { openStoreReadOnly, overlayReviews } from "../report-store.ts";
import { checkRunOf, experimentFor, reviewFileAt } from "../reviews-source.ts";

export interface ReportOptions {
  db?: string;
  experiment?: string;
  reviews?: string;
  out: string;
  run?: string;
  charts?: boolean;
  html?: boolean;
  allConversations?: boolean;
  memoryLimit?: string;
}

interface Sources {
  readonly db: string;
  readonly experiment: string | null;
  readonly reviews: { readonly path: string; readonly file: ReviewFile } | null;
  readonly memoryLimit: string | undefined;
  /** The experiment's `report.min_model_simulations`, when it sets one. */
  readonly minModelSimulations: number | undefined;
}

/** The store and the reviews file the options name; checked before the store is opened. */
function sources(opts: ReportOptions): Sources {
  const exp =
    opts.experiment === undefined
      ? null
      : experimentFor(opts.experiment, {
          ...(opts.db === undefined ? {} : { db: opts.db }),
          ...(opts.reviews === undefined ? {} : { reviews: opts.reviews }),
        });
  const db = exp?.output ?? (opts.db === undefined ? undefined : resolve(opts.db));
  if (db === undefined) throw new UsageError("report: pass --experiment <file> or --db <file>");
  const path = exp?.reviewsFile ?? (opts.reviews === undefined ? undefined : resolve(opts.reviews));
  return {
    db,
    experiment: exp?.config.name ?? null,
    reviews: path === undefined ? null : { path, file: reviewFileAt(path) },
    memoryLimit: memoryLimitOf(opts.memoryLimit, exp?.config.duckdb?.memory_limit),
    minModelSimulations: exp?.config.report?.min_model_simulations,
  };
}

/** Lays the reviews file over the store's reviews of the selected run's experiment (the store is not written). */
async function loadReviews(store: VerdictStore, src: Sources, runId: string | undefined): Promise<void> {
  if (src.reviews === null) return;
  const run = await selectRun(store, runId);
  if (run === null) return; // nothing to match against: the report says the store has no run
  const experiment =
    src.experiment === null ? run.experiment : checkRunOf(run, src.experiment, src.db).experiment;
  await overlayReviews(store, experiment, src.reviews.file.reviews);
  await overlaySampledReviews(store, experiment, src.reviews.file.sampled ?? []);
}

/** `--out` checked before anything is opened or written (and again when the report is swapped in). */
function checkOut(out: string): void {
  checkOutDir(resolve(out));
}

/** The headline comparison's flips, and how many comparisons the report holds. */
function headlineFlips(s: Summary): string {
  const names = Object.keys(s.comparisons);
  const head = Object.entries(s.comparisons).find(([, c]) => c.headline)?.[0];
  return (
    `${s.flips.pass_to_fail} pass→fail and ${s.flips.fail_to_pass} fail→pass flips outside excluded files` +
    (head === undefined ? "" : ` in ${head}`) +
    (names.length > 1 ? ` (the headline of ${names.length} comparisons)` : "") +
    "; "
  );
}

/** Writes the report; every failure throws (a usage or input error). */
export async function reportCommand(opts: ReportOptions, io: CommandIo): Promise<void> {
  // The reviews file may name graders from the experiment's modules.
  if (opts.experiment !== undefined)
    await importGraderModules(experimentFor(opts.experiment, {}).graderModules);
  const src = sources(opts);
  checkOut(opts.out);
  const store = await openStoreReadOnly(src.db, src.memoryLimit);
  // Until writeReport stages the output (and takes the signals over), an interrupt only says so.
  const removeHandlers = onInterrupt(
    () => {},
    () => `${resolve(opts.out)} was left as it was`,
    io,
  );
  const html = opts.html === true;
  const rich = html || opts.charts === true;
  // Loaded only when asked for, as vega and resvg take a while to import; from now on, while DuckDB
  // computes the analyses on its own threads.
  const richReport = rich ? import("../../report/index.ts") : null;
  richReport?.catch(() => {}); // a failed import is reported where it is awaited
  try {
    // A run id the store does not hold is a usage mistake (the report's other errors are its output's).
    if (opts.run !== undefined) await selectRun(store, opts.run);
    await loadReviews(store, src, opts.run);
    const extra = richReport
      ? async (tmp: string, summary: Summary) => {
          const { writeRichReport, chartWarnings } = await richReport;
          const charts = await writeRichReport(store, tmp, {
            html,
            summary,
            writtenAt: new Date().toISOString(),
            reviewsSource: src.reviews?.path ?? null,
            allConversations: opts.allConversations === true,
            ...(src.minModelSimulations === undefined
              ? {}
              : { charts: { minModelSimulations: src.minModelSimulations } }),
          });
          return chartWarnings(charts);
        }
      : undefined;
    removeHandlers();
    const s = await writeReport(store, opts.out, extra, opts.run);
    const warnings = s.warnings ?? [];
    for (const w of warnings) io.stderr.write(`tau-rescore: warning: ${terminalSafe(w)}\n`);
    if (s.run === null)
      io.stderr.write(
        `tau-rescore: ${src.db} has no completed run (an interrupted run finishes when run again); the report is empty\n`,
      );
    const r = s.reviews;
    io.stderr.write(
      `report → ${opts.out}${s.run === null ? "" : ` (run ${s.run.run_id} of ${s.run.experiment})`}: ` +
        `${s.graded}/${s.simulations} simulations graded, ${s.errors} errors, ` +
        headlineFlips(s) +
        `reviews ${src.reviews === null ? "as stored" : `from ${src.reviews.path}`}: ${r.flips.confirmed} flips confirmed, ` +
        `${r.flips.unreviewed} unreviewed, ${r.stale} stale` +
        (html ? "; report.html, report.md and charts/ written" : rich ? "; charts/ written" : "") +
        (warnings.length === 0 ? "" : `; ${warnings.length} warning(s), in summary.json`) +
        "\n",
    );
  } finally {
    removeHandlers();
    store.close();
  }
}
