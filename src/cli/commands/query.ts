/**
 * `tau-rescore query [--experiment F | --db F] "SQL"`: SQL over a verdict store, with the analysis views
 * of `report` (over the latest completed run, or `--run`). The store is opened read-only and no other
 * file can be read or written, so a statement that would write is refused. With `--experiment` (or
 * `--reviews`) the reviews file is laid over the store's, in memory, as `report` does.
 */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { QueryOptions } from "./query-command.ts";

export function registerQueryCommand(program: Command, io: CommandIo): void {
  program
    .command("query")
    .description(
      "run SQL on a verdict store opened read-only, with the analysis views of `report`; print the last statement's rows",
    )
    .argument("<sql>", "SQL statements, run in order (quote them as one argument)")
    .option(
      "--experiment <file>",
      "the experiment: its store (default for --db) and its reviews file, read now",
    )
    .option("--db <file>", "the DuckDB file written by `tau-rescore run` (default: the experiment's output)")
    .option("--reviews <file>", "reviews file to read now, replacing the experiment's")
    .option("--run <id>", "the run the views read (default: the latest completed run in the store)")
    .option("--format <fmt>", "table | csv | json (an array of row objects)", "table")
    .option(...MEMORY_LIMIT_OPTION)
    .action(async (sql: string, opts: QueryOptions) => {
      const { queryCommand } = await import("./query-command.ts");
      await queryCommand(sql, opts, io);
    });
}
