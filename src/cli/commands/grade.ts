/**
 * `tau-rescore grade`: one JSON line (or a table row) per simulation, with each selected grader's verdict.
 * The flags only: the command (`grade-command.ts`) and the graders load when it runs.
 */
import type { Command } from "commander";
import { DEFAULT_DELTA_MODE, GATE_WORDS, SWITCH_GATES } from "../../graders/structured/gate-names.ts";
import { nameGradersInHelp } from "../grader-help.ts";
import type { CommandIo } from "../io.ts";
import { addJudgeRuntimeOptions } from "../judge-flags.ts";
import type { GradeOptions } from "./grade-command.ts";

/** tau2's judge model (`DEFAULT_JUDGE_MODEL` in graders/tau3/judge/prompt.ts), for the help text. */
export const JUDGE_MODEL_HELP = "gpt-4.1-2025-04-14";

const graderHelp = (graders: string) =>
  `comma-separated graders (${graders}, or the id of a --grader-module's grader); e.g. tau3,structured`;

export function registerGradeCommand(program: Command, io: CommandIo): void {
  const cmd = program
    .command("grade")
    .description("grade every simulation of the given trajectory files (or directories)")
    .argument("<paths...>", "trajectory files or directories")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option("--grader <list>", graderHelp("the built-in graders"), "tau3")
    .option(
      "--grader-module <path>",
      "a grader module (its default export a grader, docs/extending.md), graded as `run` grades an experiment's grader_modules (repeatable)",
      (p: string, all: string[] = []) => [...all, p],
    )
    .option(
      "--grader-config <id=json>",
      `the configuration of a --grader-module's grader, e.g. 'tau3_lenient={"ignore":["COMMUNICATE"]}' (repeatable)`,
      (p: string, all: string[] = []) => [...all, p],
    )
    .option(
      "--grader-timeout <seconds>",
      "seconds a --grader-module's grader may take on one simulation before it is an error (default: $TAU_RESCORE_GRADER_TIMEOUT, else 60)",
    )
    .option(
      "--requirements <dir>",
      "requirement fixtures for the structured grader (default: the repo's requirements/)",
    )
    .option(
      "--policies <dir>",
      "domain policy clauses for the structured grader (default: the repo's policies/)",
    )
    .option("--handoff-overrides <file>", "reviewed hand-off label overrides for the structured grader")
    .option(
      "--delta-gate <mode>",
      "licensed (off-reference writes fail unless licensed) or strict",
      DEFAULT_DELTA_MODE,
    )
    .option(
      "--policy-clauses <on|off>",
      "broken domain policy clauses fail the structured verdict",
      SWITCH_GATES.policy_clauses ? "on" : "off",
    )
    .option(
      "--gate <list>",
      `comma-separated policy rules, and ${GATE_WORDS.join(", ")}, that fail the structured verdict (default: none; all are reported)`,
    )
    .option("--format <fmt>", "jsonl | table", "jsonl")
    .option("--judge <mode>", "NL-assertion judge: recorded | http | none", "recorded")
    .option(
      "--judge-base-url <url>",
      "OpenAI-compatible endpoint for --judge http; default $TAU_RESCORE_JUDGE_BASE_URL or $OPENAI_BASE_URL",
    )
    .option("--judge-model <model>", `judge model; default $TAU_RESCORE_JUDGE_MODEL or ${JUDGE_MODEL_HELP}`)
    .option("--judge-api-key <key>", "judge API key; default $TAU_RESCORE_JUDGE_API_KEY or $OPENAI_API_KEY")
    .option("--judge-all", "live judge: also where tau2 would not call it (NL_ASSERTION outside the basis)")
    .option(
      "--judge-params <json>",
      'live judge: extra request parameters tau2 does not send, e.g. \'{"response_format":{"type":"json_object"}}\'',
    )
    .option(
      "--judge-cache <file>",
      "live judge: DuckDB file of judge replies, read and extended (a run's store works)",
    )
    .option("--corrections <on|off>", "also report verdicts under the corrections overlay", "off")
    .option("--corrections-dir <dir>", "corrections overlays (default: the repo's corrections/)")
    .option("--fallback-task-version <name>", "task set for files that embed no tasks", "head")
    .option(
      "--domain-as <name=base>",
      "grade files of domain NAME as the domain BASE: a variant with no domains/NAME/variant.json in the data dir (repeatable)",
      (p: string, all: string[] = []) => [...all, p],
    )
    .option("--quirks <preset>", "tau2 bugs: tau2 (reproduce, for parity) or fixed", "tau2")
    // Repeatable, not variadic: a variadic option would swallow the paths after it.
    .option(
      "--quirk <name=on|off>",
      "override one quirk, e.g. noGoldSync=off (repeatable)",
      (q: string, all: string[] = []) => [...all, q],
    );
  addJudgeRuntimeOptions(cmd);
  nameGradersInHelp(program, cmd, "--grader", graderHelp);
  cmd.action(async (paths: string[], opts: GradeOptions) => {
    const { gradeCommand } = await import("./grade-command.ts");
    io.setExitCode(await gradeCommand(paths, opts, io));
  });
}
