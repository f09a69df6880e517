/** Runs a Python snippet as an oracle for Python-exact formatting (skipped where python3 is absent). */
import { spawnSync } from "node:child_process";

export const hasPython = spawnSync("python3", ["--version"]).status === 0;

/** Feeds `input` (JSON) to `code` on stdin; returns stdout parsed as JSON. */
export function python<T>(code: string, input: unknown): T {
  const r = spawnSync("python3", ["-c", code], {
    input: JSON.stringify(input),
    maxBuffer: 1 << 28,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
