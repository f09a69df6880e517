/** The bench's arithmetic: medians of the repeats and the JSON result with its ratios (pure, unit-tested). */

/** The middle value (the upper of the two middle ones for an even count); NaN for none. */
export const median = (xs: readonly number[]): number =>
  xs.length === 0 ? Number.NaN : ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number);

export type Phase = "parse" | "load" | "tau3" | "bothOne" | "both" | "write" | "run" | "analysis";

/** Seconds of each repeat, per phase. */
export type PhaseRuns = Record<Phase, number[]>;

export const medians = (runs: PhaseRuns): Record<Phase, number> =>
  Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)])) as Record<Phase, number>;

export interface BenchCounts {
  readonly simulations: number;
  readonly tau3Simulations: number;
  readonly verdictRows: number;
  readonly peakRssMb: number;
  readonly baselinePeakRssMb: number;
  readonly threads: number;
  readonly files: number;
  readonly replicate: number;
  readonly repeats: number;
}

/** `bench --json`: medians in seconds, rates, and ratios to the parse floor. */
export function benchResult(runs: PhaseRuns, c: BenchCounts) {
  const m = medians(runs);
  return {
    parse_floor_s: m.parse,
    tau3_s: m.tau3,
    both_s: m.both,
    simulations: c.simulations,
    sims_per_s: c.simulations / m.both,
    ratio_to_parse_floor: m.both / m.parse,
    tau3_sims_per_s: c.tau3Simulations / m.tau3,
    peak_rss_mb: c.peakRssMb,
    analysis_s: m.analysis,
    threads: c.threads,
    load_s: m.load,
    load_ratio_to_parse_floor: m.load / m.parse,
    tau3_ratio_to_parse_floor: m.tau3 / m.parse,
    both_one_thread_s: m.bothOne,
    one_thread_ratio_to_parse_floor: m.bothOne / m.parse,
    baseline_process_peak_rss_mb: c.baselinePeakRssMb,
    both_repeats_s: runs.both,
    ingest_s: m.write,
    run_with_db_s: m.run,
    verdict_rows: c.verdictRows,
    files: c.files,
    replicate: c.replicate,
    repeats: c.repeats,
  };
}
