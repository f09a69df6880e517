/**
 * The `tau-rescore` command line: each command's flags, bound to its library function, which loads
 * only when the command runs (so `--help` loads no grader, DuckDB or chart code). A command line that
 * names a command loads that command's flags alone.
 */
import { Command } from "commander";
import { TOOL_VERSION } from "../util/package.ts";
import type { ReviewCommandIo } from "./commands/review.ts";
import { debugFromEnv } from "./env.ts";
import { reportCliError, trackCommand } from "./errors.ts";
import { addHelpCommand } from "./grader-help.ts";
import type { CommandIo } from "./io.ts";
import { outOfMemoryError } from "./memory-limit.ts";

/** What the whole command line needs: every command's IO, and `review`'s stdin and date. */
export type CliIo = ReviewCommandIo;

type RegisterCommand = (program: Command, io: CliIo) => void;

/**
 * Every command, in the order `--help` lists them. A command's module is imported only when the
 * program needs it: a command line naming one command (or `help <command>`) loads that one alone.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<RegisterCommand>])[] = [
  ["init", async () => (await import("./commands/init.ts")).registerInitCommand],
  ["corpus", async () => (await import("./commands/corpus.ts")).registerCorpusCommand],
  ["hash", async () => (await import("./commands/hash.ts")).registerHashCommand],
  ["grade", async () => (await import("./commands/grade.ts")).registerGradeCommand],
  ["labels", async () => (await import("./commands/labels.ts")).registerLabelsCommand],
  ["requirements", async () => (await import("./commands/requirements.ts")).registerRequirementsCommand],
  ["policies", async () => (await import("./commands/policies.ts")).registerPoliciesCommand],
  ["run", async () => (await import("./commands/run.ts")).registerRunCommand],
  ["report", async () => (await import("./commands/report.ts")).registerReportCommand],
  ["query", async () => (await import("./commands/query.ts")).registerQueryCommand],
  ["review", async () => (await import("./commands/review.ts")).registerReviewCommand],
  ["show", async () => (await import("./commands/show.ts")).registerShowCommand],
  ["view", async () => (await import("./commands/view.ts")).registerViewCommand],
  ["probe", async () => (await import("./commands/probe.ts")).registerProbeCommand],
];

/** The commands a command line needs: the one it names, or all (help, a flag first, a mistyped name). */
export function commandsFor(argv: readonly string[]): typeof COMMANDS {
  const named = argv[0] === "help" ? argv[1] : argv[0];
  const one = COMMANDS.filter(([name]) => name === named);
  return one.length === 1 ? one : COMMANDS;
}

/** The program with the commands `argv` needs (every command when no `argv` is given). */
export async function buildProgram(io: CliIo, argv: readonly string[] = []): Promise<Command> {
  const program = new Command()
    .name("tau-rescore")
    .description("Re-grade recorded tau2-bench / tau3 trajectories with two graders side by side.")
    .version(TOOL_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError("(add --help for usage)");
  trackCommand(program, debugFromEnv(io.env));
  const registers = await Promise.all(commandsFor(argv).map(([, load]) => load()));
  for (const register of registers) register(program, io);
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
    await (await buildProgram(withStatus, argv)).parseAsync([...argv], { from: "user" });
    return status;
  } catch (err) {
    return reportCliError(outOfMemoryError(err) ?? err, io.stderr);
  }
}

export type { CommandIo };
