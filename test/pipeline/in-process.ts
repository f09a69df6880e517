/**
 * A command line run in this process through `runCli`, as the binary would run it: the environment a
 * spawned binary gets in these tests (the test's own, without `TAU2_DATA_DIR`), output captured.
 * Starting the binary costs more than most commands; spawn it only where the process matters.
 */
import { Readable } from "node:stream";
import { runCli } from "../../src/cli/program.ts";

export interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /** Environment variables added for the command. */
  readonly env?: Record<string, string>;
  /** What the command reads from stdin (nothing by default). */
  readonly input?: string;
}

export async function cliInProcess(args: readonly string[], o: InProcessOptions = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, ...o.env };
  if (o.env?.TAU2_DATA_DIR === undefined) delete env.TAU2_DATA_DIR;
  const status = await runCli(args, {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    stdin: Readable.from([o.input ?? ""]),
    today: () => new Date().toISOString().slice(0, 10),
  });
  return { status, stdout: out.join(""), stderr: err.join("") };
}
