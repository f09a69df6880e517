/** Runs the CLI in a child process without blocking this one (a test's local server keeps answering). */
import { spawn } from "node:child_process";
import { CLI } from "./small-run.ts";

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function cliAsync(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const e: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete e.TAU2_DATA_DIR;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: e });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
