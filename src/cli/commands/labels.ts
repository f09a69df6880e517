/** `tau-rescore labels`: the hand-off label file of a task set (should the agent transfer, and by which rule). */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import type { LabelOptions } from "./labels-command.ts";

export function registerLabelsCommand(program: Command, io: CommandIo): void {
  program
    .command("labels")
    .description(
      "write the hand-off labels of a task set: should_transfer per task, its rule, and the task file's sha256",
    )
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .requiredOption("--domain <name>", "airline | retail | telecom | mock | banking_knowledge")
    .option(
      "--task-version <name>",
      "task set (head, head/tasks_small, v0.2.0_f8de30c, ...); default: the first",
    )
    .option(
      "--overrides <file>",
      "reviewed overrides {domains: {<domain>: {<task id>: {should_transfer, reason}}}}",
    )
    .option("--out <file>", "write the label file here instead of stdout")
    .action(async (opts: LabelOptions) => {
      const { labelsCommand } = await import("./labels-command.ts");
      labelsCommand(opts, io);
    });
}
