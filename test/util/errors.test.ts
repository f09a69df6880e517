/** One base class for every error: each names its code and exit status, and the CLI maps them in one place. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ReportError } from "../../src/analysis/export.ts";
import { OutDirError } from "../../src/analysis/out-dir.ts";
import { UnknownRunError } from "../../src/analysis/run.ts";
import { exitCodeOf, InputError, reportCliError, UsageError } from "../../src/cli/errors.ts";
import { QuirkSpecError } from "../../src/domains/quirks.ts";
import { ExperimentError } from "../../src/experiments/config.ts";
import { FormatError } from "../../src/formats/errors.ts";
import { GradingSpecError } from "../../src/graders/spec.ts";
import { PyTypeError } from "../../src/py/errors.ts";
import { ReplayAbort } from "../../src/replay/errors.ts";
import { ReviewFileError } from "../../src/reviews/file.ts";
import { ReviewError } from "../../src/reviews/resolve.ts";
import { StoreError } from "../../src/store/store.ts";
import { EXIT_INPUT_FAILED, EXIT_INTERNAL, EXIT_USAGE, RescoreError } from "../../src/util/errors.ts";

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mts|mjs)$/.test(p) ? [p] : [];
  });

describe("errors", () => {
  it("every error class of the tool extends the one base class", () => {
    const stray = files("src")
      .filter((f) => !f.endsWith(join("util", "errors.ts")))
      .flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/class (\w+) extends (\w*Error)\b/g)]
          .filter((m) => m[2] === "Error" || m[2] === "TypeError" || m[2] === "RangeError")
          .map((m) => `${relative("src", f)}: ${m[1]}`),
      );
    expect(stray).toEqual([]);
  });

  it("each kind has its exit status: usage mistakes 2, failed inputs 1, the rest internal", () => {
    const cases: [RescoreError, string, number][] = [
      [new UsageError("u"), "usage", EXIT_USAGE],
      [new InputError("i"), "input", EXIT_INPUT_FAILED],
      [new ExperimentError("e"), "experiment", EXIT_USAGE],
      [new GradingSpecError("g"), "grading_spec", EXIT_USAGE],
      [new QuirkSpecError("q"), "quirk_spec", EXIT_USAGE],
      [new OutDirError("o"), "out_dir", EXIT_USAGE],
      [new ReviewFileError("r"), "review_file", EXIT_USAGE],
      [new ReviewError("r"), "review", EXIT_USAGE],
      [new UnknownRunError("r"), "unknown_run", EXIT_USAGE],
      [new StoreError("s"), "store", EXIT_INPUT_FAILED],
      [new FormatError("f.json", "$", "bad"), "format", EXIT_INPUT_FAILED],
      [new ReportError("w"), "report_write", EXIT_INPUT_FAILED],
      [new ReplayAbort("a"), "replay_abort", EXIT_INTERNAL],
      [new PyTypeError("v"), "python_exception", EXIT_INTERNAL],
    ];
    for (const [e, code, status] of cases) {
      expect(e).toBeInstanceOf(RescoreError);
      expect([e.name, e.code, e.exitStatus]).toEqual([e.name, code, status]);
      expect(exitCodeOf(e)).toBe(status);
    }
    expect(exitCodeOf(new Error("bug"))).toBe(EXIT_INTERNAL);
  });

  it("the CLI prints an expected error as its message alone, an internal one as unexpected", () => {
    const lines: string[] = [];
    const sink = { write: (s: string) => lines.push(s) };
    expect(reportCliError(new StoreError("x.duckdb: not a DuckDB file"), sink)).toBe(EXIT_INPUT_FAILED);
    expect(reportCliError(new ExperimentError("e.json: bad"), sink)).toBe(EXIT_USAGE);
    expect(reportCliError(new ReplayAbort("broken pairing"), sink)).toBe(EXIT_INTERNAL);
    expect(lines[0]).toBe("tau-rescore: x.duckdb: not a DuckDB file\n");
    expect(lines[1]).toBe("tau-rescore: e.json: bad\n");
    expect(lines[2]).toMatch(
      /^tau-rescore: unexpected error: ReplayAbort: broken pairing \(run with --debug/,
    );
  });
});
