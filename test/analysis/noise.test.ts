/**
 * Run-to-run noise beside the grader's effect, on synthetic runs with known answers: trials within one
 * file are repeats, so are two files of one configuration; one model under two agent implementations is
 * two configurations, not repeats; a configuration without repeats has null noise figures, never 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_REPEATS } from "../../src/analysis/noise-views.ts";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticStore } from "./synthetic-store.ts";

const T = true;
const F = false;
const trials = (base: Omit<SyntheticSim, "tau3" | "structured">, tau3: boolean[], structured: boolean[]) =>
  tau3.map((t, i): SyntheticSim => ({ ...base, tau3: t, structured: structured[i] ?? null }));

const SIMS: SyntheticSim[] = [
  // One file, 4 trials of t1 and 2 of t2.
  ...trials({ model: "m1", task: "t1", file: "a" }, [T, F, T, T], [T, F, F, T]),
  ...trials({ model: "m1", task: "t2", file: "a" }, [T, T], [T, T]),
  // Two files of one configuration, one trial of t1 each.
  { model: "m2", task: "t1", file: "b1", tau3: T, structured: T },
  { model: "m2", task: "t1", file: "b2", tau3: F, structured: F },
  // One model under two agent implementations: two configurations.
  { model: "m3", task: "t1", file: "c1", implementation: "agent_one", tau3: T, structured: T },
  { model: "m3", task: "t1", file: "c2", implementation: "agent_two", tau3: F, structured: F },
  // Two trials of one task, the failing one first in the store's order.
  ...trials({ model: "m5", task: "t1", file: "e" }, [F, T], [F, T]),
  // No repeats at all.
  { model: "m4", task: "t1", file: "d", tau3: T, structured: F },
  { model: "m4", task: "t2", file: "d", tau3: F, structured: F },
];

interface Noise {
  configuration: string;
  model: string;
  grader: string;
  tasks: number;
  tasks_repeated: number;
  pairs: number;
  trial_disagreement: number | null;
  unstable_tasks: number | null;
  pass_rate: number;
  pass_rate_lo: number | null;
  pass_rate_hi: number | null;
}

describe("noise_by_configuration and grader_effect_vs_noise", () => {
  let store: VerdictStore;
  let noise: Noise[] = [];
  const of = (model: string, grader: string) =>
    noise.filter((r) => r.model.startsWith(model) && r.grader === grader);

  beforeAll(async () => {
    store = await syntheticStore(SIMS, { bootstrapSamples: 200, seed: 7 });
    await installAnalyses(store);
    noise = await rows<Noise>(store, "SELECT * FROM noise_by_configuration ORDER BY configuration, grader");
  });
  afterAll(() => store.close());

  it("counts the pairs of trials within one file, and how many disagree", () => {
    const [tau3] = of("m1", "tau3");
    // t1: 4 trials, 3 pass: 6 pairs, 3 × 1 differ; t2: 1 pair, none differs.
    expect(tau3).toMatchObject({ tasks: 2, tasks_repeated: 2, pairs: 7, unstable_tasks: 1 });
    expect(tau3?.trial_disagreement).toBeCloseTo(3 / 7, 12);
    expect(tau3?.pass_rate).toBeCloseTo(5 / 6, 12);
    const [structured] = of("m1", "structured");
    expect(structured?.trial_disagreement).toBeCloseTo(4 / 7, 12);
    expect(tau3?.pass_rate_lo).toBeLessThanOrEqual(5 / 6);
    expect(tau3?.pass_rate_hi).toBeGreaterThanOrEqual(5 / 6);
    expect(tau3?.pass_rate_hi).toBeGreaterThan(tau3?.pass_rate_lo as number);
  });

  it("resamples each task's own trials, with replacement, as many as it has: unbiased", async () => {
    const [m] = await rows<{ mean: number; lo: number; hi: number }>(
      store,
      `SELECT avg(pass_rate) AS mean, min(pass_rate) AS lo, max(pass_rate) AS hi FROM trial_resample_rates
       WHERE grader = 'tau3' AND configuration LIKE 'agent m1 %'`,
    );
    // 4 trials of t1 (3 pass) and 2 of t2 (both pass): every replicate draws 6, t2's always pass.
    expect(m?.mean).toBeCloseTo(5 / 6, 1);
    expect(m?.lo).toBeGreaterThanOrEqual(2 / 6);
    expect(m?.hi).toBe(1);
    // Each of the two trials is drawn as often as the other, wherever it sits.
    const [e] = await rows<{ mean: number }>(
      store,
      `SELECT avg(pass_rate) AS mean FROM trial_resample_rates WHERE grader = 'tau3' AND configuration LIKE 'agent m5 %'`,
    );
    expect(e?.mean).toBeCloseTo(0.5, 1);
  });

  it("pairs the trials of two files of one configuration", () => {
    expect(of("m2", "tau3")).toHaveLength(1);
    expect(of("m2", "tau3")[0]).toMatchObject({
      tasks: 1,
      tasks_repeated: 1,
      pairs: 1,
      trial_disagreement: 1,
      unstable_tasks: 1,
    });
  });

  it("keeps one model under two agent implementations apart: not repeats", () => {
    const rowsOfM3 = of("m3", "tau3");
    expect(rowsOfM3).toHaveLength(2);
    for (const r of rowsOfM3)
      expect(r).toMatchObject({ tasks: 1, tasks_repeated: 0, pairs: 0, trial_disagreement: null });
  });

  it("gives a configuration without repeats null noise figures, never 0, and says so beside the grader's effect", async () => {
    const [d] = of("m4", "tau3");
    expect(d).toMatchObject({
      pairs: 0,
      trial_disagreement: null,
      unstable_tasks: null,
      pass_rate: 0.5,
      pass_rate_lo: null,
      pass_rate_hi: null,
    });
    const effect = await rows<{
      model: string;
      verdict: string;
      flips: number;
      shift: number;
      noise_lo: number | null;
    }>(
      store,
      "SELECT model, verdict, flips, shift, noise_lo FROM grader_effect_vs_noise ORDER BY configuration",
    );
    const m4 = effect.find((e) => e.model.startsWith("m4"));
    expect(m4).toMatchObject({ verdict: NO_REPEATS, flips: 1, shift: -0.5, noise_lo: null });
    const m1 = effect.find((e) => e.model.startsWith("m1"));
    expect(m1?.flips).toBe(1);
    expect(m1?.shift).toBeCloseTo(-1 / 6, 12);
    expect(m1?.verdict).toMatch(/^(inside|outside) the noise of re-running the agent$/);
    expect(m1?.noise_lo).toBeLessThanOrEqual(0);
  });

  it("computes the same rows in another session (seeded resampling)", async () => {
    const again = await syntheticStore(SIMS, { bootstrapSamples: 200, seed: 7 });
    try {
      await installAnalyses(again);
      for (const view of ["noise_by_configuration", "grader_effect_vs_noise", "ranking_swaps_vs_noise"])
        expect(await rows(again, `SELECT * FROM ${view} ORDER BY ALL`)).toEqual(
          await rows(store, `SELECT * FROM ${view} ORDER BY ALL`),
        );
    } finally {
      again.close();
    }
  });
});

describe("ranking_swaps_vs_noise", () => {
  // Ranking entries over tasks t1 and t2. A (pass^1 1/4 under τ³, 1 under structured) and B (1/3, 0) swap
  // when the grader changes; re-run, A's t1 and B's t2 are drawn again. C runs under two agent
  // implementations: two entries (1 and 0 under both graders), neither with repeats. D: 1/2 under both.
  const SWAP_SIMS: SyntheticSim[] = [
    ...trials({ model: "A", task: "t1" }, [T, F], [T, T]),
    { model: "A", task: "t2", tau3: F, structured: T },
    { model: "B", task: "t1", tau3: F, structured: F },
    ...trials({ model: "B", task: "t2" }, [T, T, F], [F, F, F]),
    { model: "C", task: "t1", file: "c1", implementation: "agent_one", tau3: T, structured: T },
    { model: "C", task: "t2", file: "c1", implementation: "agent_one", tau3: T, structured: T },
    { model: "C", task: "t1", file: "c2", implementation: "agent_two", tau3: F, structured: F },
    { model: "C", task: "t2", file: "c2", implementation: "agent_two", tau3: F, structured: F },
    { model: "D", task: "t1", tau3: T, structured: T },
    { model: "D", task: "t2", tau3: F, structured: F },
  ];
  interface Swap {
    model_a: string;
    model_b: string;
    baseline_a: number;
    baseline_b: number;
    grader_swaps: boolean;
    rerun_swap_share: number | null;
    repeated: boolean;
  }
  let store: VerdictStore;
  let swaps: Swap[] = [];
  const entry = (label: string) => label.replace(" [agent]", "");
  const pair = (a: string, b: string) => swaps.find((s) => entry(s.model_a) === a && entry(s.model_b) === b);

  beforeAll(async () => {
    store = await syntheticStore(SWAP_SIMS, { bootstrapSamples: 2000, seed: 11 });
    swaps = await rows<Swap>(store, "SELECT * FROM ranking_swaps_vs_noise ORDER BY model_a, model_b");
  });
  afterAll(() => store.close());

  it("pairs every two ranking entries once, with their pass^1 as the ranking computes it", () => {
    const C1 = "C [agent_one]";
    const C2 = "C [agent_two]";
    expect(swaps.map((s) => `${entry(s.model_a)}|${entry(s.model_b)}`)).toEqual(
      [
        ["A", "B"],
        ["A", C1],
        ["A", C2],
        ["A", "D"],
        ["B", C1],
        ["B", C2],
        ["B", "D"],
        [C1, C2],
        [C1, "D"],
        [C2, "D"],
      ].map(([a, b]) => `${a}|${b}`),
    );
    expect(pair("A", "B")).toMatchObject({ baseline_a: 0.25 });
    expect(pair("A", "B")?.baseline_b).toBeCloseTo(1 / 3, 12);
  });

  it("says whether the grader swaps two entries, and how often a re-run of the agents does", () => {
    // A re-run: A scores 0, 1/4 or 1/2 (t1 draws 0, 1 or 2 passes of [T, F]); B scores k/6 with k of 3
    // draws of [T, T, F]. A rises above B with probability 1/2 · 7/27 + 1/4 · 19/27 = 33/108.
    expect(pair("A", "B")).toMatchObject({ grader_swaps: true, repeated: true });
    expect(pair("A", "B")?.rerun_swap_share).toBeCloseTo(33 / 108, 1);
    // The grader lifts A above D (1/2); no re-run does: A's best draw only ties D.
    expect(pair("A", "D")).toMatchObject({ grader_swaps: true, repeated: true, rerun_swap_share: 0 });
    expect(pair("B", "D")).toMatchObject({ grader_swaps: false, repeated: true, rerun_swap_share: 0 });
    // A tie under the candidate is no swap.
    expect(pair("A", "C [agent_one]")).toMatchObject({ grader_swaps: false, rerun_swap_share: 0 });
  });

  it("leaves the share null where neither entry of the pair has repeats", () => {
    for (const [a, b] of [
      ["C [agent_one]", "C [agent_two]"],
      ["C [agent_one]", "D"],
      ["C [agent_two]", "D"],
    ] as const)
      expect(pair(a, b)).toMatchObject({ repeated: false, rerun_swap_share: null });
  });

  it("computes the same rows in another session (seeded resampling)", async () => {
    const again = await syntheticStore(SWAP_SIMS, { bootstrapSamples: 2000, seed: 11 });
    try {
      expect(await rows(again, "SELECT * FROM ranking_swaps_vs_noise ORDER BY ALL")).toEqual(
        await rows(store, "SELECT * FROM ranking_swaps_vs_noise ORDER BY ALL"),
      );
    } finally {
      again.close();
    }
  });
});
