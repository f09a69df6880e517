/**
 * `tau-rescore policies verify|list`: audit the domain policy clauses of the structured grader
 * (`policies/<domain>/*.json`). The flags only; the commands are in `policies-command.ts`.
 */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";
import type { VerifyOptions } from "./policies-command.ts";

const load = () => import("./policies-command.ts");
const DIR_HELP = "policy clauses dir (default: the repo's policies/)";

export function registerPoliciesCommand(program: Command, io: CommandIo): void {
  const cmd = program
    .command("policies")
    .description("audit the domain policy clauses of the structured grader (policies/<domain>/*.json)");
  cmd
    .command("verify")
    .description(
      "verify clauses: quotes verbatim at their offsets in each policy document, tools, arguments, tables",
    )
    .option("--all", "every domain (the default without --domain)")
    .option("--domain <name>", "only this domain")
    .option("--dir <dir>", DIR_HELP)
    .option("--data-dir <dir>", "tau2 data dir; default $TAU2_DATA_DIR")
    .option("--json", "print the problems (and counts) as JSON")
    .action(async (opts: VerifyOptions) => (await load()).runVerify(opts, io));
  cmd
    .command("list")
    .description("list the clauses")
    .option("--dir <dir>", DIR_HELP)
    .option("--json", "print a JSON array of clauses")
    .action(async (opts: { dir?: string; json?: boolean }) =>
      (await import("./policies-list.ts")).runList(opts, io),
    );
}
