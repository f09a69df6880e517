/**
 * Ctrl-C and SIGTERM during a long command: stop the progress bar (it hid the cursor and turned line
 * wrap off), say what is safe in the store, and exit 128 + the signal number. Committed files are
 * complete (one transaction each), so a re-run continues where this one stopped.
 */
const EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** Installs the handlers; the returned function removes them. */
export function onInterrupt(
  restore: () => void,
  saved: () => string,
  stderr: { write(s: string): unknown } = process.stderr,
): () => void {
  const handlers = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((signal) => {
    const handler = () => {
      restore();
      stderr.write(`\ntau-rescore: interrupted: ${saved()}\n`);
      process.exit(EXIT[signal]);
    };
    process.once(signal, handler);
    return () => process.removeListener(signal, handler);
  });
  return () => {
    for (const remove of handlers) remove();
  };
}
