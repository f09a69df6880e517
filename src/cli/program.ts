/**
 * The `tau-rescore` command line: each command's flags, bound to its library function, which loads
 * only when the command runs (so `--help` loads no grader, DuckDB or chart code).
 */
import { Command } from "commander";
import { TOOL_VERSION } from "../util/package.ts";
import { registerCorpusCommand } from "./commands/corpus.ts";
import { registerGradeCommand } from "./commands/grade.ts";
import { registerHashCommand } from "./commands/hash.ts";
import { registerInitCommand } from "./commands/init.ts";
import { registerLabelsCommand } from "./commands/labels.ts";
import { registerPoliciesCommand } from "./commands/policies.ts";
import { registerProbeCommand } from "./commands/probe.ts";
import { registerQueryCommand } from "./commands/query.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerRequirementsCommand } from "./commands/requirements.ts";
import { type ReviewCommandIo, registerReviewCommand } from "./commands/review.ts";
import { registerRunCommand } from "./commands/run.ts";
import { registerShowCommand } from "./commands/show.ts";
import { registerViewCommand } from "./commands/view.ts";
import { debugFromEnv } from "./env.ts";
import { reportCliError, trackCommand } from "./errors.ts";
import { addHelpCommand } from "./grader-help.ts";
import type { CommandIo } from "./io.ts";
import { outOfMemoryError } from "./memory-limit.ts";

/** What the whole command line needs: every command's IO, and `review`'s stdin and date. */
export type CliIo = ReviewCommandIo;

export function buildProgram(io: CliIo): Command {
  const program = new Command()
    .name("tau-rescore")
    .description("Re-grade recorded tau2-bench / tau3 trajectories with two graders side by side.")
    .version(TOOL_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError("(add --help for usage)");
  trackCommand(program, debugFromEnv(io.env));
  registerInitCommand(program, io);
  registerCorpusCommand(program, io);
  registerHashCommand(program, io);
  registerGradeCommand(program, io);
  registerLabelsCommand(program, io);
  registerRequirementsCommand(program, io);
  registerPoliciesCommand(program, io);
  registerRunCommand(program, io);
  registerReportCommand(program, io);
  registerQueryCommand(program, io);
  registerReviewCommand(program, io);
  registerShowCommand(program, io);
  registerViewCommand(program, io);
  registerProbeCommand(program, io);
  addHelpCommand(program);
  return program;
}

/** Runs one command line; returns its exit status. Errors are printed as one line on `io.stderr`. */
export async function runCli(argv: readonly string[], io: Omit<CliIo, "setExitCode">): Promise<number> {
  let status = 0;
  const withStatus: CliIo = {
    ...io,
    setExitCode: (code) => {
      status = Math.max(status, code);
    },
  };
  try {
    await buildProgram(withStatus).parseAsync([...argv], { from: "user" });
    return status;
  } catch (err) {
    return reportCliError(outOfMemoryError(err) ?? err, io.stderr);
  }
}

export type { CommandIo };
