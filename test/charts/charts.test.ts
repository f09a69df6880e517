/** Chart specs compile without vega-lite warnings, render to SVG and PNG, and show what their data says. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ComparisonRef, installAnalyses } from "../../src/analysis/run.ts";
import { flipRatesChart, leftOutNote, splitByModelSize } from "../../src/charts/flip-rates.ts";
import { buildCharts, type ChartDef } from "../../src/charts/index.ts";
import { probeCensusChart } from "../../src/charts/probe-census.ts";
import { rankSlopeChart } from "../../src/charts/rank-slope.ts";
import { ChartWarnings, compileSpec, renderPng, renderSvg, svgSize } from "../../src/charts/render.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticReview, syntheticStore } from "../analysis/synthetic-store.ts";

/** PNG width and height from the IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

const LONG_MODEL = "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm [llm_agent_solo]";

// "alpha" beats "beta" under τ³ (4/6 vs 3/6) and loses under the structured grader (2/6 vs 3/6): a swap.
const sims: SyntheticSim[] = [
  ...[true, true, true, true, false, false].map((t, i) => ({
    model: "alpha",
    task: `t${i}`,
    tau3: t,
    structured: i < 2 ? t : false,
  })),
  ...[true, true, true, false, false, false].map((t, i) => ({
    model: "beta",
    task: `t${i}`,
    tau3: t,
    structured: t,
  })),
  ...[true, false, true, false, false, true].map((t, i) => ({
    model: LONG_MODEL,
    task: `t${i}`,
    tau3: t,
    structured: i === 5 ? false : t,
  })),
];

const HEADLINE: ComparisonRef = {
  seq: 1,
  comparison: "tau3-vs-structured",
  baseline: "tau3",
  candidate: "structured",
};
const PAIRED = ["flip_rates_by_model", "rank_slope", "flips_by_cause", "flips_by_action", "pass_hat_k"];
const named = (list: readonly ChartDef[], chart: string, comparison = HEADLINE.comparison) =>
  list.find((c) => c.name === `${chart}--${comparison}`);

/** The synthetic models have a handful of simulations each: draw them all. */
const ALL_MODELS = { minModelSimulations: 1 };
let store: VerdictStore;
let charts: ChartDef[];
beforeAll(async () => {
  store = await syntheticStore(sims, { bootstrapSamples: 20, minTaskCoverage: 0.5 });
  charts = await buildCharts(store, ALL_MODELS);
});
afterAll(() => store.close());

