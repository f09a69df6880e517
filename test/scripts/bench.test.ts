/**
 * `npm run bench -- --json` on a small corpus, once: the documented keys, every simulation graded, and
 * the bench's ingest writing what `tau-rescore run` writes. The arithmetic (medians, rates, ratios) is
 * unit-tested in bench-stats.test.ts; its consistency is checked here again on real numbers.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { smallExperiment } from "../helpers/small-run.ts";

/** Six files, 25 simulations. */
const CORPUS = [
  "sierra-tau2-bench__pr170-tau2-trace",
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
];

describe("bench --json", () => {
  it("reports the documented fields for a corpus, one and two threads", async () => {
    const { dir, experiment } = smallExperiment(CORPUS);
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/bench.ts",
        "--corpus",
        join(dir, "corpus"),
        "--data-dir",
        DATA_DIR,
        "--repeat",
        "1",
        "--workers",
        "2",
        "--json",
      ],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, number>;
    for (const k of [
      "parse_floor_s",
      "tau3_s",
      "both_s",
      "simulations",
      "sims_per_s",
      "ratio_to_parse_floor",
      "peak_rss_mb",
      "analysis_s",
    ])
      expect(out[k], k).toBeGreaterThan(0);
    expect(out.simulations).toBe(1 + 1 + 1 + 1 + 1 + 20);
    expect(out.ratio_to_parse_floor).toBeCloseTo((out.both_s as number) / (out.parse_floor_s as number), 6);
    expect(out.sims_per_s).toBeCloseTo((out.simulations as number) / (out.both_s as number), 6);
    // τ³ alone grades the same simulations, at its own rate.
    expect(out.tau3_sims_per_s).toBeCloseTo((out.simulations as number) / (out.tau3_s as number), 6);
    expect(out.threads).toBe(2);
    // Every repeat of both graders is listed, in order; the headline is their median.
    expect((out as unknown as { both_repeats_s: number[] }).both_repeats_s).toEqual([out.both_s]);
    expect(out.both_one_thread_s).toBeGreaterThan(0);
    // The bench's ingest writes what `tau-rescore run` writes.
    const db = join(dir, "run.duckdb");
    const run = await cliInProcess(["run", experiment, "--db", db]);
    expect(run.status, run.stderr).toBe(0);
    const store = await VerdictStore.open(db, { readOnly: true });
    const [row] = await store.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM verdicts");
    store.close();
    expect(out.verdict_rows).toBe(row?.n);
  }, 120_000);
});
