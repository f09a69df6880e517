/**
 * A comparison's flips by the failing side's cause (requirement, delta-gate field, policy rule,
 * component, ...), one panel per domain. Each bar is split by review: solid = confirmed, fainter = unclear, then false positive, nearly empty (outlined)
 * = unreviewed, so confirmed and unreviewed flips read apart at a glance.
 */
import { rows } from "../analysis/rows.ts";
import type { CauseKind } from "../graders/causes.ts";
import { groupBy } from "../util/group-by.ts";
import {
  bandHeight,
  comparisonLabel,
  DIRECTION_LABEL,
  type PairedChartModule,
  panelTitle,
  topLevel,
} from "./common.ts";

export interface FlipCauseRow {
  comparison: string;
  /** The failing side, whose cause it is. */
  grader: string;
  domain: string;
  cause_kind: string;
  reference: string;
  direction: string;
  flips: number;
  confirmed: number;
  false_positive: number;
  unclear: number;
  unreviewed: number;
}

/** Review statuses in stacking order, with the opacity that tells them apart. */
const REVIEW_SCALE = {
  domain: ["confirmed", "unclear", "false positive", "unreviewed"],
  range: [1, 0.6, 0.3, 0.08],
};
const STATUS_FIELDS = [
  ["confirmed", "confirmed"],
  ["unclear", "unclear"],
  ["false_positive", "false positive"],
  ["unreviewed", "unreviewed"],
] as const;

const kindLabel = (kind: string) => kind.replaceAll("_", " ");
/** Every kind has a colour (any grader can be a comparison's failing side); a new kind needs one to compile. */
const KIND_COLOR: { readonly [K in CauseKind]: string } = {
  policy_clause: "#f58518",
  requirement: "#e45756",
  attempted_violation: "#ff9da6",
  unlicensed_write: "#4c78a8",
  user_state: "#72b7b2",
  licensed_write: "#9ecae9",
  policy_rule: "#b279a2",
  format_error: "#9d755d",
  nl_curated: "#54a24b",
  degenerate_judge_reply: "#eeca3b",
  consistency: "#bab0ac",
  component: "#79706e",
  premature_termination: "#d67195",
  tau3: "#439894",
  undecided_clause: "#d8b5a5",
  acceptable_outcome: "#8c6d31",
  no_reference: "#c7c7c7",
};
const kindScale = (kinds: readonly string[]) => {
  const shown = [...new Set(kinds)].sort(
    (a, b) => Object.keys(KIND_COLOR).indexOf(a) - Object.keys(KIND_COLOR).indexOf(b),
  );
  const color = KIND_COLOR as Readonly<Record<string, string>>;
  return { domain: shown.map(kindLabel), range: shown.map((k) => color[k] ?? "#888") };
};

export const flipsByCauseChart: PairedChartModule<FlipCauseRow[]> = {
  name: "flips_by_cause",
  title: (c) => `Flips by cause: ${comparisonLabel(c)}`,
  load: async (store) =>
    await rows<FlipCauseRow>(
      store,
      "SELECT * FROM flips_by_cause ORDER BY comparison, domain, cause_kind, flips DESC, reference",
    ),
  build(all, c) {
    const data = all.filter((r) => r.comparison === c.comparison);
    if (data.length === 0) return null;
    const scale = kindScale(data.map((r) => r.cause_kind));
    const panels = [...groupBy(data, (r) => r.domain)].map(([domain, causes]) => {
      // A fail → pass cause gets its own bar row, named so.
      const row = (r: FlipCauseRow) =>
        r.direction === "pass_to_fail"
          ? r.reference
          : `${r.reference} (${DIRECTION_LABEL[r.direction] ?? r.direction})`;
      const values = causes.flatMap((r) =>
        STATUS_FIELDS.filter(([f]) => r[f] > 0).map(([f, review], order) => ({
          reference: row(r),
          cause_kind: kindLabel(r.cause_kind),
          direction: DIRECTION_LABEL[r.direction] ?? r.direction,
          review,
          order,
          flips: r[f],
          total: r.flips,
        })),
      );
      // One bar row per cause, in category order then by count.
      const order = [...new Set(causes.map(row))];
      return {
        title: panelTitle(domain),
        data: { values },
        width: 380,
        height: bandHeight(order.length, 24),
        layer: [
          {
            // Fill: the cause's colour, faded by review status (the opacity legend names them).
            mark: { type: "bar", height: { band: 0.8 } },
            encoding: {
              y: { field: "reference", type: "nominal", title: null, sort: order },
              x: {
                field: "flips",
                type: "quantitative",
                title: "flipped simulations",
                stack: "zero",
                axis: { tickMinStep: 1, format: "d" },
              },
              color: { field: "cause_kind", type: "nominal", title: "cause", scale },
              opacity: {
                field: "review",
                type: "ordinal",
                sort: REVIEW_SCALE.domain,
                title: "review",
                // An explicit ordinal scale maps each status to its own opacity (not interpolated).
                scale: { type: "ordinal", ...REVIEW_SCALE },
              },
              order: { field: "order", type: "quantitative" },
              tooltip: [
                { field: "cause_kind" },
                { field: "reference" },
                { field: "direction" },
                { field: "review" },
                { field: "flips" },
                { field: "total", title: "all flips of this cause" },
              ],
            },
          },
          {
            // Outline: every segment keeps a full-strength border, so a faint unreviewed bar still reads.
            mark: { type: "bar", height: { band: 0.8 }, fillOpacity: 0, strokeWidth: 1 },
            encoding: {
              y: { field: "reference", type: "nominal", sort: order },
              x: { field: "flips", type: "quantitative", stack: "zero" },
              stroke: { field: "cause_kind", type: "nominal", title: "cause", scale },
              order: { field: "order", type: "quantitative" },
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
      flipsByCauseChart.title(c),
      [
        "simulations flipped by each cause of the failing side (a flip with several causes counts once per cause; excluded files left out)",
        "solid: a reviewer confirmed the cause · fainter: unclear, false positive · nearly empty: unreviewed",
      ],
      { vconcat: panels, resolve: { scale: { color: "shared", opacity: "shared", stroke: "shared" } } },
    );
  },
};
