/** `scripts/rss-by-size.ts` on a small corpus: one line per size, every simulation of every replica. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_DIR } from "../helpers/data.ts";
import { smallExperiment } from "../helpers/small-run.ts";

describe("rss-by-size", () => {
  it("grades the corpus k times for each k and reports a peak RSS for each", () => {
    // Five files of one simulation each: the sizes, not the grading, are under test.
    const { dir } = smallExperiment(["sierra-tau2-bench__pr170-tau2-trace"]);
    const args = [
      "--corpus",
      join(dir, "corpus"),
      "--data-dir",
      DATA_DIR,
      "--replicate",
      "1,3",
      "--workers",
      "1",
    ];
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/rss-by-size.ts", ...args], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const rows = [...r.stdout.matchAll(/×(\d+)\s+(\d+) simulations\s+[\d.]+ s\s+peak RSS (\d+) MB/g)];
    expect(rows.map((m) => Number(m[1]))).toEqual([1, 3]);
    const perCorpus = 1 + 1 + 1 + 1 + 1;
    expect(rows.map((m) => Number(m[2]))).toEqual([perCorpus, 3 * perCorpus]);
    for (const m of rows) expect(Number(m[3])).toBeGreaterThan(0);
  }, 120_000);
});
