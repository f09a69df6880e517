/**
 * Ctrl-C and SIGTERM during a long command: stop the progress bar (it hid the cursor and turned line
 * wrap off), say what is safe in the store, and exit 128 + the signal number. Committed files are
 * complete (one transaction each), so a re-run continues where this one stopped.
 */
import type { CommandIo, SignalName } from "./io.ts";

const EXIT: Readonly<Record<SignalName, number>> = { SIGINT: 130, SIGTERM: 143 };

/** Installs the handlers (when `io` has signals); the returned function removes them. */
export function onInterrupt(
  restore: () => void,
  saved: () => string,
  io: Pick<CommandIo, "stderr" | "signals">,
): () => void {
  const signals = io.signals;
  if (signals === undefined) return () => {};
  const removers = (Object.keys(EXIT) as SignalName[]).map((signal) =>
    signals.once(signal, () => {
      restore();
      io.stderr.write(`\ntau-rescore: interrupted: ${saved()}\n`);
      signals.exit(EXIT[signal]);
    }),
  );
  return () => {
    for (const remove of removers) remove();
  };
}
