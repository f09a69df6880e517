/** Runs a CLI command in-process through commander, wired as `src/cli/main.ts` wires it, capturing output. */
import { Command } from "commander";
import { debugFromEnv } from "../../src/cli/env.ts";
import { reportCliError, trackCommand } from "../../src/cli/errors.ts";

export interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

export interface CapturedIo {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
}

export async function runInProcess(
  register: (program: Command, io: CapturedIo) => void,
  args: readonly string[],
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CapturedIo = {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
  };
  const program = new Command("tau-rescore")
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => err.push(s) });
  trackCommand(program, debugFromEnv());
  register(program, io);
  process.exitCode = undefined;
  try {
    await program.parseAsync([...args], { from: "user" });
  } catch (e) {
    reportCliError(e, io.stderr);
  }
  return { stdout: out.join(""), stderr: err.join(""), code: Number(process.exitCode ?? 0) };
}
