/** The bench's arithmetic: medians of repeats, and the JSON result's rates and ratios. */
import { describe, expect, it } from "vitest";
import { benchResult, median, medians, type PhaseRuns } from "../../scripts/bench-stats.ts";

describe("median", () => {
  it("is the middle value of an odd count, whatever the order, and leaves its input alone", () => {
    const xs = [3, 1, 2];
    expect(median(xs)).toBe(2);
    expect(xs).toEqual([3, 1, 2]);
    expect(median([5])).toBe(5);
  });
  it("is the upper middle value of an even count, and NaN for none", () => {
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

const runs: PhaseRuns = {
  parse: [0.2, 0.1, 0.3],
  load: [0.4, 0.5, 0.3],
  tau3: [1, 1.2, 0.8],
  bothOne: [4, 3, 5],
  both: [2.5, 2, 3],
  write: [0.1, 0.1, 0.1],
  run: [3, 2.8, 2.9],
  analysis: [0.7, 0.6, 0.8],
};
const counts = {
  simulations: 155,
  tau3Simulations: 150,
  verdictRows: 620,
  peakRssMb: 300,
  baselinePeakRssMb: 200,
  threads: 2,
  files: 9,
  replicate: 1,
  repeats: 3,
};

describe("benchResult", () => {
  const out = benchResult(runs, counts);

  it("reports the documented fields, each phase as the median of its repeats", () => {
    for (const k of [
      "parse_floor_s",
      "tau3_s",
      "both_s",
      "simulations",
      "sims_per_s",
      "ratio_to_parse_floor",
      "peak_rss_mb",
      "analysis_s",
    ] as const)
      expect(out[k], k).toBeGreaterThan(0);
    expect(medians(runs)).toEqual({
      parse: 0.2,
      load: 0.4,
      tau3: 1,
      bothOne: 4,
      both: 2.5,
      write: 0.1,
      run: 2.9,
      analysis: 0.7,
    });
    expect(out).toMatchObject({
      parse_floor_s: 0.2,
      tau3_s: 1,
      both_s: 2.5,
      analysis_s: 0.7,
      load_s: 0.4,
      both_one_thread_s: 4,
      ingest_s: 0.1,
      run_with_db_s: 2.9,
      simulations: 155,
      verdict_rows: 620,
      peak_rss_mb: 300,
      baseline_process_peak_rss_mb: 200,
      threads: 2,
      files: 9,
      replicate: 1,
      repeats: 3,
    });
  });

  it("keeps its rates and ratios consistent with the medians", () => {
    expect(out.ratio_to_parse_floor).toBeCloseTo(out.both_s / out.parse_floor_s, 12);
    expect(out.sims_per_s).toBeCloseTo(out.simulations / out.both_s, 12);
    // τ³ alone grades its own simulations, at its own rate.
    expect(out.tau3_sims_per_s).toBeCloseTo(counts.tau3Simulations / out.tau3_s, 12);
    expect(out.load_ratio_to_parse_floor).toBeCloseTo(out.load_s / out.parse_floor_s, 12);
    expect(out.tau3_ratio_to_parse_floor).toBeCloseTo(out.tau3_s / out.parse_floor_s, 12);
    expect(out.one_thread_ratio_to_parse_floor).toBeCloseTo(out.both_one_thread_s / out.parse_floor_s, 12);
  });

  it("lists every repeat of both graders, in order; the headline is their median", () => {
    expect(out.both_repeats_s).toEqual([2.5, 2, 3]);
    expect(out.both_s).toBe(median(out.both_repeats_s));
  });

  it("gives NaN, not a number, for a phase that did not run", () => {
    expect(benchResult({ ...runs, bothOne: [] }, counts).both_one_thread_s).toBeNaN();
  });
});
