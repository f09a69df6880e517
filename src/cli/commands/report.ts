/** `tau-rescore report --db F --out DIR`: every analysis as JSON, CSV and Parquet, plus summary.json. */
import type { Command } from "commander";
import { ReportError, writeReport } from "../../analysis/report.ts";
import { StoreError, VerdictStore } from "../../store/store.ts";
import { InputError } from "../errors.ts";

interface ReportOptions {
  db: string;
  out: string;
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("export every paired analysis of a verdict store (JSON, CSV, Parquet) and a summary.json")
    .requiredOption("--db <file>", "the DuckDB file written by `tau-rescore run`")
    .requiredOption("--out <dir>", "output folder (replaced atomically)")
    .action((opts: ReportOptions) => reportCommand(opts));
}

async function reportCommand(opts: ReportOptions): Promise<void> {
  let store: VerdictStore;
  try {
    store = await VerdictStore.open(opts.db);
  } catch (e) {
    throw e instanceof StoreError ? new InputError(e.message) : e;
  }
  try {
    const s = await writeReport(store, opts.out);
    process.stderr.write(
      `report → ${opts.out}: ${s.graded}/${s.simulations} simulations graded, ${s.errors} errors, ` +
        `${s.flips.pass_to_fail} pass→fail and ${s.flips.fail_to_pass} fail→pass flips\n`,
    );
  } catch (e) {
    throw e instanceof ReportError ? new InputError(e.message) : e;
  } finally {
    store.close();
  }
}
