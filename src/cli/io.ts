/**
 * What a command reads from and writes to the process, passed in: `main.ts` builds it from the real
 * process, tests from buffers. Commands never touch `process.stdout`, `process.stderr` or `process.env`.
 */

export interface Output {
  write(chunk: string): unknown;
  /** A terminal gets a progress bar; anything else plain lines. */
  readonly isTTY?: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

export type SignalName = "SIGINT" | "SIGTERM" | "SIGHUP";

/** How a command takes over Ctrl-C, SIGTERM and SIGHUP, and the process's exit, while it runs. */
export interface Signals {
  /** Calls `handler` on the first `signal`; the returned function removes it. */
  once(signal: SignalName, handler: () => void): () => void;
  /** Calls `hook` as the process exits, however it ends; the returned function removes it. */
  onExit(hook: () => void): () => void;
  /** Ends the process (after a signal). */
  exit(code: number): void;
}

export interface CommandIo {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly env: Env;
  /** Absent in-process: no handlers are installed. */
  readonly signals?: Signals;
  /** A command that finished without throwing but whose inputs partly failed sets 1 here. */
  setExitCode(code: number): void;
}

/** `review` also reads answers and dates each review. */
export interface ReviewCommandIo extends CommandIo {
  readonly stdin: NodeJS.ReadableStream;
  /** Today as YYYY-MM-DD (the date a review is recorded with). */
  readonly today: () => string;
}
