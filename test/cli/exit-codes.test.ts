/**
 * Exit codes: 0 ok, 1 some input failed, 2 usage mistake, 3 internal error. An unexpected error prints
 * one line naming the command, its stack only with --debug or TAU_RESCORE_DEBUG=1; a usage mistake (a
 * run id the store lacks, a path that does not exist) exits 2 with one line and writes nothing.
 */
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerGradeCommand } from "../../src/cli/commands/grade.ts";
import { registerLabelsCommand } from "../../src/cli/commands/labels.ts";
import { registerProbeCommand } from "../../src/cli/commands/probe.ts";
import { registerReportCommand } from "../../src/cli/commands/report.ts";
import { registerRequirementsCommand } from "../../src/cli/commands/requirements.ts";
import { registerReviewCommand } from "../../src/cli/commands/review.ts";
import { syntheticStore } from "../analysis/synthetic-store.ts";
import { type CapturedIo, runInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const HINT = "(run with --debug or TAU_RESCORE_DEBUG=1 for the stack)";

afterEach(() => {
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

describe("an unexpected error", () => {
  const failing = (program: Command) => {
    program.command("boom").action(() => {
      throw new TypeError("x is not a function");
    });
    program
      .command("outer")
      .command("inner")
      .action(async () => {
        throw new Error("first line\n  second line");
      });
  };
  const cli = (args: readonly string[], env: Record<string, string> = {}) => runInProcess(failing, args, env);

  it("prints one line naming the command and the error, and exits 3", async () => {
    const r = await cli(["boom"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`tau-rescore boom: unexpected error: TypeError: x is not a function ${HINT}\n`);
  });

  it("names a subcommand by its path, and keeps a message of several lines on one", async () => {
    const r = await cli(["outer", "inner"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `tau-rescore outer inner: unexpected error: Error: first line second line ${HINT}\n`,
    );
  });

  it.each([[["--debug", "boom"]], [["boom", "--debug"]]])("prints the stack with %j", async (args) => {
    const r = await cli(args);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tau-rescore boom: unexpected error: TypeError: x is not a function\n\s+at /);
    expect(r.stderr).not.toContain(HINT);
  });

  it("prints the stack with TAU_RESCORE_DEBUG=1, not with TAU_RESCORE_DEBUG=0", async () => {
    expect((await cli(["boom"], { TAU_RESCORE_DEBUG: "1" })).stderr).toMatch(/x is not a function\n\s+at /);
    expect((await cli(["boom"], { TAU_RESCORE_DEBUG: "0" })).stderr).toBe(
      `tau-rescore boom: unexpected error: TypeError: x is not a function ${HINT}\n`,
    );
  });

  it("from a real command (labels --out naming a folder) is one line and exit 3", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-exit-"));
    const r = await runInProcess(registerLabelsCommand, [
      "labels",
      "--domain",
      "airline",
      "--data-dir",
      DATA_DIR,
      "--out",
      dir,
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tau-rescore labels: unexpected error: Error: EISDIR[^\n]*\n$/);
    expect(r.stderr.endsWith(`${HINT}\n`)).toBe(true);
  });
});

describe("a usage mistake exits 2 with one line and writes nothing", () => {
  const all = (program: Command, io: CapturedIo) => {
    registerGradeCommand(program, io);
    registerLabelsCommand(program, io);
    registerProbeCommand(program, io);
    registerReportCommand(program, io);
    registerRequirementsCommand(program, { ...io, env: { TAU2_DATA_DIR: DATA_DIR } });
    registerReviewCommand(program, io);
  };
  const cli = (args: readonly string[]) => runInProcess(all, args);
  const fresh = () => mkdtempSync(join(tmpdir(), "tr-exit-"));

  it("report --run with a run id the store does not hold", async () => {
    const store = await syntheticStore([{ model: "m", task: "1", tau3: true, structured: true }]);
    const db = store.path;
    store.close();
    const dir = fresh();
    const r = await cli(["report", "--db", db, "--out", join(dir, "out"), "--run", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: ${db} has no run nope; its runs: r1 (synthetic)\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("report --db and review --db naming a file that does not exist", async () => {
    const dir = fresh();
    const db = join(dir, "none.duckdb");
    const missing = `tau-rescore: ${db}: no such DuckDB file (write one with \`tau-rescore run\`)\n`;
    const report = await cli(["report", "--db", db, "--out", join(dir, "out")]);
    expect([report.code, report.stderr]).toEqual([2, missing]);
    mkdirSync(join(dir, "corpus"));
    const exp = writeExperiment(join(dir, "x.json"), {}, { repo: "." });
    const review = await cli(["review", "list", exp, "--db", db]);
    expect([review.code, review.stderr]).toEqual([2, missing]);
    expect(readdirSync(dir).sort()).toEqual(["corpus", "x.json"]);
  });

  it("grade with a path that does not exist grades nothing", async () => {
    const missing = join(fresh(), "none.json");
    const r = await cli(["grade", missing, "--data-dir", DATA_DIR]);
    expect([r.code, r.stderr, r.stdout]).toEqual([
      2,
      `tau-rescore: ${missing}: no such file or directory\n`,
      "",
    ]);
  });

  it("requirements scan with a task id or a --summary folder that does not exist", async () => {
    const scan = await cli(["requirements", "scan", "--domain", "airline", "--task", "nope"]);
    expect([scan.code, scan.stderr, scan.stdout]).toEqual([
      2,
      "tau-rescore: task nope is not in airline (any version)\n",
      "",
    ]);
    const dir = join(fresh(), "none");
    const summary = await cli(["requirements", "scan", "--summary", "--dir", dir]);
    expect([summary.code, summary.stderr]).toEqual([2, `tau-rescore: no requirements dir ${dir}\n`]);
  });

  it.each([
    ["labels", ["labels", "--domain", "airline", "--data-dir", DATA_DIR, "--out"]],
    ["requirements new", ["requirements", "new", "--domain", "airline", "--task", "1", "--out"]],
    ["probe", ["probe", "--domain", "airline", "--kind", "gold", "--data-dir", DATA_DIR, "--out"]],
  ])("%s --out in a folder that does not exist", async (_what, args) => {
    const dir = fresh();
    const r = await cli([...args, join(dir, "none", "out.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `tau-rescore: --out: folder ${join(dir, "none")} not found (the file's folder is not created)\n`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("labels --overrides and probe --census --requirements / --policies naming what does not exist", async () => {
    const dir = fresh();
    const none = join(dir, "none");
    const labels = await cli(["labels", "--domain", "airline", "--data-dir", DATA_DIR, "--overrides", none]);
    expect([labels.code, labels.stderr]).toEqual([2, `tau-rescore: --overrides: ${none} not found\n`]);
    for (const flag of ["--requirements", "--policies"]) {
      const db = join(dir, "census.duckdb");
      const r = await cli(["probe", "--census", "--data-dir", DATA_DIR, flag, none, "--db", db]);
      expect([r.code, r.stderr]).toEqual([2, `tau-rescore: ${flag}: folder ${none} not found\n`]);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
