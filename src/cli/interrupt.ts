/**
 * Ctrl-C, SIGTERM and SIGHUP (a closed terminal) during a long command: stop the progress bar (it hid
 * the cursor and turned line wrap off), say what is safe in the store, and exit 128 + the signal
 * number. Committed files are complete (one transaction each), so a re-run continues where this one
 * stopped.
 */
import type { CommandIo, SignalName } from "./io.ts";

/** The exit status after each signal a command stops on (docs/reference/exit-codes.md). */
export const EXIT_ON_SIGNAL: Readonly<Record<SignalName, number>> = {
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
};

/**
 * Installs the handlers (when `io` has signals): on the first signal, `stop` puts the command's work in
 * order and returns the line to print, and the process exits with the signal's status. The returned
 * function removes them.
 */
export function onSignal(
  io: Pick<CommandIo, "stderr" | "signals">,
  stop: (signal: SignalName) => string,
): () => void {
  const signals = io.signals;
  if (signals === undefined) return () => {};
  const removers = (Object.keys(EXIT_ON_SIGNAL) as SignalName[]).map((signal) =>
    signals.once(signal, () => {
      io.stderr.write(stop(signal));
      signals.exit(EXIT_ON_SIGNAL[signal]);
    }),
  );
  return () => {
    for (const remove of removers) remove();
  };
}

/** `onSignal` for a command whose interrupt restores the terminal and says what was `saved`. */
export function onInterrupt(
  restore: () => void,
  saved: () => string,
  io: Pick<CommandIo, "stderr" | "signals">,
): () => void {
  return onSignal(io, () => {
    restore();
    return `\ntau-rescore: interrupted: ${saved()}\n`;
  });
}
