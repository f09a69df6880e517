/**
 * Usage mistakes exit 2 with one line naming the mistake, no stack trace, and write
 * nothing: a typo in a corpus path (command line or config), a missing requirements_dir, `judge: http`
 * without a URL, a bad quirk override.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const GOOD = "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json";

function experiment(extra: Record<string, unknown>): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-usage-"));
  mkdirSync(join(dir, "corpus"));
  cpSync(join(CORPUS_DIR, GOOD), join(dir, "corpus", "a.json"));
  // The default graders: a missing requirements_dir needs the structured grader.
  const file = writeExperiment(join(dir, "x.json"), { corpus: ["a.json"], graders: undefined, ...extra });
  return { file, dir };
}

describe("a usage mistake in run", () => {
  it.each([
    ["a typo in --corpus", {}, ["--corpus", "/nonexistent/corpus/a.jsn"], /\/nonexistent\/corpus\/a\.jsn/],
    ["a typo in the config's corpus", { corpus: ["b.json"] }, [], /corpus path .*b\.json.*not found/],
    [
      "a missing requirements_dir",
      { requirements_dir: "requirementz" },
      [],
      /requirementz: folder not found/,
    ],
    ["judge http without a URL", { judge: { mode: "http" } }, [], /judge mode http needs a base URL/],
    ["a bad quirk override", { quirks: { overrides: ["nope"] } }, [], /bad quirk override "nope"/],
  ] as const)("(%s) exits 2 with one line and writes nothing", async (_what, extra, args, pattern) => {
    const { file, dir } = experiment(extra);
    const r = await cli(["run", file, ...args], { TAU_RESCORE_JUDGE_BASE_URL: "", OPENAI_BASE_URL: "" });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(existsSync(join(dir, "x.duckdb"))).toBe(false);
  });
});

describe("a list option before a positional argument", () => {
  it("does not swallow it: run --corpus DIR EXPERIMENT", async () => {
    const { file, dir } = experiment({});
    const r = await cli(["run", "--corpus", join(dir, "corpus"), file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/simulations graded now: 1 /);
  });

  it("does not swallow it: grade --quirk NAME=on FILE", async () => {
    const r = await cli([
      "grade",
      "--quirk",
      "noGoldSync=off",
      join(CORPUS_DIR, GOOD),
      "--data-dir",
      DATA_DIR,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter((l) => l !== "")).toHaveLength(1);
  });
});
