/** `tau-rescore report` as a library function (see `report.ts` for what it writes). */
import { resolve } from "node:path";
import { writeReport } from "../../analysis/export.ts";
import type { Staging } from "../../analysis/out-dir.ts";
import { checkOutDir } from "../../analysis/out-dir.ts";
import { selectRun } from "../../analysis/run.ts";
import type { Summary } from "../../analysis/summary.ts";
import { importGraderModules } from "../../experiments/grader-modules.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { stopOpenStores } from "../../store/open-stores.ts";
import { onSignal } from "../interrupt.ts";
import type { CommandIo } from "../io.ts";
import { openStoreReadOnly, overlayReviewsFile, type StoreSources, storeSources } from "../report-store.ts";
import { experimentFor } from "../reviews-source.ts";

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

interface Sources extends StoreSources {
  /** The experiment's `report.min_model_simulations`, when it sets one. */
  readonly minModelSimulations: number | undefined;
}

function sources(opts: ReportOptions): Sources {
  const src = storeSources("report", opts);
  return { ...src, minModelSimulations: src.exp?.config.report?.min_model_simulations };
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
  const target = resolve(opts.out);
  // Once the report is staged, an interrupt or an exit removes its partial folder.
  let staged: Pick<Staging, "abort"> | null = null;
  const removeHandlers = onSignal(io, (signal) => {
    if (staged === null) return `\ntau-rescore: interrupted: ${target} was left as it was\n`;
    stopOpenStores(); // a query may be writing into the partial folder
    staged.abort();
    return `tau-rescore: report interrupted (${signal}); ${target} was left as it was\n`;
  });
  const removeExitHook = io.signals?.onExit(() => staged?.abort()) ?? (() => {});
  const html = opts.html === true;
  const rich = html || opts.charts === true;
  // Loaded only when asked for, as vega and resvg take a while to import; from now on, while DuckDB
  // computes the analyses on its own threads.
  const richReport = rich ? import("../../report/index.ts") : null;
  richReport?.catch(() => {}); // a failed import is reported where it is awaited
  try {
    // A run id the store does not hold is a usage mistake (the report's other errors are its output's).
    if (opts.run !== undefined) await selectRun(store, opts.run);
    await overlayReviewsFile(store, src, opts.run);
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
    const s = await writeReport(store, opts.out, extra, {
      runId: opts.run,
      onStaged: (staging) => {
        staged = staging;
      },
    });
    // Complete and in place: nothing is left to remove.
    removeHandlers();
    removeExitHook();
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
    removeExitHook();
    store.close();
  }
}
