/**
 * SIGINT and SIGTERM stop `report`, `review` and `probe --census` in the middle of their work (a DuckDB
 * query, the census's grading) with the usual message and 128 + the signal's number, and leave no spill
 * folder; a query beyond DuckDB's memory limit is one line; the limit comes from the flag or the
 * experiment.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { CLI, smallExperiment } from "../helpers/small-run.ts";

/** `tau-rescore ...args` in-process: only the signal tests spawn the real binary. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

let dir = "";
let experiment = "";
let db = "";
/** A copy of the store whose run asks for a bootstrap that never ends. */
let endless = "";

beforeAll(async () => {
  const s = smallExperiment();
  dir = s.dir;
  experiment = s.experiment;
  db = join(dir, "small.duckdb");
  expect((await cli(["run", experiment, "--db", db])).status).toBe(0);
  endless = join(dir, "endless.duckdb");
  cpSync(db, endless);
  const instance = await DuckDBInstance.create(endless);
  const conn = await instance.connect();
  await conn.run("UPDATE runs SET bootstrap_samples = 2000000000");
  conn.closeSync();
  instance.closeSync();
}, 120_000);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

interface Outcome {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  readonly pid: number;
}

/**
 * Runs the CLI and sends `signal` once `ready` holds: a line on stderr, or a path (made from the
 * child's pid) existing. Nothing is timed: the test's timeout is the only limit.
 */
function interrupted(
  args: readonly string[],
  signal: NodeJS.Signals,
  ready: RegExp | ((pid: number) => boolean),
  env: Record<string, string> = {},
): Promise<Outcome> {
  const e: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete e.TAU2_DATA_DIR;
  const child = spawn(process.execPath, [CLI, ...args], { env: e, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  const pid = child.pid as number;
  let stderr = "";
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    clearInterval(poll);
    child.kill(signal);
  };
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (ready instanceof RegExp && ready.test(stderr)) send();
  });
  const poll = setInterval(() => {
    if (typeof ready === "function" && ready(pid)) send();
  }, 10);
  return new Promise((done) =>
    child.on("exit", (code, sig) => {
      clearInterval(poll);
      done({ code, signal: sig, stderr, pid });
    }),
  );
}

/** CPU seconds process `pid` has used (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return 0;
  }
}

/** The spill folders a read-only open makes for process `pid` under the temp dir. */
const spillFolders = (pid: number) =>
  readdirSync(tmpdir()).filter((n) => n.startsWith(`tau-rescore-${pid}-`));

describe("an interrupt stops the work under way", () => {
  it("report: SIGTERM in the middle of the bootstrap query exits 143 with its message, not when the query ends", async () => {
    const out = join(dir, "report-endless");
    const partial = (pid: number) => join(dir, `.report-endless.partial-${pid}`);
    // The analyses start once the output is staged; a second of CPU later, only the bootstrap is left.
    let staged: number | null = null;
    const r = await interrupted(["report", "--db", endless, "--out", out], "SIGTERM", (pid) => {
      if (staged === null && existsSync(partial(pid))) staged = cpuSeconds(pid);
      return staged !== null && cpuSeconds(pid) > staged + 1;
    });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/report interrupted \(SIGTERM\); .*report-endless was left as it was/);
    expect(existsSync(partial(r.pid))).toBe(false);
  }, 60_000);

  it("report: SIGTERM while DuckDB computes the bootstrap exits 143 with its message and removes the spill folder", async () => {
    const out = join(dir, "report-term");
    // A small memory limit makes the bootstrap spill at once: its folder says the query is running.
    const r = await interrupted(
      ["report", "--db", endless, "--out", out, "--memory-limit", "64MiB"],
      "SIGTERM",
      (pid) => spillFolders(pid).length > 0,
    );
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/report interrupted \(SIGTERM\); .*report-term was left as it was/);
    expect(spillFolders(r.pid)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("review: SIGINT while its session computes the analyses exits 130 with its message and removes the spill folder", async () => {
    const store = join(dir, "endless-review.duckdb");
    cpSync(endless, store);
    const r = await interrupted(
      ["review", "list", experiment, "--db", store, "--memory-limit", "64MiB"],
      "SIGINT",
      () => existsSync(`${store}.tmp`), // a writable store spills beside itself
    );
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/tau-rescore: interrupted: every review given so far is saved/);
    expect(existsSync(`${store}.tmp`)).toBe(false);
  }, 60_000);

  it("probe --census: SIGTERM while the census grades in this thread exits 143 and writes nothing", async () => {
    const censusDb = join(dir, "census.duckdb");
    const r = await interrupted(
      ["probe", "--census", "--data-dir", DATA_DIR, "--db", censusDb],
      "SIGTERM",
      /census: 1 thread\(s\)\n/,
      { TAU_RESCORE_WORKERS: "1" },
    );
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/tau-rescore: interrupted: .*census\.duckdb was left as it was/);
    expect(existsSync(censusDb)).toBe(false);
  }, 60_000);
});

describe("DuckDB's memory limit", () => {
  const oneLine = (r: { status: number | null; stderr: string }, code: number) => {
    expect(r.status, r.stderr).toBe(code);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };

  it("a query beyond --memory-limit fails in one line that names the flag, exit 1", async () => {
    const r = await cli(["report", "--db", db, "--out", join(dir, "report-oom"), "--memory-limit", "16MiB"]);
    oneLine(r, 1);
    expect(r.stderr).toMatch(/^tau-rescore: DuckDB ran out of memory \(.*\); raise --memory-limit/);
  });

  it("comes from the experiment's duckdb.memory_limit, and the flag wins over it", async () => {
    const config = JSON.parse(readFileSync(experiment, "utf8")) as Record<string, unknown>;
    const tight = join(dir, "experiments", "tight.json");
    writeFileSync(tight, JSON.stringify({ ...config, duckdb: { memory_limit: "16MiB" } }));
    const args = ["report", "--experiment", tight, "--db", db];
    oneLine(await cli([...args, "--out", join(dir, "report-tight")]), 1);
    expect((await cli([...args, "--out", join(dir, "report-roomy"), "--memory-limit", "1GB"])).status).toBe(
      0,
    );
  });

  it("a limit that is not a size is a usage error, before the store is opened", async () => {
    const r = await cli(["report", "--db", db, "--out", join(dir, "report-bad"), "--memory-limit", "4"]);
    oneLine(r, 2);
    expect(r.stderr).toMatch(/--memory-limit: must be a size such as 4GB/);
    const config = JSON.parse(readFileSync(experiment, "utf8")) as Record<string, unknown>;
    const bad = join(dir, "experiments", "bad.json");
    writeFileSync(bad, JSON.stringify({ ...config, duckdb: { memory_limit: "lots" } }));
    const run = await cli(["run", bad, "--db", join(dir, "never.duckdb")]);
    oneLine(run, 2);
    expect(run.stderr).toMatch(/duckdb\.memory_limit/);
    expect(existsSync(join(dir, "never.duckdb"))).toBe(false);
  });
});
