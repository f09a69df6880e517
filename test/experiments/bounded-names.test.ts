/**
 * The names and counts an experiment gives are bounded: each becomes part of report file names, and
 * each comparison costs report memory. Refused before any write, one line, exit 2.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { LIMITS } from "../../src/util/limits.ts";
import { writeExperiment } from "../helpers/small-run.ts";
import { expectRefused } from "./refused.ts";

function experiment(over: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-bounded-"));
  mkdirSync(join(dir, "corpus"));
  return writeExperiment(join(dir, "x.json"), { graders: ["tau3", "structured"], ...over });
}

describe("names from the experiment", () => {
  it("a comparison name of 300 characters is refused, naming its key", async () => {
    const file = experiment({
      comparisons: [{ baseline: "tau3", candidate: "structured", name: "c".repeat(300) }],
    });
    await expectRefused(
      file,
      /at comparisons\[0\]\.name: a comparison name may take at most 64 characters \(got 300\)/,
    );
  });

  it("a grader id of 300 characters is refused, naming its key", async () => {
    const file = experiment({ graders: ["tau3", "g".repeat(300)], grader_modules: ["x.mjs"] });
    await expectRefused(file, /at graders\[1\]: a grader id may take at most 64 characters \(got 300\)/);
  });

  it.each([".", ".."])("a comparison may not be named %j", async (name) => {
    const file = experiment({ comparisons: [{ baseline: "tau3", candidate: "structured", name }] });
    await expectRefused(file, /at comparisons\[0\]\.name: a comparison name may not be \. or \.\./);
  });
});

describe("the number of comparisons", () => {
  it(`more than ${LIMITS.comparisons.max} is refused`, async () => {
    const comparisons = Array.from({ length: 500 }, (_, i) => ({
      baseline: "tau3",
      candidate: "structured",
      name: `c${i}`,
    }));
    await expectRefused(
      experiment({ comparisons }),
      new RegExp(`at comparisons: at most ${LIMITS.comparisons.max} comparisons \\(got 500\\)`),
    );
  });
});
