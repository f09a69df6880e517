/** `tau-rescore hash`: per-task DB hashes after initialisation and of the gold target. The flags only. */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import type { HashOptions } from "./hash-command.ts";

export function registerHashCommand(program: Command, io: CommandIo): void {
  program
    .command("hash")
    .description("print tau2 DB hashes per task: after initialisation and (with --gold) of the gold target")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .requiredOption("--domain <name>", "airline | retail | telecom | mock | banking_knowledge")
    .option(
      "--tasks-file <file>",
      "task file or task directory (default: <data-dir>/domains/<domain>/tasks.json; banking: …/tasks/)",
    )
    .option("--task <id...>", "only these task ids")
    .option("--gold", "also replay the gold actions: gold_target hashes and each action's result")
    .option("--format <fmt>", "jsonl", "jsonl")
    .action(async (opts: HashOptions) => {
      const { hashCommand } = await import("./hash-command.ts");
      hashCommand(opts, io);
    });
}
