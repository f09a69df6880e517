/**
 * Inputs that are not plain files: a FIFO named `*.json` is skipped with a
 * reason and never opened (opening one blocks until a writer comes), and a file too large to decode
 * fails with a message that names it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, cpSync, ftruncateSync, mkdirSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { CLI, writeExperiment } from "../helpers/small-run.ts";

/** The CLI, killed after 20 s (a hang is what is tested). */
const cli = (args: readonly string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 20_000 });

const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

function corpusWith(special: (dir: string) => void): { dir: string; corpus: string; experiment: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-special-"));
  const corpus = join(dir, "corpus");
  mkdirSync(corpus);
  cpSync(SOURCE, join(corpus, "a.json"));
  special(corpus);
  const experiment = writeExperiment(join(dir, "x.json"));
  return { dir, corpus, experiment };
}

const fifo = (corpus: string) => execFileSync("mkfifo", [join(corpus, "pipe.json")]);

describe("a FIFO named *.json", () => {
  it("is recorded by run with its reason, without being opened", async () => {
    const { dir, experiment } = corpusWith(fifo);
    const db = join(dir, "x.duckdb");
    const r = cli(["run", experiment, "--db", db]);
    expect(r.signal, "run hung").toBeNull();
    expect(r.stderr).toMatch(/pipe\.json/);
    const store = await VerdictStore.open(db, { readOnly: true });
    try {
      expect(await store.query("SELECT path, status, error FROM files ORDER BY path")).toEqual([
        { path: "a.json", status: "graded", error: null },
        {
          path: "pipe.json",
          status: "error",
          error: expect.stringMatching(/pipe\.json: not a regular file \(a FIFO\)/),
        },
      ]);
    } finally {
      store.close();
    }
  }, 30_000);

  it("does not hang grade, which names it", () => {
    const { corpus } = corpusWith(fifo);
    const r = cli(["grade", corpus, "--grader", "tau3", "--data-dir", DATA_DIR]);
    expect(r.signal).toBeNull();
    expect(r.stderr).toMatch(/pipe\.json.*not a regular file \(a FIFO\)/);
    expect(
      r.stdout
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l).task_id),
    ).toHaveLength(1);
  }, 30_000);
});

describe("a file of 512 MB or more", () => {
  it("fails with a message naming the file", () => {
    const { corpus } = corpusWith((c) => {
      const fd = openSync(join(c, "huge.json"), "w");
      ftruncateSync(fd, 512 * 1024 * 1024); // sparse: no disk used
      closeSync(fd);
    });
    const r = cli(["grade", join(corpus, "huge.json"), "--grader", "tau3", "--data-dir", DATA_DIR]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/huge\.json.*512 MB/);
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  }, 60_000);
});
