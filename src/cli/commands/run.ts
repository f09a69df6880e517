/** `tau-rescore run <experiment.json>`: grade an experiment's corpus into its DuckDB file. The flags only. */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import { addJudgeRuntimeOptions } from "../judge-flags.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { RunOptions } from "./run-command.ts";

export function registerRunCommand(program: Command, io: CommandIo): void {
  const cmd = program
    .command("run")
    .description("grade every simulation of an experiment with both graders into one DuckDB file")
    .argument("<experiment>", "experiment config (JSON, see experiments/default.json)")
    .option("--db <path>", "DuckDB output file (default: the experiment's `output`)")
    // One path per flag (repeatable): a variadic option would swallow the experiment after it.
    .option(
      "--corpus <path>",
      "trajectory file or folder, replacing the experiment's corpus (repeat for several)",
      (p: string, all: string[] = []) => [...all, p],
    )
    .option("--data-dir <dir>", "tau2 data dir, replacing the experiment's (also $TAU2_DATA_DIR)")
    .option("--reviews <file>", "reviews file, replacing the experiment's (loaded into the store)")
    .option(
      "--grader-timeout <seconds>",
      "seconds a grader from grader_modules may take on one simulation before it is an error row (default: $TAU_RESCORE_GRADER_TIMEOUT, else 60)",
    )
    .option(...MEMORY_LIMIT_OPTION);
  addJudgeRuntimeOptions(cmd);
  cmd.action(async (file: string, opts: RunOptions) => {
    const { runCommand } = await import("./run-command.ts");
    io.setExitCode(await runCommand(file, opts, io));
  });
}