describe("charts from the analysis views", () => {
  it("builds every chart that has data, per comparison, and no probe census without its relation", () => {
    expect(charts.map((c) => c.name)).toEqual(
      PAIRED.filter((n) => n !== "flips_by_action").map((n) => `${n}--${HEADLINE.comparison}`),
    ); // the synthetic store records no tool calls
    expect(new Set(charts.map((c) => c.comparison))).toEqual(new Set([HEADLINE.comparison]));
  });

  it("compiles each spec without warnings and renders SVG and a PNG of twice its size", async () => {
    for (const c of charts) {
      expect(() => compileSpec(c.spec), c.name).not.toThrow();
      const svg = await renderSvg(c.spec);
      const size = svgSize(svg);
      expect(size.width, c.name).toBeGreaterThan(200);
      const png = renderPng(svg);
      expect(png.data.subarray(1, 4).toString(), c.name).toBe("PNG");
      expect(pngSize(png.data), c.name).toEqual({
        width: Math.ceil(size.width * 2),
        height: Math.ceil(size.height * 2),
      });
      expect({ width: png.width, height: png.height }).toEqual(pngSize(png.data));
      // Data is inlined: the spec stands alone in the Vega editor.
      expect(JSON.stringify(c.spec)).not.toMatch(/"url"\s*:/);
    }
  });

  it("draws long model names in full (measured with the DejaVu metrics, not truncated)", async () => {
    const flipRates = named(charts, "flip_rates_by_model")!;
    const svg = await renderSvg(flipRates.spec);
    expect(svg).toContain(LONG_MODEL);
    expect(svg).not.toContain("…");
  });

  it("highlights the models of a swapped pair in the slope chart", async () => {
    const data = await rankSlopeChart.load(store);
    expect(data.swapped.map((s) => [s.comparison, s.model_a, s.model_b])).toEqual([
      [HEADLINE.comparison, "alpha [agent]", "beta [agent]"],
    ]);
    const svg = await renderSvg(rankSlopeChart.build(data, HEADLINE, ALL_MODELS)!);
    // Red lines for alpha and beta only: two paths stroked with the highlight colour.
    const red = svg.match(/<path[^>]*stroke="#d62728"[^>]*stroke-width="3"/g) ?? [];
    expect(red.length).toBe(2);
  });

  it("renders the probe census only once the relation exists, unknown verdicts as their own category", async () => {
    expect(await probeCensusChart.load(store)).toBeNull();
    await store.conn.run(
      `CREATE TABLE probe_census AS SELECT * FROM (VALUES
         ('airline', 'head', 'skip_confirmation', 10, 7, 1, 2, 3), ('airline', 'head', 'wrong_argument', 8, 2, 0, 0, 0))
         t(domain, task_version, kind, tasks, tau3_pass, structured_pass, tau3_unknown, structured_unknown)`,
    );
    try {
      await installAnalyses(store);
      const names = (await buildCharts(store, ALL_MODELS)).map((c) => c.name);
      expect(names).toContain("probe_census");
      const spec = probeCensusChart.build(await probeCensusChart.load(store))!;
      const svg = await renderSvg(spec);
      expect(svg).toContain("skip_confirmation");
      expect(svg).toContain(">unknown</text>"); // the legend names the category
      const values = JSON.stringify(spec);
      // skip_confirmation: τ³ 7 passed, 2 unknown, so 1 failed (not 3); structured 1 passed, 3 unknown, 6 failed.
      for (const [grader, outcome, n] of [
        ["τ³", "passed", 7],
        ["τ³", "failed", 1],
        ["τ³", "unknown", 2],
        ["structured", "failed", 6],
        ["structured", "unknown", 3],
      ] as const)
        expect(values).toContain(
          `"row":"skip_confirmation · ${grader}","kind":"skip_confirmation","grader":"${grader}","outcome":"${outcome}","order":${["passed", "failed", "unknown"].indexOf(outcome)},"n":${n},`,
        );
    } finally {
      await store.conn.run("DROP TABLE probe_census");
    }
  });

  it("charts every grader of a census with a row per grader, one it does not know by its id", async () => {
    await store.conn.run(
      `CREATE TABLE probe_census AS SELECT * FROM (VALUES
         ('airline', 'head', 'gold', 'tau3', 10, 9, 0, '[]', '[]'),
         ('airline', 'head', 'gold', 'newcomer', 10, 4, 1, '[]', '[]'))
         t(domain, task_version, kind, grader, tasks, pass, unknown, disagreements, errors)`,
    );
    try {
      const values = JSON.stringify(probeCensusChart.build(await probeCensusChart.load(store)));
      expect(values).toContain(
        '"row":"gold · τ³","kind":"gold","grader":"τ³","outcome":"passed","order":0,"n":9,',
      );
      expect(values).toContain(
        '"row":"gold · newcomer","kind":"gold","grader":"newcomer","outcome":"failed","order":1,"n":5,',
      );
    } finally {
      await store.conn.run("DROP TABLE probe_census");
    }
  });

  it("shows confirmed and unreviewed flips apart once a flip is reviewed", async () => {
    const flipsOf = async () => {
      const built = await buildCharts(store, ALL_MODELS);
      return {
        rates: JSON.stringify(named(built, "flip_rates_by_model")?.spec),
        causes: JSON.stringify(named(built, "flips_by_cause")?.spec),
      };
    };
    const before = await flipsOf();
    expect(before.rates).not.toContain('"direction":"confirmed flips"');
    expect(before.causes).toContain('"review":"unreviewed"');
    expect(before.causes).not.toContain('"review":"confirmed"');
    const [flip] = await store.query<{ sim_key: string }>(
      "SELECT sim_key FROM flips ORDER BY sim_key LIMIT 1",
    );
    await store.append("sim_context", [
      {
        run_id: "r1",
        sim_key: flip!.sim_key,
        fingerprint: "e".repeat(64),
        persona: null,
        instructions: "",
        ticket: null,
        criteria: null,
      },
    ]);
    // The run's rows are complete before the views are installed: materialized views read them once.
    await installAnalyses(store);
    await store.append("reviews", [
      syntheticReview({ fingerprint: "e".repeat(64), verdict: "confirmed", reason: "checked" }),
    ]);
    try {
      const after = await flipsOf();
      expect(after.rates).toContain('"direction":"confirmed flips","flips":1');
      expect(after.causes).toContain('"review":"confirmed","order":0,"flips":1');
      for (const c of (await buildCharts(store, ALL_MODELS)).filter((x) => x.name.startsWith("flip")))
        expect(() => compileSpec(c.spec), c.name).not.toThrow();
    } finally {
      await store.conn.run("DELETE FROM reviews");
      await store.conn.run("DELETE FROM sim_context");
      await installAnalyses(store);
    }
  });

  it("draws each paired chart once per comparison, from that comparison's rows and sides", async () => {
    // The same verdicts, also compared the other way round: its flips go fail → pass.
    const both = await syntheticStore(sims, {
      bootstrapSamples: 20,
      minTaskCoverage: 0.5,
      comparisons: [
        { baseline: "tau3", candidate: "structured" },
        { baseline: "structured", candidate: "tau3" },
      ],
    });
    try {
      const built = await buildCharts(both, ALL_MODELS);
      const reverse = "structured-vs-tau3";
      expect(built.map((c) => c.name)).toEqual(
        [HEADLINE.comparison, reverse].flatMap((k) =>
          PAIRED.filter((n) => n !== "flips_by_action").map((n) => `${n}--${k}`),
        ),
      );
      const rates = (k: string) =>
        JSON.stringify(named(built, "flip_rates_by_model", k)?.spec).match(
          /"direction":"[^"]+","flips":\d+/g,
        );
      // alpha flips 2 and the long-named model 1 (t0..t5 of both): pass → fail one way, fail → pass the other.
      expect(rates(HEADLINE.comparison)).toContain('"direction":"pass → fail","flips":2');
      expect(rates(HEADLINE.comparison)).not.toContain('"direction":"fail → pass","flips":2');
      expect(rates(reverse)).toContain('"direction":"fail → pass","flips":2');
      expect(rates(reverse)).not.toContain('"direction":"pass → fail","flips":2');
      // The slope chart puts the baseline on the left: τ³ first in one, structured first in the other.
      const sides = (k: string) =>
        (
          named(built, "rank_slope", k)!.spec as unknown as {
            vconcat: { layer: { encoding: { x: { scale: { domain: string[] } } } }[] }[];
          }
        ).vconcat[0]!.layer[0]!.encoding.x.scale.domain;
      expect(sides(HEADLINE.comparison)).toEqual(["τ³", "structured"]);
      expect(sides(reverse)).toEqual(["structured", "τ³"]);
      expect(named(built, "pass_hat_k", reverse)?.title).toBe("pass^k under structured and τ³");
      for (const c of built) expect(() => compileSpec(c.spec), c.name).not.toThrow();
    } finally {
      both.close();
    }
  });

  it("fails on a spec vega-lite would only warn about", () => {
    const bad = {
      data: { values: [{ a: "x", b: 1 }] },
      mark: "bar",
      encoding: { x: { field: "a", type: "nominal" }, strokeWidth: { field: "a", type: "nominal" } },
    } as const;
    expect(() => compileSpec(bad)).toThrow(ChartWarnings);
  });
});

