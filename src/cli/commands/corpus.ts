/** `tau-rescore corpus inspect`: the flags only; the command is in `corpus-command.ts`. */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import type { InspectOptions } from "./corpus-command.ts";

export function registerCorpusCommand(program: Command, io: CommandIo): void {
  const corpus = program.command("corpus").description("look at recorded trajectory files");
  corpus
    .command("inspect")
    .description("describe trajectory files: format variant, run, task version, counts, recorded pass rate")
    .argument("<paths...>", "files or directories (searched recursively for .json files)")
    .option("--json", "print one JSON object instead of a table")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option(
      "--requirements <dir>",
      "requirement fixtures counted per file (tasks whose fixture's quotes all stand in the file's task text); default the curated set",
    )
    .option(
      "--experiment <file>",
      "count the experiment's own requirement fixtures over the curated set (and read its data dir)",
    )
    .action(async (paths: string[], options: InspectOptions) => {
      const { corpusInspect } = await import("./corpus-command.ts");
      io.setExitCode(corpusInspect(paths, options, io));
    });
}
