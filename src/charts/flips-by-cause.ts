/** Flips by cause (requirement, delta-gate field, policy rule), one panel per domain. */
import { rows } from "../analysis/report.ts";
import { bandHeight, type ChartModule, DIRECTION_LABEL, groupBy, panelTitle, topLevel } from "./common.ts";

export interface FlipCauseRow {
  domain: string;
  cause_category: string;
  cause_detail: string;
  direction: string;
  flips: number;
}

const CATEGORY_LABEL: Record<string, string> = {
  requirement: "requirement",
  delta_gate_field: "delta-gate field",
  policy_rule: "policy rule",
};
const CATEGORY = {
  domain: ["requirement", "delta-gate field", "policy rule"],
  range: ["#e45756", "#4c78a8", "#b279a2"],
};

export const flipsByCauseChart: ChartModule<FlipCauseRow[]> = {
  name: "flips_by_cause",
  title: "Flips by cause",
  load: async (store) =>
    await rows<FlipCauseRow>(
      store,
      "SELECT * FROM flips_by_cause ORDER BY domain, cause_category, flips DESC, cause_detail",
    ),
  build(data) {
    if (data.length === 0) return null;
    const panels = [...groupBy(data, (r) => r.domain)].map(([domain, causes]) => {
      const values = causes.map((r) => ({
        ...r,
        direction: DIRECTION_LABEL[r.direction] ?? r.direction,
        cause_category: CATEGORY_LABEL[r.cause_category] ?? r.cause_category,
      }));
      // One bar row per cause, in category order then by count.
      const order = [...new Set(causes.map((r) => r.cause_detail))];
      return {
        title: panelTitle(domain),
        data: { values },
        width: 380,
        height: bandHeight(order.length, 24),
        layer: [
          {
            mark: { type: "bar", height: { band: 0.8 } },
            encoding: {
              y: { field: "cause_detail", type: "nominal", title: null, sort: order },
              x: {
                field: "flips",
                type: "quantitative",
                title: "flipped simulations",
                axis: { tickMinStep: 1, format: "d" },
              },
              color: { field: "cause_category", type: "nominal", title: "cause", scale: CATEGORY },
              opacity: {
                field: "direction",
                type: "ordinal",
                title: "direction",
                scale: { domain: ["pass → fail", "fail → pass"], range: [1, 0.45] },
              },
              tooltip: [
                { field: "cause_category" },
                { field: "cause_detail" },
                { field: "direction" },
                { field: "flips" },
              ],
            },
          },
          {
            mark: { type: "text", align: "left", dx: 4, fontSize: 11 },
            encoding: {
              y: { field: "cause_detail", type: "nominal", sort: order },
              x: { field: "flips", type: "quantitative", aggregate: "sum" },
              text: { field: "flips", aggregate: "sum" },
            },
          },
        ],
      };
    });
    return topLevel(
      "Flips by cause",
      "simulations flipped by each structured-grader cause (a flip with several causes counts once per cause)",
      { vconcat: panels, resolve: { scale: { color: "shared", opacity: "shared" } } },
    );
  },
};
