/**
 * Slope (bump) chart: each model's rank under a comparison's baseline (left) and candidate (right), one
 * panel per ranking group (domain + task set). Models in a swapped pair are drawn in red.
 */
import { rows } from "../analysis/rows.ts";
import type { ComparisonRef } from "../analysis/run.ts";
import { groupBy } from "../util/group-by.ts";
import { comparisonLabel, graderLabel, type PairedChartModule, topLevel } from "./common.ts";

export interface RankRow {
  domain: string;
  task_version: string;
  model: string;
  grader: string;
  pass1: number;
  rank: number;
}
export interface SwapRow {
  comparison: string;
  domain: string;
  task_version: string;
  model_a: string;
  model_b: string;
}
export interface RankSlopeData {
  ranking: RankRow[];
  swapped: SwapRow[];
}

const SWAPPED = "in a swapped pair";
const KEPT = "same order";

/**
 * Tied models share a rank: one label per (grader, rank), names joined, so labels never overlap. The
 * rank number sits next to the line (left of the baseline labels' end, right of the candidate's start):
 * no y axis.
 */
function rankLabels(group: readonly RankRow[], baseline: string) {
  return [...groupBy(group, (r) => `${r.grader}\u0000${r.rank}`).values()].map((tied) => {
    const first = tied[0]!;
    const names = tied.map((r) => `${r.model} (${(r.pass1 * 100).toFixed(1)}%)`).join(" = ");
    const label = first.grader === baseline ? `${names}  #${first.rank}` : `#${first.rank}  ${names}`;
    return { grader: graderLabel(first.grader), rank: first.rank, label };
  });
}

function panel(key: string, group: readonly RankRow[], swappedModels: ReadonlySet<string>, c: ComparisonRef) {
  const maxRank = Math.max(...group.map((r) => r.rank));
  const sides = [graderLabel(c.baseline), graderLabel(c.candidate)];
  const points = group.map((r) => ({
    model: r.model,
    grader: graderLabel(r.grader),
    rank: r.rank,
    pass1: r.pass1,
    status: swappedModels.has(r.model) ? SWAPPED : KEPT,
  }));
  const labels = rankLabels(group, c.baseline);
  const x = {
    field: "grader",
    type: "ordinal",
    title: null,
    scale: { domain: sides, padding: 0.05 },
    axis: { orient: "top", labelAngle: 0, labelFontSize: 12, labelFontWeight: "bold" },
  };
  const y = {
    field: "rank",
    type: "quantitative",
    scale: { domain: [maxRank + 0.5, 0.5], nice: false, zero: false },
    axis: null,
  };
  const color = {
    field: "status",
    type: "nominal",
    title: null,
    scale: { domain: [SWAPPED, KEPT], range: ["#d62728", "#9a9a9a"] },
  };
  const text = (grader: string, align: "left" | "right", dx: number) => ({
    data: { values: labels.filter((l) => l.grader === grader) },
    mark: { type: "text", align, dx, fontSize: 11 },
    encoding: { x, y, text: { field: "label" } },
  });
  return {
    title: { text: key, anchor: "start", fontSize: 13 },
    width: 200,
    height: Math.max(80, maxRank * 28),
    layer: [
      {
        data: { values: points },
        mark: { type: "line", point: { filled: true, size: 50 } },
        encoding: {
          x,
          y,
          detail: { field: "model" },
          color,
          strokeWidth: { condition: { test: `datum.status === '${SWAPPED}'`, value: 3 }, value: 1.5 },
          tooltip: [
            { field: "model" },
            { field: "grader" },
            { field: "rank" },
            { field: "pass1", format: ".1%" },
          ],
        },
      },
      text(sides[0]!, "right", -10),
      text(sides[1]!, "left", 10),
    ],
  };
}

export const rankSlopeChart: PairedChartModule<RankSlopeData> = {
  name: "rank_slope",
  title: (c) => `Rank under ${graderLabel(c.baseline)} vs ${graderLabel(c.candidate)}`,
  load: async (store) => ({
    ranking: await rows<RankRow>(
      store,
      `SELECT domain, task_version, model, grader, pass1, rank FROM ranking
       WHERE grader IN (SELECT grader FROM compared_graders) ORDER BY domain, task_version, grader, rank, model`,
    ),
    swapped: await rows<SwapRow>(
      store,
      "SELECT comparison, domain, task_version, model_a, model_b FROM swapped_pairs",
    ),
  }),
  build(data, c) {
    const ranking = data.ranking.filter((r) => r.grader === c.baseline || r.grader === c.candidate);
    const swapped = data.swapped.filter((s) => s.comparison === c.comparison);
    const groups = [...groupBy(ranking, (r) => `${r.domain} · ${r.task_version}`)].filter(
      ([, g]) => new Set(g.map((r) => r.model)).size >= 2,
    );
    if (groups.length === 0) return null;
    const panels = groups.map(([key, g]) => {
      const first = g[0]!;
      const swappedModels = new Set(
        swapped
          .filter((s) => s.domain === first.domain && s.task_version === first.task_version)
          .flatMap((s) => [s.model_a, s.model_b]),
      );
      return panel(key, g, swappedModels, c);
    });
    return topLevel(
      rankSlopeChart.title(c),
      `${comparisonLabel(c)}: pass^1 rank per ranking group (domain · task set); red lines: models whose order with another model swaps`,
      { vconcat: panels, resolve: { scale: { color: "shared", x: "independent", y: "independent" } } },
    );
  },
};
