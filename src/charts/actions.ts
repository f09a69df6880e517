/**
 * A comparison's flips and score delta by action, one row of panels per domain: how many flipped
 * simulations call the action (and how many flips the action itself caused), and the candidate − baseline
 * pass-rate difference among the simulations that call it. Only actions with a flip among their callers.
 */
import { rows } from "../analysis/rows.ts";
import type { ComparisonRef } from "../analysis/run.ts";
import { groupBy } from "../util/group-by.ts";
import {
  bandHeight,
  comparisonLabel,
  graderLabel,
  type PairedChartModule,
  panelTitle,
  topLevel,
} from "./common.ts";

export interface ActionRow {
  comparison: string;
  domain: string;
  action: string;
  kind: string | null;
  simulations: number;
  score_delta: number;
  flips_among_callers: number;
  flips_attributed: number;
}

const MEASURES = {
  domain: ["flips among callers", "flips caused by the action"],
  range: ["#9ecae9", "#e45756"],
};

function domainRow(domain: string, actions: readonly ActionRow[], c: ComparisonRef) {
  const order = actions.map((a) => a.action);
  const height = bandHeight(order.length, 26);
  const y = { field: "action", type: "nominal", title: null, sort: order };
  const counts = actions.flatMap((a) => [
    { action: a.action, measure: MEASURES.domain[0], flips: a.flips_among_callers },
    { action: a.action, measure: MEASURES.domain[1], flips: a.flips_attributed },
  ]);
  return {
    title: panelTitle(domain),
    hconcat: [
      {
        data: { values: counts },
        width: 260,
        height,
        mark: { type: "bar" },
        encoding: {
          y,
          yOffset: { field: "measure", type: "nominal", sort: MEASURES.domain },
          x: {
            field: "flips",
            type: "quantitative",
            title: "flipped simulations",
            axis: { tickMinStep: 1, format: "d" },
          },
          color: { field: "measure", type: "nominal", title: null, scale: MEASURES },
          tooltip: [{ field: "action" }, { field: "measure" }, { field: "flips" }],
        },
      },
      {
        data: { values: actions },
        width: 260,
        height,
        mark: { type: "bar" },
        encoding: {
          y: { ...y, axis: { labels: false, ticks: false } },
          // Diverging: a lower candidate pass rate in red, a higher one in green.
          color: { condition: { test: "datum.score_delta < 0", value: "#e45756" }, value: "#54a24b" },
          x: {
            field: "score_delta",
            type: "quantitative",
            title: `pass rate: ${graderLabel(c.candidate)} − ${graderLabel(c.baseline)}`,
            axis: { format: "+.0%" },
          },
          tooltip: [
            { field: "action" },
            { field: "kind" },
            { field: "simulations" },
            { field: "score_delta", format: "+.1%" },
          ],
        },
      },
    ],
  };
}

export const actionsChart: PairedChartModule<ActionRow[]> = {
  name: "flips_by_action",
  title: (c) => `Flips and score delta by action: ${comparisonLabel(c)}`,
  load: async (store) =>
    await rows<ActionRow>(
      store,
      `SELECT comparison, domain, action, kind, simulations, score_delta, flips_among_callers, flips_attributed
       FROM score_delta_by_action WHERE flips_among_callers > 0
       ORDER BY comparison, domain, flips_attributed DESC, flips_among_callers DESC, action`,
    ),
  build(all, c) {
    const data = all.filter((r) => r.comparison === c.comparison);
    if (data.length === 0) return null;
    const panels = [...groupBy(data, (r) => r.domain)].map(([d, a]) => domainRow(d, a, c));
    return topLevel(
      actionsChart.title(c),
      "actions called in at least one flipped simulation; red: flips the failing side attributes to the action itself",
      { vconcat: panels, resolve: { scale: { color: "shared" } } },
    );
  },
};
