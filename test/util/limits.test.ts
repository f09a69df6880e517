/** The documented ranges (docs/reference/limits.md) are the ones the code enforces. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { inRange, LIMITS, type NumberRange, outOfRange, parseInRange } from "../../src/util/limits.ts";

const DOC: Record<string, NumberRange> = {
  "`ranking.bootstrap_samples`": LIMITS.bootstrapSamples,
  "`ranking.min_task_coverage`": LIMITS.minTaskCoverage,
  "`ranking.seed`": LIMITS.seed,
  "`judge.temperature`": LIMITS.judgeTemperature,
  "`comparisons`": LIMITS.comparisons,
  "`graders[]`": LIMITS.nameLength,
  "`comparisons[].name`": LIMITS.nameLength,
  "`TAU_RESCORE_GRADER_TIMEOUT`": LIMITS.graderModuleTimeout,
  "`--judge-concurrency`": LIMITS.judgeConcurrency,
  "`--judge-timeout`": LIMITS.judgeTimeout,
  "`--judge-retries`": LIMITS.judgeRetries,
  "`--context`": LIMITS.reviewContext,
  "`--n`": LIMITS.sampleSize,
  "`--seed`": LIMITS.sampleSeed,
  "`--port`": LIMITS.viewPort,
  "`TAU_RESCORE_WORKERS`": LIMITS.workers,
  "`TAU_RESCORE_COMMIT_FILES`": LIMITS.commitFiles,
  "`TAU_RESCORE_PROGRESS_MS`": LIMITS.progressMs,
};

describe("docs/reference/limits.md", () => {
  it("lists every range, as enforced", () => {
    const rows = new Map(
      readFileSync("docs/reference/limits.md", "utf8")
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .map((l) => l.split("|").map((c) => c.trim()))
        .map((cells) => [cells[1] as string, cells[3] as string]),
    );
    expect([...rows.keys()].sort()).toEqual(Object.keys(DOC).sort());
    expect(new Set(Object.values(DOC)).size).toBe(Object.keys(LIMITS).length);
    for (const [key, r] of Object.entries(DOC))
      expect(rows.get(key), key).toMatch(
        new RegExp(
          `^${r.integer ? "integer" : "number"} ${r.min} to ${r.max}( \\((seconds|characters|entries)\\))?$`,
        ),
      );
  });

  it("is linked from the README", () => {
    expect(readFileSync("README.md", "utf8")).toContain("(docs/reference/limits.md)");
  });
});

describe("ranges", () => {
  it("take their ends and refuse what is past them, fractions of an integer, and non-numbers", () => {
    const r = LIMITS.bootstrapSamples;
    expect([0, 20_000, 1000].map((n) => inRange(r, n))).toEqual([true, true, true]);
    expect([-1, 20_001, 2.5, Number.NaN, Number.POSITIVE_INFINITY].map((n) => inRange(r, n))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["20000", " 7 ", "", " ", "1e9", "x"].map((t) => parseInRange(r, t))).toEqual([
      20_000,
      7,
      null,
      null,
      null,
      null,
    ]);
    // An integer is written in decimal digits: a float, hex or exponent form is no integer flag.
    expect(["1e3", "0x10", "1.0", "+5", "1_000", "010"].map((t) => parseInRange(r, t))).toEqual([
      null,
      null,
      null,
      null,
      null,
      10,
    ]);
    const t = LIMITS.judgeTimeout;
    expect(["0.5", ".5", "2.", "1e1", "0x10", "Infinity"].map((x) => parseInRange(t, x))).toEqual([
      0.5,
      0.5,
      2,
      null,
      null,
      null,
    ]);
    expect(outOfRange(r, 2_000_000_000)).toBe("must be an integer from 0 to 20000 (got 2000000000)");
    expect(outOfRange(LIMITS.minTaskCoverage, "0.5")).toBe('must be a number from 0 to 1 (got "0.5")');
  });
});
