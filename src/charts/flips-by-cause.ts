/** Flips by cause (requirement, delta-gate field, policy rule, ...), one panel per domain. */
import { rows } from "../analysis/report.ts";
import type { CauseKind } from "../graders/causes.ts";
import { bandHeight, type ChartModule, DIRECTION_LABEL, groupBy, panelTitle, topLevel } from "./common.ts";

export interface FlipCauseRow {
  domain: string;
  cause_kind: string;
  reference: string;
  direction: string;
  flips: number;
}

const kindLabel = (kind: string) => kind.replaceAll("_", " ");
/** Every kind that can flip a verdict has a colour (τ³'s own kinds never do); a new kind needs one to compile. */
const KIND_COLOR: {
  readonly [K in Exclude<CauseKind, "component" | "premature_termination" | "tau3">]: string;
} = {
  requirement: "#e45756",
  delta_gate_field: "#4c78a8",
  policy_rule: "#b279a2",
  format_error: "#9d755d",
  nl_curated: "#54a24b",
  consistency: "#bab0ac",
};
const kindScale = (kinds: readonly string[]) => {
  const shown = [...new Set(kinds)].sort(
    (a, b) => Object.keys(KIND_COLOR).indexOf(a) - Object.keys(KIND_COLOR).indexOf(b),
  );
  const color = KIND_COLOR as Readonly<Record<string, string>>;
  return { domain: shown.map(kindLabel), range: shown.map((k) => color[k] ?? "#888") };
};

export const flipsByCauseChart: ChartModule<FlipCauseRow[]> = {
  name: "flips_by_cause",
  title: "Flips by cause",
  load: async (store) =>
    await rows<FlipCauseRow>(
      store,
      "SELECT * FROM flips_by_cause ORDER BY domain, cause_kind, flips DESC, reference",
    ),
  build(data) {
    if (data.length === 0) return null;
    const scale = kindScale(data.map((r) => r.cause_kind));
    const panels = [...groupBy(data, (r) => r.domain)].map(([domain, causes]) => {
      const values = causes.map((r) => ({
        ...r,
        direction: DIRECTION_LABEL[r.direction] ?? r.direction,
        cause_kind: kindLabel(r.cause_kind),
      }));
      // One bar row per cause, in category order then by count.
      const order = [...new Set(causes.map((r) => r.reference))];
      return {
        title: panelTitle(domain),
        data: { values },
        width: 380,
        height: bandHeight(order.length, 24),
        layer: [
          {
            mark: { type: "bar", height: { band: 0.8 } },
            encoding: {
              y: { field: "reference", type: "nominal", title: null, sort: order },
              x: {
                field: "flips",
                type: "quantitative",
                title: "flipped simulations",
                axis: { tickMinStep: 1, format: "d" },
              },
              color: { field: "cause_kind", type: "nominal", title: "cause", scale },
              opacity: {
                field: "direction",
                type: "ordinal",
                title: "direction",
                scale: { domain: ["pass → fail", "fail → pass"], range: [1, 0.45] },
              },
              tooltip: [
                { field: "cause_kind" },
                { field: "reference" },
                { field: "direction" },
                { field: "flips" },
              ],
            },
          },
          {
            mark: { type: "text", align: "left", dx: 4, fontSize: 11 },
            encoding: {
              y: { field: "reference", type: "nominal", sort: order },
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
