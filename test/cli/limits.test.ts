/**
 * Every number a config key, a flag or an environment variable accepts has a documented range: a value
 * outside it exits 2 with one line naming the key (its JSON path, the flag or the variable) and the
 * range, before any file is created or opened for writing, whichever command reads the config.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerGradeCommand } from "../../src/cli/commands/grade.ts";
import { registerReportCommand } from "../../src/cli/commands/report.ts";
import { registerReviewCommand } from "../../src/cli/commands/review.ts";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { runTuning } from "../../src/cli/env.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import { type CapturedIo, runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const GOOD = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");

/** A τ³-only experiment whose every path (store, reviews, report) is inside a fresh folder. */
function experiment(extra: Record<string, unknown> = {}): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-limits-"));
  mkdirSync(join(dir, "corpus"));
  cpSync(GOOD, join(dir, "corpus", "a.json"));
  const file = writeExperiment(join(dir, "x.json"), { corpus: ["a.json"], ...extra }, { repo: "." });
  return { file, dir };
}

/** What the folder holds: the config and its corpus, and nothing a command created. */
const untouched = (dir: string) => {
  expect(readdirSync(dir).sort()).toEqual(["corpus", "x.json"]);
  expect(readdirSync(join(dir, "corpus"))).toEqual(["a.json"]);
};

const registerAll = (program: Command, io: CapturedIo) => {
  registerRunCommand(program, io);
  registerGradeCommand(program, io);
  registerReportCommand(program, io);
  registerReviewCommand(program, io);
};
const cli = (args: readonly string[], env: Record<string, string> = {}) =>
  runInProcess(registerAll, args, env);

afterEach(() => {
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

describe("a config number out of its range", () => {
  const cases = [
    [
      { ranking: { bootstrap_samples: 2_000_000_000 } },
      "ranking.bootstrap_samples",
      "an integer from 0 to 20000 (got 2000000000)",
    ],
    [
      { ranking: { bootstrap_samples: 1e12 } },
      "ranking.bootstrap_samples",
      "an integer from 0 to 20000 (got 1000000000000)",
    ],
    [
      { ranking: { bootstrap_samples: 20_001 } },
      "ranking.bootstrap_samples",
      "an integer from 0 to 20000 (got 20001)",
    ],
    [{ ranking: { min_task_coverage: 1.5 } }, "ranking.min_task_coverage", "a number from 0 to 1 (got 1.5)"],
    [
      { ranking: { seed: 2 ** 53 } },
      "ranking.seed",
      "an integer from -9007199254740991 to 9007199254740991 (got 9007199254740992)",
    ],
    [
      { judge: { mode: "recorded", temperature: 2.5 } },
      "judge.temperature",
      "a number from 0 to 2 (got 2.5)",
    ],
  ] as const;

  it.each(cases)(
    "%j is refused by run, report, review and review set, naming %s and its range",
    async (extra, key, range) => {
      const { file, dir } = experiment(extra);
      const line = `tau-rescore: ${file}: at ${key}: must be ${range}\n`;
      for (const args of [
        ["run", file],
        ["report", "--experiment", file, "--out", join(dir, "report")],
        ["review", "list", file],
        ["review", "set", file, "--simulation", "s", "--verdict", "confirmed", "--reason", "r"],
      ]) {
        const r = await cli(args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr, args.join(" ")).toBe(line);
        untouched(dir);
      }
    },
  );

  it("accepts each range's ends", () => {
    for (const ranking of [
      { bootstrap_samples: 0, min_task_coverage: 0, seed: -(2 ** 53 - 1) },
      { bootstrap_samples: 20_000, min_task_coverage: 1, seed: 2 ** 53 - 1 },
    ])
      expect(loadExperiment(experiment({ ranking }).file).config.ranking).toEqual(ranking);
    expect(() => loadExperiment(experiment({ ranking: { bootstrap_samples: 20_001 } }).file)).toThrow(
      "at ranking.bootstrap_samples: must be an integer from 0 to 20000 (got 20001)",
    );
  });
});

describe("a flag out of its range", () => {
  it.each([
    ["--judge-concurrency", "1e9", "an integer from 1 to 256"],
    ["--judge-concurrency", "0", "an integer from 1 to 256"],
    ["--judge-timeout", "1e12", "a number from 0.001 to 3600"],
    ["--judge-retries", "11", "an integer from 0 to 10"],
    ["--judge-retries", "0x2", "an integer from 0 to 10"],
    ["--judge-concurrency", "8.0", "an integer from 1 to 256"],
  ])("grade %s %s exits 2 naming the flag and its range, and grades nothing", async (flag, value, range) => {
    const r = await cli(["grade", GOOD, "--data-dir", DATA_DIR, flag, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: ${flag}: must be ${range} (got "${value}")\n`);
    expect(r.stdout).toBe("");
  });

  it("run --judge-concurrency 1e9 creates no store", async () => {
    const { file, dir } = experiment();
    const r = await cli(["run", file, "--judge-concurrency", "1e9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: --judge-concurrency: must be an integer from 1 to 256 (got "1e9")\n`);
    untouched(dir);
  });

  it.each(["1e3", "0x10"])("review sample --n %s is refused: integers are decimal digits", async (n) => {
    const { file, dir } = experiment();
    const r = await cli(["review", "sample", file, "--comparison", "x", "--n", n, "--seed", "1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: --n: must be an integer from 1 to 10000 (got "${n}")\n`);
    untouched(dir);
  });

  it("review --context is checked before the store is opened", async () => {
    const { file, dir } = experiment();
    const r = await cli(["review", file, "--context", "1001"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: --context: must be an integer from 0 to 1000 (got "1001")\n`);
    untouched(dir);
  });
});

describe("an environment variable out of its range", () => {
  it.each([
    ["TAU_RESCORE_WORKERS", "1000", "an integer from 1 to 64"],
    ["TAU_RESCORE_WORKERS", "junk", "an integer from 1 to 64"],
    ["TAU_RESCORE_COMMIT_FILES", "0", "an integer from 1 to 10000"],
    ["TAU_RESCORE_PROGRESS_MS", "-1", "a number from 0 to 3600000"],
  ])("run with %s=%s exits 2 before the store is created", async (name, value, range) => {
    const { file, dir } = experiment();
    const r = await cli(["run", file], { [name]: value });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: ${name}: must be ${range} (got "${value}")\n`);
    untouched(dir);
  });

  it("an empty or unset variable keeps the default", () => {
    expect(runTuning({ TAU_RESCORE_WORKERS: "", TAU_RESCORE_PROGRESS_MS: "" })).toEqual({
      debugWorkers: false,
      progressMs: 2000,
    });
    expect(() => runTuning({ TAU_RESCORE_WORKERS: "65" })).toThrow(
      'TAU_RESCORE_WORKERS: must be an integer from 1 to 64 (got "65")',
    );
  });
});
