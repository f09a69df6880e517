/**
 * `tau-rescore show <id> [file]`: one simulation, whole, in the terminal (or as one JSON object): where
 * it is, each grader's verdict, every cause with its evidence, and the whole conversation with the
 * messages the evidence points at marked by the cause's label. From a store (`--db` or `--experiment`),
 * the latest completed run unless `--run`; from a trajectory file, graded now. The flags only: the
 * command (`show-command.ts`) loads when it runs.
 */
import type { Command } from "commander";
import { DEFAULT_DELTA_MODE, GATE_WORDS, SWITCH_GATES } from "../../graders/structured/gate-names.ts";
import { nameGradersInHelp } from "../grader-help.ts";
import type { CommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { ShowOptions } from "./show-command.ts";

const graderHelp = (graders: string) =>
  `with a file: comma-separated graders (${graders}); default tau3,structured`;

export function registerShowCommand(program: Command, io: CommandIo): void {
  const cmd = program
    .command("show")
    .description("show one simulation whole: its verdicts, causes, evidence and conversation")
    .argument("<id>", "the simulation's id in its trajectory file, or its fingerprint")
    .argument("[file]", "a trajectory file: grade the simulation in it now instead of reading a store")
    .option("--experiment <file>", "the experiment whose store to read (its output, unless --db)")
    .option("--db <file>", "the DuckDB file written by `tau-rescore run` (default: the experiment's output)")
    .option("--run <id>", "the run to read (default: the latest completed run in the store)")
    .option("--path <path>", "its file, relative to the corpus root (when the id is in several files)")
    .option(
      "--json",
      "one JSON object: {source, simulation, verdicts, comparisons, causes (each with its evidence), conversation_note, messages}",
    )
    .option(...MEMORY_LIMIT_OPTION)
    .option(
      "--data-dir <dir>",
      "with a file: tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR",
    )
    .option("--grader <list>", graderHelp("the built-in graders"))
    .option("--requirements <dir>", "with a file: requirement fixtures (default: the repo's requirements/)")
    .option("--policies <dir>", "with a file: domain policy clauses (default: the repo's policies/)")
    .option(
      "--gate <list>",
      `with a file: comma-separated policy rules, and ${GATE_WORDS.join(", ")}, that fail the structured verdict`,
    )
    .option("--delta-gate <mode>", `with a file: licensed or strict (default ${DEFAULT_DELTA_MODE})`)
    .option(
      "--policy-clauses <on|off>",
      `with a file: broken policy clauses fail the structured verdict (default ${SWITCH_GATES.policy_clauses ? "on" : "off"})`,
    )
    .option("--judge <mode>", "with a file: NL-assertion judge, recorded or none (default recorded)")
    .option("--corrections <on|off>", "with a file: also grade under the corrections overlay (default off)")
    .option(
      "--fallback-task-version <name>",
      "with a file: task set for files that embed no tasks (default head)",
    )
    .option(
      "--domain-as <name=base>",
      "with a file: grade a file of domain NAME as the domain BASE (repeatable)",
      (p: string, all: string[] = []) => [...all, p],
    )
    .option("--quirks <preset>", "with a file: tau2 bugs, tau2 or fixed (default tau2)")
    .action(async (id: string, file: string | undefined, opts: ShowOptions) => {
      const { showCommand } = await import("./show-command.ts");
      await showCommand(id, file, opts, io);
    });
  nameGradersInHelp(program, cmd, "--grader", graderHelp);
}
