/**
 * `tau-rescore report --db F --out DIR [--charts] [--html]`: every analysis as JSON, CSV and Parquet,
 * plus summary.json; `--charts` adds `charts/*.vl.json|svg|png`, `--html` adds the charts,
 * a self-contained `report.html` and a `report.md` for GitHub issues.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { ReportError, writeReport } from "../../analysis/report.ts";
import { StoreError, VerdictStore } from "../../store/store.ts";
import { InputError } from "../errors.ts";

interface ReportOptions {
  db: string;
  out: string;
  run?: string;
  charts?: boolean;
  html?: boolean;
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("export every paired analysis of a verdict store (JSON, CSV, Parquet) and a summary.json")
    .requiredOption("--db <file>", "the DuckDB file written by `tau-rescore run`")
    .requiredOption("--out <dir>", "output folder (replaced atomically)")
    .option("--run <id>", "the run to report (default: the latest completed run in the store)")
    .option("--charts", "also render the charts (charts/*.vl.json, .svg, .png)")
    .option("--html", "also write the charts, a self-contained report.html and a report.md")
    .action((opts: ReportOptions) => reportCommand(opts));
}

async function reportCommand(opts: ReportOptions): Promise<void> {
  // Opening a missing file would create an empty store and an empty report: say so instead.
  if (!existsSync(opts.db))
    throw new InputError(`${opts.db}: no such DuckDB file (write one with \`tau-rescore run\`)`);
  let store: VerdictStore;
  try {
    store = await VerdictStore.open(opts.db);
  } catch (e) {
    throw e instanceof StoreError ? new InputError(e.message) : e;
  }
  const html = opts.html === true;
  const rich = html || opts.charts === true;
  try {
    // Loaded only when asked for: vega and resvg take a while to import.
    const extra = rich
      ? async (tmp: string) => {
          const { writeRichReport } = await import("../../report/index.ts");
          await writeRichReport(store, tmp, { html });
        }
      : undefined;
    const s = await writeReport(store, opts.out, extra, opts.run);
    if (s.run === null)
      process.stderr.write(
        `tau-rescore: ${opts.db} has no completed run (an interrupted run finishes when run again); the report is empty\n`,
      );
    process.stderr.write(
      `report → ${opts.out}${s.run === null ? "" : ` (run ${s.run.run_id} of ${s.run.experiment})`}: ` +
        `${s.graded}/${s.simulations} simulations graded, ${s.errors} errors, ` +
        `${s.flips.pass_to_fail} pass→fail and ${s.flips.fail_to_pass} fail→pass flips` +
        (html ? "; report.html, report.md and charts/ written" : rich ? "; charts/ written" : "") +
        "\n",
    );
  } catch (e) {
    throw e instanceof ReportError ? new InputError(e.message) : e;
  } finally {
    store.close();
  }
}
