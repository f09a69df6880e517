/**
 * `run` says what did not grade on every invocation, read from the store, and exits 1 each time: a
 * re-run skips the unreadable files an earlier one stored, which must not make them count as fine.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const GOOD = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_retail_baseline.json");

/** The run command in-process, grading in the main thread. */
async function run(experiment: string): Promise<{ code: number; stderr: string }> {
  const r = await cliInProcess(["run", experiment], {
    env: { TAU_RESCORE_WORKERS: "1", TAU_RESCORE_PROGRESS_MS: "0" },
  });
  return { code: r.status, stderr: r.stderr };
}

function corpusWith(files: Record<string, string>): { dir: string; corpus: string; experiment: string } {
  const dir = mkdtempSync(join(tmpdir(), "tr-rerun-"));
  const corpus = join(dir, "corpus");
  mkdirSync(corpus);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(corpus, name), text);
  return { dir, corpus, experiment: writeExperiment(join(dir, "x.json")) };
}

describe("run on a corpus with files that do not grade", () => {
  it("reports the unreadable files from the store and exits 1 on every run", async () => {
    const { corpus, experiment } = corpusWith({
      "truncated.json": '{"info": ',
      "empty.json": "",
      "garbage.json": "not json",
    });
    const first = await run(experiment);
    expect(first.code, first.stderr).toBe(1);
    copyFileSync(GOOD, join(corpus, "good.json"));
    const again = await run(experiment);
    expect(again.code, again.stderr).toBe(1);

    expect(first.stderr).toContain("3 unreadable now");
    expect(first.stderr).toContain("in the store: 3 unreadable files");
    expect(again.stderr).toContain("3 already done");
    expect(again.stderr).toContain("0 unreadable now");
    expect(again.stderr).toContain("in the store: 3 unreadable files");
    for (const f of ["truncated.json", "empty.json", "garbage.json"])
      expect(again.stderr).toContain(`unreadable: ${f}`);

    // Fixed in place: its new content is read and graded; the others still fail.
    copyFileSync(GOOD, join(corpus, "garbage.json"));
    const fixed = await run(experiment);
    expect(fixed.stderr).toContain("in the store: 2 unreadable files");
    expect(fixed.code, fixed.stderr).toBe(1);
  });

  it("counts simulations in the errors table on a re-run too", async () => {
    const file = JSON.parse(readFileSync(GOOD, "utf8"));
    file.simulations[0].task_id = "no-such-task";
    const { experiment } = corpusWith({ "unknown-task.json": JSON.stringify(file) });
    const first = await run(experiment);
    expect(first.code, first.stderr).toBe(1);
    const again = await run(experiment);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain("1 already done");
    expect(again.stderr).toContain("1 simulation in the errors table");
  });
});