describe("rate charts by model and the minimum of simulations", () => {
  it("leaves out models with fewer simulations than the minimum and says so in the caption", async () => {
    const rows = [
      { domain: "airline", n: 50 },
      { domain: "airline", n: 3 },
      { domain: "retail", n: 19 },
    ];
    const { shown, left } = splitByModelSize(rows, 20);
    expect(shown).toEqual([rows[0]]);
    expect(leftOutNote(left, 20)).toBe(
      "2 models with fewer than 20 simulations in a domain left out (airline 1, retail 1); the flip-rate table lists every model",
    );
    expect(leftOutNote([], 20)).toBeNull();
    const store = await syntheticStore(
      ["big", "small"].flatMap((model) =>
        Array.from({ length: model === "big" ? 4 : 2 }, (_, i) => ({
          model,
          task: `t${i}`,
          tau3: true,
          structured: i !== 0,
        })),
      ),
      { bootstrapSamples: 20, minTaskCoverage: 0.5 },
    );
    try {
      const data = await flipRatesChart.load(store);
      const opts = { minModelSimulations: 3 };
      const spec = JSON.stringify(flipRatesChart.build(data, HEADLINE, opts));
      expect(spec).toMatch(/"model":"big/);
      expect(spec).not.toMatch(/"model":"small/);
      expect(spec).toContain("1 model with fewer than 3 simulations left out");
      expect(flipRatesChart.note?.(data, HEADLINE, opts)).toMatch(/^1 model with fewer than 3 simulations/);
      expect(flipRatesChart.build(data, HEADLINE, { minModelSimulations: 5 })).toBeNull();
    } finally {
      store.close();
    }
  });
});
