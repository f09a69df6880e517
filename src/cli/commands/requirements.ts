/**
 * `tau-rescore requirements scan|new|verify|list`: authoring and auditing the requirement fixtures of
 * the structured grader. The flags only; the commands are in `requirements-command.ts`.
 */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import type { ListOptions, NewOptions, ScanOptions, VerifyOptions } from "./requirements-command.ts";

const load = () => import("./requirements-command.ts");

const DOMAIN_NAMES = "airline | retail | telecom | banking_knowledge";
const DATA_DIR_HELP = "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR";
const DIR_HELP = "requirement fixtures dir (default: the repo's requirements/)";

export function registerRequirementsCommand(program: Command, io: CommandIo): void {
  const cmd = program
    .command("requirements")
    .description("author and audit requirement fixtures (typed user prohibitions) of the structured grader");

  cmd
    .command("scan")
    .description(
      "list candidate prohibition sentences (or, with --facts, fact sentences) in task instructions",
    )
    .option(
      "--facts",
      "candidate task facts instead: amounts, reasons, booking times (with --summary: covered by task_facts, rejected in _reviewed-facts.json)",
    )
    .option("--domain <name>", `${DOMAIN_NAMES} (optional with --summary)`)
    .option("--task-version <v>", "head, head/tasks_small or a versions/ folder name (default: all)")
    .option("--task <id>", "only this task id")
    .option("--summary", "print the coverage table: candidates, rules, rejected, unreviewed")
    .option("--dir <dir>", `${DIR_HELP}; used by --summary`)
    .option("--json", "machine-readable output")
    .option("--data-dir <dir>", DATA_DIR_HELP)
    .action(async (opts: ScanOptions) => {
      const m = await load();
      return opts.summary === true ? m.runSummary(opts, io) : m.runScan(opts, io);
    });

  cmd
    .command("new")
    .description(
      "print a fixture scaffold for one task, prefilled with its candidate quotes and suggested task facts",
    )
    .requiredOption("--domain <name>", DOMAIN_NAMES)
    .requiredOption("--task <id>", "task id")
    .option("--task-version <v>", "task version (default: the first that has the task, head first)")
    .option("--out <file>", "write the scaffold to this file instead of printing it")
    .option("--force", "with --out: overwrite an existing file")
    .option("--data-dir <dir>", DATA_DIR_HELP)
    .action(async (opts: NewOptions) => (await load()).runNew(opts, io));

  cmd
    .command("verify [fixtures...]")
    .description("verify fixtures against the task data: quotes, actions, ids, scopes, file paths")
    .option("--all", "verify every fixture of --dir (the default when no fixture file is given)")
    .option("--dir <dir>", DIR_HELP)
    .option("--data-dir <dir>", DATA_DIR_HELP)
    .action(async (fixtures: string[], opts: VerifyOptions) => (await load()).runVerify(fixtures, opts, io));

  cmd
    .command("list")
    .description("list the rules of a requirement set")
    .option("--dir <dir>", DIR_HELP)
    .option("--json", "print a JSON array of rules")
    .action(async (opts: ListOptions) => (await load()).runList(opts, io));
}
