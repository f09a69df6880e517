/**
 * An interrupted `run`: SIGINT and SIGTERM restore the terminal (cursor shown, line
 * wrap on) and say what was saved, exiting 130 and 143; a re-run finishes the job.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CLI, smallExperiment } from "../helpers/small-run.ts";

/** `tau-rescore ...args` in-process: only the signal tests spawn the real binary. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

interface Outcome {
  code: number | null;
  out: string;
}

/**
 * Runs `tau-rescore run` (on a pseudo-terminal through `script` when `tty`), and sends `signal` once
 * the first files are graded. The shell `exec`s node, so the pid it prints is node's.
 */
function interrupted(signal: "SIGINT" | "SIGTERM", tty: boolean): Promise<Outcome & { db: string }> {
  const { experiment, dir } = smallExperiment();
  const db = join(dir, "x.duckdb");
  const command = `echo PID:$$; exec ${process.execPath} ${CLI} run ${experiment} --db ${db}`;
  const env = {
    ...process.env,
    TAU2_DATA_DIR: "",
    TAU_RESCORE_PROGRESS_MS: "0",
    TAU_RESCORE_COMMIT_FILES: "1",
  };
  const child = tty
    ? spawn("script", ["-qefc", command, "/dev/null"], { env })
    : spawn("sh", ["-c", command], { env });
  let out = "";
  let sent = false;
  const watch = (d: Buffer) => {
    out += d.toString();
    const pid = /PID:(\d+)/.exec(out)?.[1];
    // On a terminal the bar redraws "n/9 files"; in a log, "graded n/9 files" lines.
    if (!sent && pid !== undefined && /[2-6]\/9 files/.test(out)) {
      sent = true;
      process.kill(Number(pid), signal);
    }
  };
  child.stdout.on("data", watch);
  child.stderr.on("data", watch);
  return new Promise((done) => child.on("exit", (code) => done({ code, out, db })));
}

describe("an interrupted run", () => {
  it("on a terminal, SIGINT shows the cursor, turns line wrap back on, says what was saved, and exits 130", async () => {
    const r = await interrupted("SIGINT", true);
    expect(r.code, r.out).toBe(130);
    const hidden = r.out.lastIndexOf("\x1b[?25l");
    expect(hidden).toBeGreaterThan(-1);
    expect(r.out.lastIndexOf("\x1b[?25h")).toBeGreaterThan(hidden);
    expect(r.out.lastIndexOf("\x1b[?7h")).toBeGreaterThan(r.out.lastIndexOf("\x1b[?7l"));
    expect(r.out).toMatch(
      /interrupted: \d+ files stored \(a group being committed may add more\); re-run to continue/,
    );
  }, 60_000);

  it("in a log, SIGTERM says what was saved and exits 143; a re-run finishes", async () => {
    const r = await interrupted("SIGTERM", false);
    expect(r.code, r.out).toBe(143);
    const stored = Number(/interrupted: (\d+) files stored/.exec(r.out)?.[1]);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(9);
    const again = await cli(["run", join(r.db, "../experiments/small.json"), "--db", r.db]);
    expect(again.status, again.stderr).toBe(0);
    const done = Number(/files: 9 \((\d+) already done/.exec(again.stderr)?.[1]);
    expect(done).toBeGreaterThanOrEqual(stored);
    expect(done).toBeLessThan(9);
  }, 60_000);
});
