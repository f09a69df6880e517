/**
 * `tau-rescore view <experiment>`: a local web app over the experiment's store and reviews file, to read
 * any simulation whole and record, change or withdraw reviews in the browser. The flags only: the
 * command (`view-command.ts`) loads when it runs.
 */
import type { Command } from "commander";
import type { ReviewCommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { ViewOptions } from "./view-command.ts";

export function registerViewCommand(program: Command, io: ReviewCommandIo): void {
  program
    .command("view")
    .description(
      "serve the run and its reviews in the browser on 127.0.0.1: comparisons, flips with filters, any simulation by id, and review forms that write the reviews file; prints the URL (with its access token) and serves until Ctrl-C",
    )
    .argument(
      "<experiment>",
      "experiment config (JSON); its reviews file is `reviews` (default reviews/<name>.json)",
    )
    .option("--db <file>", "the experiment's DuckDB file (default: its `output`), opened read-only")
    .option("--reviews <file>", "reviews file, replacing the experiment's")
    .option("--run <id>", "the run to show (default: the latest completed run)")
    .option("--port <n>", "the port on 127.0.0.1 (default: a free one)")
    .option("--reviewer <name>", "the name review forms start with (default $TAU_RESCORE_REVIEWER)")
    .option("--seed <n>", "the seed the sample pages draw with unless the page says (default 0)")
    .option(...MEMORY_LIMIT_OPTION)
    .action(async (experiment: string, opts: ViewOptions) => {
      const { viewCommand } = await import("./view-command.ts");
      await viewCommand(experiment, opts, io);
    });
}
