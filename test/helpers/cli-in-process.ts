/** Runs CLI commands in-process with captured stdout and stderr, wired as `src/cli/program.ts` wires them. */
import { PassThrough } from "node:stream";
import { Command } from "commander";
import type { ReviewCommandIo } from "../../src/cli/commands/review.ts";
import { debugFromEnv } from "../../src/cli/env.ts";
import { reportCliError, trackCommand } from "../../src/cli/errors.ts";
import type { Env } from "../../src/cli/io.ts";
import { runCli } from "../../src/cli/program.ts";

export interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

/** Every command's IO, writing into buffers; `review` reads the given stdin (empty by default) and records 2024-01-01. */
export interface CapturedIo extends ReviewCommandIo {
  readonly out: string[];
  readonly err: string[];
  /** The highest exit status a command set. */
  readonly status: () => number;
}

export function capturedIo(env: Env = {}, input = ""): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  let status = 0;
  const stdin = new PassThrough();
  stdin.end(input);
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    stdin,
    today: () => "2024-01-01",
    setExitCode: (code) => {
      status = Math.max(status, code);
    },
    status: () => status,
  };
}

/**
 * Runs `args` through a program holding only the commands `register` adds. `env` is the whole
 * environment the commands see (the test process's own is never read).
 */
export async function runInProcess(
  register: (program: Command, io: CapturedIo) => void,
  args: readonly string[],
  env: Env = {},
): Promise<Run> {
  const io = capturedIo(env);
  const program = new Command("tau-rescore")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out.push(s), writeErr: (s) => io.err.push(s) });
  trackCommand(program, debugFromEnv(env));
  register(program, io);
  const exitCode = process.exitCode;
  let code: number;
  try {
    await program.parseAsync([...args], { from: "user" });
    code = io.status();
  } catch (e) {
    code = reportCliError(e, io.stderr);
  } finally {
    process.exitCode = exitCode; // reportCliError sets it; the test process's own must not change
  }
  return { stdout: io.out.join(""), stderr: io.err.join(""), code };
}

/** The result of `tau-rescore ...args` run in-process, shaped as `spawnSync`'s. */
export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /** The whole environment the command sees (the test process's own is never read). */
  readonly env?: Env;
  /** What the command reads from stdin (nothing by default). */
  readonly input?: string;
}

/**
 * The whole command line in-process (`runCli`, as `main.ts` calls it). Starting the binary costs more
 * than most commands: spawn it only where the process itself matters (signals, locks, threads).
 */
export async function cliInProcess(args: readonly string[], o: InProcessOptions = {}): Promise<CliResult> {
  const io = capturedIo(o.env ?? {}, o.input ?? "");
  const exitCode = process.exitCode;
  try {
    const status = await runCli(args, io);
    return { status, stdout: io.out.join(""), stderr: io.err.join("") };
  } finally {
    process.exitCode = exitCode;
  }
}

/**
 * `grade FILE --grader tau3,structured --format jsonl --data-dir DATA …extra` in-process, with one parsed
 * line per simulation.
 */
export async function gradeLines<T>(
  path: string,
  dataDir: string,
  ...extra: string[]
): Promise<CliResult & { readonly lines: T[] }> {
  const r = await cliInProcess([
    "grade",
    path,
    "--grader",
    "tau3,structured",
    "--format",
    "jsonl",
    "--data-dir",
    dataDir,
    ...extra,
  ]);
  const text = r.stdout.trim();
  return { ...r, lines: text === "" ? [] : text.split("\n").map((l) => JSON.parse(l) as T) };
}

/** `grade PATH --grader tau3 --format FORMAT --data-dir DATA` in-process. */
export const gradeTau3 = (path: string, dataDir: string, format: "jsonl" | "table" = "jsonl") =>
  cliInProcess(["grade", path, "--grader", "tau3", "--format", format, "--data-dir", dataDir]);
