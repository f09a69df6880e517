/** The `tau-rescore` command line: a thin layer that parses flags and calls library functions. */
import { Command } from "commander";
import { registerCorpusCommand } from "./commands/corpus.ts";
import { registerGradeCommand } from "./commands/grade.ts";
import { registerHashCommand } from "./commands/hash.ts";
import { registerLabelsCommand } from "./commands/labels.ts";
import { registerPoliciesCommand } from "./commands/policies.ts";
import { registerProbeCommand } from "./commands/probe.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerRequirementsCommand } from "./commands/requirements.ts";
import { registerReviewCommand } from "./commands/review.ts";
import { registerRunCommand } from "./commands/run.ts";
import { debugFromEnv } from "./env.ts";
import { reportCliError, trackCommand } from "./errors.ts";
import { outOfMemoryError } from "./memory-limit.ts";

export function buildProgram(): Command {
  const program = new Command()
    .name("tau-rescore")
    .description("Re-grade recorded tau2-bench / tau3 trajectories with two graders side by side.")
    .version("0.1.0")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)");
  trackCommand(program, debugFromEnv());
  registerCorpusCommand(program);
  registerHashCommand(program);
  registerGradeCommand(program);
  registerLabelsCommand(program);
  registerRequirementsCommand(program);
  registerPoliciesCommand(program);
  registerRunCommand(program);
  registerReportCommand(program);
  registerReviewCommand(program);
  registerProbeCommand(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv], { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    return reportCliError(outOfMemoryError(err) ?? err);
  }
}

// A closed pipe (`tau-rescore ... | head`) is a normal way to stop reading, not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

const code = await main(process.argv.slice(2));
process.exitCode = code;
