/** The paired analyses on hand-made verdict tables whose answers were computed by hand. */
import { afterEach, describe, expect, it } from "vitest";
import type { VerdictStore } from "../../src/store/store.ts";
import { query, type SyntheticSim, syntheticStore } from "./synthetic-store.ts";

let store: VerdictStore | undefined;
afterEach(() => store?.close());

const sims = (model: string, task: string, pairs: [boolean, boolean][]): SyntheticSim[] =>
  pairs.map(([tau3, structured]) => ({ model, task, tau3, structured }));

describe("Kendall τ-b between the two rankings", () => {
  it("handles ties in both rankings: τ-b = (C − D) / sqrt((n0 − n1)(n0 − n2)) = 1 / 2", async () => {
    // pass^1 — τ³: A 1.0, B 0.5, C 0.5; structured: A 0.5, B 0.5, C 0.0.
    // Pairs: (A,B) tie in structured; (A,C) concordant; (B,C) tie in τ³ → C=1, D=0, n0=3, n1=1, n2=1.
    store = await syntheticStore([
      ...sims("A", "t1", [[true, true]]),
      ...sims("A", "t2", [[true, false]]),
      ...sims("B", "t1", [[true, true]]),
      ...sims("B", "t2", [[false, false]]),
      ...sims("C", "t1", [[true, false]]),
      ...sims("C", "t2", [[false, false]]),
    ]);
    const [k] = await query(store, "SELECT * FROM kendall_tau_b");
    expect(k).toMatchObject({ pairs: 3, concordant: 1, discordant: 0 });
    expect(k?.tau_b).toBeCloseTo(0.5, 12);
    expect(await query(store, "SELECT model, grader, rank FROM ranking ORDER BY grader, model")).toEqual([
      { model: "A [agent]", grader: "structured", rank: 1 },
      { model: "B [agent]", grader: "structured", rank: 1 },
      { model: "C [agent]", grader: "structured", rank: 3 },
      { model: "A [agent]", grader: "tau3", rank: 1 },
      { model: "B [agent]", grader: "tau3", rank: 2 },
      { model: "C [agent]", grader: "tau3", rank: 2 },
    ]);
  });

  it("lists a swapped pair and gives τ-b = −1 for two models in reverse order", async () => {
    store = await syntheticStore([
      ...sims("A", "t1", [[true, false]]),
      ...sims("A", "t2", [[true, false]]),
      ...sims("B", "t1", [[false, false]]),
      ...sims("B", "t2", [[true, true]]),
    ]);
    expect((await query(store, "SELECT tau_b FROM kendall_tau_b"))[0]?.tau_b).toBe(-1);
    expect(await query(store, "SELECT model_a, model_b FROM swapped_pairs")).toEqual([
      { model_a: "A [agent]", model_b: "B [agent]" },
    ]);
  });
});

describe("pass^k", () => {
  // Task t1: 4 trials, 2 successes → pass^1 1/2, pass^2 C(2,2)/C(4,2) = 1/6, pass^3 = pass^4 = 0.
  // Task t2: 4 trials, 4 successes → 1 for every k.
  const base = [
    ...sims("E", "t1", [
      [true, true],
      [true, true],
      [false, false],
      [false, false],
    ]),
    ...sims("E", "t2", Array(4).fill([true, true])),
  ];
  it("is tau2's unbiased C(c,k)/C(n,k) per task, averaged over tasks", async () => {
    store = await syntheticStore(base);
    const got = await query(store, "SELECT k, pass_hat_k FROM pass_hat_k WHERE grader = 'tau3' ORDER BY k");
    expect(got.map((r) => r.k)).toEqual([1, 2, 3, 4]);
    const want = [0.75, (1 / 6 + 1) / 2, 0.5, 0.5];
    for (const [i, r] of got.entries()) expect(r.pass_hat_k).toBeCloseTo(want[i] as number, 12);
  });
  it("drops infrastructure errors by default and counts them as failures when configured", async () => {
    const infra: SyntheticSim = {
      model: "E",
      task: "t1",
      tau3: false,
      structured: false,
      termination: "infrastructure_error",
    };
    store = await syntheticStore([...base, infra]);
    expect(
      (await query(store, "SELECT pass_hat_k FROM pass_hat_k WHERE grader = 'tau3' AND k = 1"))[0]
        ?.pass_hat_k,
    ).toBeCloseTo(0.75, 12);
    store.close();
    store = await syntheticStore([...base, infra], { infrastructureErrors: "count_as_failure" });
    // t1 now has 2 of 5: (0.4 + 1) / 2.
    expect(
      (await query(store, "SELECT pass_hat_k FROM pass_hat_k WHERE grader = 'tau3' AND k = 1"))[0]
        ?.pass_hat_k,
    ).toBeCloseTo(0.7, 12);
  });
});

