/**
 * CLI error kinds and exit codes. Every error prints one line without a stack trace; an unexpected
 * error (a bug) prints its stack only with `--debug` or `TAU_RESCORE_DEBUG=1`.
 *
 * Exit codes: 0 all inputs fine, 1 some input failed, 2 usage error (bad flags or arguments),
 * 3 internal error. Commander's own parse errors arrive as `CommanderError` when the program uses
 * `exitOverride()`; they are already printed by commander and map to 2 (0 for `--help`/`--version`).
 */
import { type Command, CommanderError } from "commander";
import { FormatError } from "../formats/errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";

export const EXIT_OK = 0;
export const EXIT_INPUT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

/** Wrong flags or arguments: exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** An input file or directory could not be used: exit code 1. */
export class InputError extends Error {
  override readonly name = "InputError";
}

const expected = (err: unknown): boolean =>
  err instanceof UsageError || err instanceof InputError || err instanceof FormatError;

export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (err instanceof UsageError) return EXIT_USAGE;
  return expected(err) ? EXIT_INPUT_FAILED : EXIT_INTERNAL;
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

/** Prints the error in one line (a stack only when debugging), sets `process.exitCode`, and returns the code. */
export function reportCliError(err: unknown, stderr: ErrorSink = process.stderr): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError) {
    // commander printed its message already
  } else if (expected(err)) {
    stderr.write(`tau-rescore: ${terminalSafe((err as Error).message)}\n`); // messages quote corpus names
  } else {
    const who = running.command === null ? "tau-rescore" : `tau-rescore ${running.command}`;
    const stack = err instanceof Error ? err.stack : undefined;
    stderr.write(
      running.debug && stack !== undefined
        ? `${who}: unexpected error: ${stack.split("\n").map(terminalSafe).join("\n")}\n`
        : `${who}: unexpected error: ${terminalSafe(oneLine(String(err)))} (run with --debug or TAU_RESCORE_DEBUG=1 for the stack)\n`,
    );
  }
  process.exitCode = code;
  return code;
}
