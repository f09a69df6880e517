/**
 * The review views on a hand-built store: which reviews apply and which are stale (and why), flip review
 * status, precision with its Wilson interval, confirmed flip rates, and excluded files left out of every
 * headline number. Expected values are worked out by hand from the rows below.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installAnalyses } from "../../src/analysis/run.ts";
import { summarize } from "../../src/analysis/summary.ts";
import type { RowOf } from "../../src/store/schema.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import {
  query,
  type SyntheticSim,
  syntheticContext,
  syntheticReview,
  syntheticStore,
} from "./synthetic-store.ts";

const fp = (i: number) => i.toString(16).padStart(64, "0");

// s0–s2 (model a), s3 (model b) flip on requirement x; s4 agrees; s5 flips in an excluded file.
const sims: SyntheticSim[] = [
  { model: "a", task: "t0", tau3: true, structured: false },
  { model: "a", task: "t1", tau3: true, structured: false },
  { model: "a", task: "t2", tau3: true, structured: false },
  { model: "b", task: "t0", tau3: true, structured: false },
  { model: "b", task: "t1", tau3: true, structured: true },
  { model: "c", task: "t0", tau3: true, structured: false, excluded: true },
];

/** Wilson 95% interval, written out independently of the SQL macro. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.96;
  const p = k / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(centre - spread) / (1 + (z * z) / n), (centre + spread) / (1 + (z * z) / n)];
}

let store: VerdictStore;
beforeAll(async () => {
  // A second comparison from the same baseline, to a grader with no verdicts in this store.
  store = await syntheticStore(sims, {
    comparisons: [
      { baseline: "tau3", candidate: "structured" },
      { baseline: "tau3", candidate: "structured_strict" },
    ],
  });
  await syntheticContext(store, [0, 1, 2, 3, 5], fp);
  // s2 has a second flip cause, y.
  await store.append("causes", [
    {
      run_id: "r1",
      sim_key: "s2",
      grader: "structured",
      seq: 1,
      kind: "requirement",
      reference: "y",
      gates: true,
      message: "y",
      message_index: null,
      turn_idx: null,
      tool_call_id: null,
      tool_name: null,
      actor: null,
    },
  ]);
  // The run's own rows are complete before the views are installed: materialized views read them once.
  await installAnalyses(store);
  await store.append("reviews", [
    syntheticReview({ fingerprint: fp(0), verdict: "confirmed" }), // A: applied
    syntheticReview({ fingerprint: fp(1), verdict: "false_positive" }), // B: applied
    syntheticReview({ fingerprint: fp(2), verdict: "unclear" }), // C: applied; s2's y stays unreviewed
    syntheticReview({ fingerprint: fp(2), reference: "z", verdict: "confirmed" }), // D: no such cause
    syntheticReview({ fingerprint: fp(99), simulation_id: "s3", path: "b.json", verdict: "confirmed" }), // E: changed
    syntheticReview({ fingerprint: fp(98), simulation_id: "s4", path: "b.json", verdict: "confirmed" }), // F: agree now
    syntheticReview({ fingerprint: fp(97), simulation_id: "gone", path: "x.json", verdict: "confirmed" }), // G: gone
    syntheticReview({ fingerprint: fp(5), verdict: "confirmed" }), // H: applied, but in an excluded file
    syntheticReview({ experiment: "other", fingerprint: fp(3), verdict: "confirmed" }), // another experiment's
  ]);
});
afterAll(() => store.close());

describe("review_status", () => {
  it("applies a review where the fingerprint and the cause match, and says why the others are stale", async () => {
    const got = await query<{
      fingerprint: string;
      reference: string;
      stale: boolean;
      stale_reason: string | null;
    }>(
      store,
      "SELECT fingerprint, reference, stale, stale_reason FROM review_status ORDER BY fingerprint, reference",
    );
    expect(got).toEqual([
      { fingerprint: fp(0), reference: "x", stale: false, stale_reason: null },
      { fingerprint: fp(1), reference: "x", stale: false, stale_reason: null },
      { fingerprint: fp(2), reference: "x", stale: false, stale_reason: null },
      {
        fingerprint: fp(2),
        reference: "z",
        stale: true,
        stale_reason: "the simulation no longer has this cause",
      },
      { fingerprint: fp(5), reference: "x", stale: false, stale_reason: null },
      {
        fingerprint: fp(97),
        reference: "x",
        stale: true,
        stale_reason: "no simulation with this id and path in the run",
      },
      {
        fingerprint: fp(98),
        reference: "x",
        stale: true,
        stale_reason: "the graders now agree on the simulation (its fingerprint is not stored)",
      },
      {
        fingerprint: fp(99),
        reference: "x",
        stale: true,
        stale_reason: "the simulation changed (another fingerprint)",
      },
    ]);
  });
});

describe("flip review status and counts", () => {
  it("confirms a flip when any cause is confirmed, and leaves it unreviewed while a cause is", async () => {
    const got = await query<{ comparison: string; sim_key: string; review: string }>(
      store,
      "SELECT comparison, sim_key, review FROM flip_reviews ORDER BY sim_key",
    );
    const c = "tau3-vs-structured";
    expect(got).toEqual([
      { comparison: c, sim_key: "s0", review: "confirmed" },
      { comparison: c, sim_key: "s1", review: "false_positive" },
      { comparison: c, sim_key: "s2", review: "unreviewed" },
      { comparison: c, sim_key: "s3", review: "unreviewed" },
      { comparison: c, sim_key: "s5", review: "confirmed" },
    ]);
  });

  it("counts flip causes by verdict outside excluded files, and the stale reviews", async () => {
    const s = await summarize(store);
    expect(s.reviews).toEqual({
      confirmed: 1,
      false_positive: 1,
      unclear: 1,
      unreviewed: 2, // s2's y and s3's x
      stale: 4,
      flips: { confirmed: 1, false_positive: 1, unclear: 0, unreviewed: 2 },
      gates: {
        structured: {
          pass_to_fail: 4,
          confirmed: 1,
          false_positive: 1,
          unclear: 0,
          unreviewed: 2,
          precision: 0.5,
          real_violations: 1, // s0
          caught: 1,
          recall: 1,
        },
      },
    });
    // This store has no strict-grader verdicts: it fails nothing, so it misses s0's confirmed violation
    // (a real violation of any comparison from the same baseline).
    expect(s.comparisons["tau3-vs-structured_strict"]).toMatchObject({
      headline: false,
      flips: { pass_to_fail: 0, fail_to_pass: 0 },
      reviews: { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 0 },
      precision: { value: null },
      recall: { value: 0, real_violations: 1, caught: 0 },
    });
    expect(s.comparisons["tau3-vs-structured"]).toMatchObject({
      headline: true,
      reviews: { confirmed: 1, false_positive: 1, unclear: 0, unreviewed: 2 },
      precision: { value: 0.5 },
      recall: { value: 1, real_violations: 1, caught: 1 },
    });
  });

  it("counts a comparison's flip causes in review_counts, and only its own", async () => {
    const got = await query<Record<string, number | string>>(
      store,
      "SELECT * EXCLUDE (stale) FROM review_counts ORDER BY comparison",
    );
    expect(got).toEqual([
      { comparison: "tau3-vs-structured", confirmed: 1, false_positive: 1, unclear: 1, unreviewed: 2 },
      { comparison: "tau3-vs-structured_strict", confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 0 },
    ]);
  });
});

describe("precision", () => {
  it("is confirmed / (confirmed + false positive) over applied reviews, with a Wilson interval", async () => {
    const [row] = await query<Record<string, number | string>>(
      store,
      "SELECT * FROM review_precision_by_kind",
    );
    const [lo, hi] = wilson(1, 2);
    expect(row).toMatchObject({ grader: "structured", kind: "requirement", reviews: 3, confirmed: 1 });
    expect(row).toMatchObject({ false_positive: 1, unclear: 1, precision: 0.5 });
    expect(row?.precision_lo).toBeCloseTo(lo, 12);
    expect(row?.precision_hi).toBeCloseTo(hi, 12);
    const rules = await query<{ reference: string; reviews: number }>(
      store,
      "SELECT reference, reviews FROM review_precision_by_rule ORDER BY reference",
    );
    expect(rules).toEqual([{ reference: "x", reviews: 3 }]);
  });
});

describe("excluded files and confirmed flip rates", () => {
  it("leaves excluded files out of the headline flips, but keeps their flips listed", async () => {
    const [overall] = await query<{ simulations: number; pass_to_fail: number }>(
      store,
      `SELECT simulations, pass_to_fail FROM comparison_summary
       WHERE domain = 'all' AND comparison = 'tau3-vs-structured'`,
    );
    expect(overall).toEqual({ simulations: 5, pass_to_fail: 4 });
    const flips = await query<{ comparison: string; sim_key: string; excluded: boolean }>(
      store,
      "SELECT comparison, sim_key, excluded FROM flips WHERE excluded",
    );
    expect(flips).toEqual([{ comparison: "tau3-vs-structured", sim_key: "s5", excluded: true }]);
    expect((await summarize(store)).excluded_files).toEqual([
      { path: "c.json", reason: "synthetic exclusion", simulations: 0 },
    ]);
  });

  it("puts the confirmed flip rate next to the raw one, per model", async () => {
    const got = await query<Record<string, number | string>>(
      store,
      `SELECT model, n, pass_to_fail, confirmed_flips, unreviewed_flips, confirmed_flip_rate
       FROM flip_rates_by_model WHERE comparison = 'tau3-vs-structured' ORDER BY model`,
    );
    expect(got).toEqual([
      {
        model: "a [agent]",
        n: 3,
        pass_to_fail: 3,
        confirmed_flips: 1,
        unreviewed_flips: 1,
        confirmed_flip_rate: 1 / 3,
      },
      {
        model: "b [agent]",
        n: 2,
        pass_to_fail: 1,
        confirmed_flips: 0,
        unreviewed_flips: 1,
        confirmed_flip_rate: 0,
      },
    ]);
    const [b] = await query<{ lo: number; hi: number }>(
      store,
      `SELECT confirmed_flip_rate_lo AS lo, confirmed_flip_rate_hi AS hi FROM flip_rates_by_model
       WHERE comparison = 'tau3-vs-structured' AND model = 'b [agent]'`,
    );
    expect(b?.lo).toBe(0); // clamped: rounding would give -1e-17
    expect(b?.hi).toBeCloseTo(wilson(0, 2)[1], 12);
  });
});

describe("pass^k", () => {
  it("pools trials only within one run configuration (user model known and equal)", async () => {
    const s = await syntheticStore([
      { model: "m", task: "t0", tau3: true, structured: true, file: "run1", userModel: "u1" },
      { model: "m", task: "t0", tau3: false, structured: false, file: "run2", userModel: "u1" },
      { model: "m", task: "t0", tau3: true, structured: true, file: "other-user", userModel: "u2" },
      { model: "m", task: "t0", tau3: true, structured: true, file: "no-user", userModel: null },
      { model: "m", task: "t0", tau3: true, structured: true, file: "no-user-2", userModel: null },
    ]);
    try {
      const got = await query<{ run_config: string; k: number; pass_hat_k: number }>(
        s,
        "SELECT run_config, k, pass_hat_k FROM pass_hat_k WHERE grader = 'tau3' ORDER BY run_config, k",
      );
      expect(got).toEqual([
        { run_config: "file no-user-2.json", k: 1, pass_hat_k: 1 },
        { run_config: "file no-user.json", k: 1, pass_hat_k: 1 },
        { run_config: "user u1", k: 1, pass_hat_k: 0.5 },
        { run_config: "user u1", k: 2, pass_hat_k: 0 },
        { run_config: "user u2", k: 1, pass_hat_k: 1 },
      ]);
    } finally {
      s.close();
    }
  });
});

describe("miss rates from sampled reviews", () => {
  // s0–s3 airline and s4–s5 retail pass both sides; s6 flips; s7 passes both in an excluded file.
  const sampledSims: SyntheticSim[] = [
    ...[0, 1, 2, 3].map((i) => ({ model: "a", task: `t${i}`, tau3: true, structured: true })),
    ...[4, 5].map((i) => ({ model: "a", task: `t${i}`, tau3: true, structured: true, domain: "retail" })),
    { model: "a", task: "t6", tau3: true, structured: false },
    { model: "x", task: "t7", tau3: true, structured: true, excluded: true },
  ];
  const sample = (
    fingerprint: string,
    verdict: string,
    seed = 1,
    over: Partial<RowOf<"sample_reviews">> = {},
  ): RowOf<"sample_reviews"> => ({
    experiment: "synthetic",
    fingerprint,
    comparison: "tau3-vs-structured",
    seed,
    verdict,
    reason: "hand-made",
    reviewer: null,
    date: null,
    simulation_id: null,
    path: null,
    ...over,
  });
  let s: VerdictStore;
  beforeAll(async () => {
    s = await syntheticStore(sampledSims);
    await syntheticContext(s, [0, 1, 2, 3, 4, 5, 6, 7], fp);
    await s.append("sample_reviews", [
      sample(fp(0), "clean"),
      sample(fp(1), "missed", 2),
      sample(fp(2), "missed", 10),
      sample(fp(3), "unclear"),
      sample(fp(4), "clean"),
      sample(fp(6), "clean"), // stale: it no longer passes both sides
      sample(fp(99), "missed"), // stale: no such simulation
      sample(fp(7), "missed"), // applies, in an excluded file: counted apart
      sample(fp(0), "missed", 1, { comparison: "nope" }), // stale: no such comparison
      sample(fp(5), "missed", 1, { experiment: "other" }), // another experiment's
    ]);
  });
  afterAll(() => s.close());

  it("says which sampled reviews apply, and why the others are stale", async () => {
    const got = await query<{
      fingerprint: string;
      comparison: string;
      domain: string | null;
      stale_reason: string | null;
      excluded: boolean;
    }>(
      s,
      "SELECT fingerprint, comparison, domain, stale_reason, excluded FROM sample_review_status ORDER BY fingerprint, comparison",
    );
    expect(got).toEqual([
      {
        fingerprint: fp(0),
        comparison: "nope",
        domain: null,
        stale_reason: "no comparison with this name in the run",
        excluded: false,
      },
      {
        fingerprint: fp(0),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: null,
        excluded: false,
      },
      {
        fingerprint: fp(1),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: null,
        excluded: false,
      },
      {
        fingerprint: fp(2),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: null,
        excluded: false,
      },
      {
        fingerprint: fp(3),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: null,
        excluded: false,
      },
      {
        fingerprint: fp(4),
        comparison: "tau3-vs-structured",
        domain: "retail",
        stale_reason: null,
        excluded: false,
      },
      {
        fingerprint: fp(6),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: "the simulation no longer passes both sides",
        excluded: false,
      },
      {
        fingerprint: fp(7),
        comparison: "tau3-vs-structured",
        domain: "airline",
        stale_reason: null,
        excluded: true,
      },
      {
        fingerprint: fp(99),
        comparison: "tau3-vs-structured",
        domain: null,
        stale_reason: "no simulation with this fingerprint in the run",
        excluded: false,
      },
    ]);
  });

  it("gives per domain and overall the miss rate missed / (clean + missed) with its Wilson interval", async () => {
    const got = await query<Record<string, unknown>>(
      s,
      `SELECT domain, both_pass, sampled, clean, missed, unclear, miss_rate, miss_rate_lo, miss_rate_hi,
              weighted_miss_rate, stale, excluded, seeds
       FROM miss_rates WHERE comparison = 'tau3-vs-structured' ORDER BY domain`,
    );
    const [airlineLo, airlineHi] = wilson(2, 3);
    const [retailLo, retailHi] = wilson(0, 1);
    const [allLo, allHi] = wilson(2, 4);
    expect(got.map((r) => r.domain)).toEqual(["airline", "all", "retail"]);
    const [airline, all, retail] = got as [
      Record<string, number>,
      Record<string, number>,
      Record<string, number>,
    ];
    // airline: clean s0, missed s1 and s2, unclear s3 (s6 stale, s7 excluded).
    expect(airline).toMatchObject({
      both_pass: 4,
      sampled: 4,
      clean: 1,
      missed: 2,
      unclear: 1,
      stale: 1,
      excluded: 1,
      seeds: "1, 2, 10",
    });
    expect(airline.miss_rate).toBeCloseTo(2 / 3, 12);
    expect(airline.miss_rate_lo).toBeCloseTo(airlineLo, 12);
    expect(airline.miss_rate_hi).toBeCloseTo(airlineHi, 12);
    expect(retail).toMatchObject({
      both_pass: 2,
      sampled: 1,
      clean: 1,
      missed: 0,
      miss_rate: 0,
      stale: 0,
      seeds: "1",
    });
    expect(retail.miss_rate_lo).toBeCloseTo(retailLo, 12);
    expect(retail.miss_rate_hi).toBeCloseTo(retailHi, 12);
    // all: the samples pooled (2 of 4 judged); the stale one without a domain counts here only.
    expect(all).toMatchObject({
      both_pass: 6,
      sampled: 5,
      clean: 2,
      missed: 2,
      unclear: 1,
      miss_rate: 0.5,
      stale: 2,
      excluded: 1,
    });
    expect(all.miss_rate_lo).toBeCloseTo(allLo, 12);
    expect(all.miss_rate_hi).toBeCloseTo(allHi, 12);
    // Weighted by both-pass counts: (4 × 2/3 + 2 × 0) / 6.
    expect(all.weighted_miss_rate).toBeCloseTo(4 / 9, 12);
    expect(airline.weighted_miss_rate).toBeNull();
  });

  it("puts the overall miss rate in the summary's comparison", async () => {
    const summary = await summarize(s);
    expect(summary.comparisons["tau3-vs-structured"]?.miss_rate).toMatchObject({
      value: 0.5,
      sampled: 5,
      clean: 2,
      missed: 2,
      unclear: 1,
      stale: 2,
      both_pass: 6,
      seeds: [1, 2, 10],
    });
  });

  it("has no weighted rate while a domain with both-pass simulations has no rate", async () => {
    await s.conn.run("DELETE FROM sample_reviews WHERE fingerprint = $1", [fp(4)]);
    try {
      const [all] = await query<{ weighted_miss_rate: number | null; miss_rate: number }>(
        s,
        "SELECT weighted_miss_rate, miss_rate FROM miss_rates WHERE comparison = 'tau3-vs-structured' AND domain = 'all'",
      );
      expect(all).toEqual({ weighted_miss_rate: null, miss_rate: 2 / 3 });
    } finally {
      await s.append("sample_reviews", [sample(fp(4), "clean")]);
    }
  });
});
