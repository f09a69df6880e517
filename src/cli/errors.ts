/**
 * CLI error kinds and exit codes. Expected problems print one line without a stack trace; only
 * unexpected errors (bugs) print a stack.
 *
 * Exit codes: 0 all inputs fine, 1 some input failed, 2 usage error (bad flags or arguments).
 * Commander's own parse errors arrive as `CommanderError` when the program uses `exitOverride()`; they
 * are already printed by commander and map to 2 (0 for `--help`/`--version`).
 */
import { CommanderError } from "commander";
import { FormatError } from "../formats/errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";

export const EXIT_OK = 0;
export const EXIT_INPUT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Wrong flags or arguments: exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** An input file or directory could not be used: exit code 1. */
export class InputError extends Error {
  override readonly name = "InputError";
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (err instanceof UsageError) return EXIT_USAGE;
  return EXIT_INPUT_FAILED;
}

interface ErrorSink {
  write(chunk: string): unknown;
}

/** Prints the error (one line when expected), sets `process.exitCode`, and returns the code. */
export function reportCliError(err: unknown, stderr: ErrorSink = process.stderr): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError) {
    // commander printed its message already
  } else if (err instanceof UsageError || err instanceof InputError || err instanceof FormatError) {
    stderr.write(`tau-rescore: ${terminalSafe(err.message)}\n`); // messages quote corpus names
  } else {
    stderr.write(
      `tau-rescore: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exitCode = code;
  return code;
}
