/**
 * `tau-rescore report [--experiment F | --db F] --out DIR [--charts] [--html]`: every analysis as JSON,
 * CSV and Parquet, plus summary.json; `--charts` adds `charts/*.vl.json|svg|png`, `--html` adds the
 * charts, a `report.html` (with the conversation behind each flip outside excluded files; its charts are the
 * SVG files of `charts/`) and a `report.md`.
 *
 * Reviews: with `--experiment` (or `--reviews`) the reviews file is read now and laid over the store's
 * (in memory), so the report shows the file as it is; without, the report shows the reviews the store
 * holds (loaded by the last `run` or `review` of that experiment). The store is opened read-only.
 */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { ReportOptions } from "./report-command.ts";

export function registerReportCommand(program: Command, io: CommandIo): void {
  program
    .command("report")
    .description("export every paired analysis of a verdict store (JSON, CSV, Parquet) and a summary.json")
    .option(
      "--experiment <file>",
      "the experiment: its store (default for --db) and its reviews file, read now",
    )
    .option("--db <file>", "the DuckDB file written by `tau-rescore run` (default: the experiment's output)")
    .option("--reviews <file>", "reviews file to read now, replacing the experiment's")
    .requiredOption(
      "--out <dir>",
      "output folder: new, empty, or a previous report (replaced whole; nothing else is ever deleted)",
    )
    .option("--run <id>", "the run to report (default: the latest completed run in the store)")
    .option("--charts", "also render the charts (charts/*.vl.json, .svg, .png)")
    .option("--html", "also write the charts, a report.html (charts from charts/) and a report.md")
    .option(
      "--all-conversations",
      "report.html shows the conversation of every simulation the run stored, not only the flips outside excluded files",
    )
    .option(...MEMORY_LIMIT_OPTION)
    .action(async (opts: ReportOptions) => {
      const { reportCommand } = await import("./report-command.ts");
      await reportCommand(opts, io);
    });
}
