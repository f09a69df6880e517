/**
 * Where every error becomes an exit status and one line, in one place. Every error of this tool is a
 * `RescoreError` (`util/errors.ts`) that names its exit status; commands throw or let through the
 * errors of the layers below untranslated. Every error prints one line without a stack trace; an
 * unexpected error (a bug, or one whose status is internal) prints its stack only with `--debug` or
 * `TAU_RESCORE_DEBUG=1`.
 *
 * Exit codes: 0 all inputs fine, 1 some input failed, 2 usage error (bad flags or arguments),
 * 3 internal error. Commander's own parse errors arrive as `CommanderError` when the program uses
 * `exitOverride()`; they are already printed by commander and map to 2 (0 for `--help`/`--version`).
 */
import { type Command, CommanderError } from "commander";
import { terminalSafe } from "../formats/terminal-text.ts";
import { EXIT_INPUT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RescoreError } from "../util/errors.ts";

export { EXIT_INPUT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE } from "../util/errors.ts";

/** Wrong flags or arguments: exit code 2. */
export class UsageError extends RescoreError {
  override readonly code = "usage";
  override readonly exitStatus = EXIT_USAGE;
  override readonly name = "UsageError";
}

/** An input file or directory could not be used: exit code 1. */
export class InputError extends RescoreError {
  override readonly code = "input";
  override readonly exitStatus = EXIT_INPUT_FAILED;
  override readonly name = "InputError";
}

/** An error the user can act on from its message alone (anything else is printed as unexpected). */
const expected = (err: unknown): err is RescoreError =>
  err instanceof RescoreError && err.exitStatus !== EXIT_INTERNAL;

export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  return expected(err) ? err.exitStatus : EXIT_INTERNAL;
}

/** The command that is running and whether `--debug` was given: what an unexpected error's line says. */
const running = { command: null as string | null, debug: false };

/**
 * Adds the global `--debug` flag, and notes before each action which command runs. `debugEnv`:
 * `TAU_RESCORE_DEBUG` as the command line read it.
 */
export function trackCommand(program: Command, debugEnv = false): Command {
  running.command = null;
  running.debug = debugEnv;
  return program
    .option("--debug", "print the stack of an unexpected error (also TAU_RESCORE_DEBUG=1)")
    .hook("preAction", (root, action) => {
      const names: string[] = [];
      for (let c: Command | null = action; c !== null && c !== root; c = c.parent) names.unshift(c.name());
      running.command = names.join(" ");
      running.debug = debugEnv || root.opts().debug === true;
    });
}

interface ErrorSink {
  write(chunk: string): unknown;
}

/** One line: an error text may span several (DuckDB's do). */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim();

/** Prints the error in one line (a stack only when debugging) and returns the exit status it calls for. */
export function reportCliError(err: unknown, stderr: ErrorSink): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError) {
    // commander printed its message already
  } else if (expected(err)) {
    stderr.write(`tau-rescore: ${terminalSafe(err.message)}\n`); // messages quote corpus names
  } else {
    const who = running.command === null ? "tau-rescore" : `tau-rescore ${running.command}`;
    const stack = err instanceof Error ? err.stack : undefined;
    stderr.write(
      running.debug && stack !== undefined
        ? `${who}: unexpected error: ${stack.split("\n").map(terminalSafe).join("\n")}\n`
        : `${who}: unexpected error: ${terminalSafe(oneLine(String(err)))} (run with --debug or TAU_RESCORE_DEBUG=1 for the stack)\n`,
    );
  }
  return code;
}