describe("McNemar per model", () => {
  it("uses the exact binomial test below 25 discordant pairs", async () => {
    // b = 5 (τ³ pass, structured fail), c = 1 → p = 2 · (C(6,0) + C(6,1)) / 2^6 = 0.21875.
    store = await syntheticStore([
      ...sims("D", "t1", Array(5).fill([true, false])),
      ...sims("D", "t2", [[false, true]]),
      ...sims("D", "t3", Array(3).fill([true, true])),
    ]);
    const [m] = await query(store, "SELECT * FROM mcnemar_by_model");
    expect(m).toMatchObject({ b: 5, c: 1, method: "exact_binomial" });
    expect(m?.p_value).toBeCloseTo(0.21875, 12);
  });
  it("uses χ² with continuity correction from 25 discordant pairs", async () => {
    // b = 20, c = 10 → χ² = (|20 − 10| − 1)² / 30 = 2.7, p = erfc(sqrt(1.35)) = 0.10034824646229074.
    store = await syntheticStore([
      ...sims("D", "t1", Array(20).fill([true, false])),
      ...sims("D", "t2", Array(10).fill([false, true])),
    ]);
    const [m] = await query(store, "SELECT * FROM mcnemar_by_model");
    expect(m).toMatchObject({ b: 20, c: 10, method: "chi2_continuity" });
    expect(m?.statistic).toBeCloseTo(2.7, 12);
    expect(m?.p_value).toBeCloseTo(0.10034824646229074, 6);
  });
});

describe("flips", () => {
  it("counts pass→fail and fail→pass and rates them with Wilson intervals", async () => {
    store = await syntheticStore([
      ...sims("A", "t1", [
        [true, false],
        [true, true],
        [false, true],
        [false, false],
      ]),
    ]);
    const [r] = await query(store, "SELECT * FROM flip_rates_by_model");
    expect(r).toMatchObject({ n: 4, pass_to_fail: 1, fail_to_pass: 1, flip_rate: 0.5 });
    // Wilson interval for 2/4 with z = 1.96: 0.15003570882017145 .. 0.8499642911798285.
    expect(r?.flip_rate_lo).toBeCloseTo(0.15003570882017145, 12);
    expect(r?.flip_rate_hi).toBeCloseTo(0.8499642911798285, 12);
  });
});

describe("task-level paired bootstrap", () => {
  const data = [
    ...sims("A", "t1", [[true, true]]),
    ...sims("A", "t2", [[true, false]]),
    ...sims("A", "t3", [[false, false]]),
    ...sims("B", "t1", [[true, true]]),
    ...sims("B", "t2", [[false, false]]),
    ...sims("B", "t3", [[true, true]]),
    ...sims("C", "t1", [[false, false]]),
    ...sims("C", "t2", [[false, false]]),
    ...sims("C", "t3", [[true, true]]),
  ];
  const snapshot = async (seed: number) => {
    store = await syntheticStore(data, { seed, bootstrapSamples: 300 });
    const out = {
      ranks: await query(store, "SELECT * FROM rank_intervals ORDER BY grader, model"),
      sup: await query(store, "SELECT * FROM pairwise_superiority ORDER BY grader, model_a, model_b"),
      tau: await query(store, "SELECT * FROM bootstrap_tau_b"),
    };
    store.close();
    store = undefined;
    return out;
  };
  it("is deterministic under a seed and changes with the seed", async () => {
    const a = await snapshot(11);
    expect(await snapshot(11)).toEqual(a);
    expect(await snapshot(12)).not.toEqual(a);
    expect(a.tau[0]?.replicates).toBeGreaterThan(0);
  });
  it("draws exactly |tasks| tasks per replicate", async () => {
    store = await syntheticStore(data, { bootstrapSamples: 50 });
    const w = await query(store, "SELECT b, sum(weight) AS draws FROM bootstrap_draws GROUP BY b");
    expect(w.length).toBe(50);
    expect(new Set(w.map((r) => r.draws))).toEqual(new Set([3]));
  });
});
