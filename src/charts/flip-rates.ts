/**
 * Flip rate by model, one panel per domain: pass→fail and fail→pass side by side with Wilson 95%
 * intervals, and, once any flip is reviewed, the rate of reviewer-confirmed flips beside them. A model
 * with fewer simulations in a domain than `minModelSimulations` is left out (its interval says little),
 * and the caption says how many were; the flip-rate table lists every model.
 */
import { rows } from "../analysis/rows.ts";
import { groupBy } from "../util/group-by.ts";
import {
  bandHeight,
  type ChartOptions,
  comparisonLabel,
  DIRECTION_COLORS,
  DIRECTION_LABEL,
  graderLabel,
  LABEL_LIMIT,
  type PairedChartModule,
  panelTitle,
  topLevel,
} from "./common.ts";

export interface FlipRateRow {
  comparison: string;
  domain: string;
  model: string;
  n: number;
  pass_to_fail: number;
  fail_to_pass: number;
  pass_to_fail_rate: number;
  pass_to_fail_lo: number;
  pass_to_fail_hi: number;
  fail_to_pass_rate: number;
  fail_to_pass_lo: number;
  fail_to_pass_hi: number;
  confirmed_flips: number;
  unreviewed_flips: number;
  confirmed_flip_rate: number;
  confirmed_flip_rate_lo: number;
  confirmed_flip_rate_hi: number;
}

const CONFIRMED = "confirmed flips";
const SERIES = {
  domain: [...DIRECTION_COLORS.domain, CONFIRMED],
  range: [...DIRECTION_COLORS.range, "#222222"],
};

/** One point per (model, series): the long form vega-lite wants. */
function longForm(r: FlipRateRow, withConfirmed: boolean) {
  // The sample size next to the name: a wide interval on n = 1 is no finding.
  const label = `${r.model}  (n = ${r.n})`;
  const base = { domain: r.domain, model: r.model, label, n: r.n };
  const raw = (["pass_to_fail", "fail_to_pass"] as const).map((d) => ({
    ...base,
    direction: DIRECTION_LABEL[d],
    flips: r[d],
    rate: r[`${d}_rate`],
    lo: r[`${d}_lo`],
    hi: r[`${d}_hi`],
  }));
  if (!withConfirmed) return raw;
  return [
    ...raw,
    {
      ...base,
      direction: CONFIRMED,
      flips: r.confirmed_flips,
      rate: r.confirmed_flip_rate,
      lo: r.confirmed_flip_rate_lo,
      hi: r.confirmed_flip_rate_hi,
    },
  ];
}

/** The rows a rate chart by model draws (at least `min` simulations) and those it leaves out. */
export function splitByModelSize<T extends { n: number }>(
  rows: readonly T[],
  min: number,
): { shown: T[]; left: T[] } {
  return { shown: rows.filter((r) => r.n >= min), left: rows.filter((r) => r.n < min) };
}

/** The caption's word on the models left out, per domain ("3 models … left out (airline 2, retail 1)"). */
export function leftOutNote(left: readonly { domain: string }[], min: number): string | null {
  if (left.length === 0) return null;
  const per = [...groupBy(left, (r) => r.domain)].map(([d, l]) => `${d} ${l.length}`).join(", ");
  return `${left.length} model${left.length === 1 ? "" : "s"} with fewer than ${min} simulations in a domain left out (${per}); the flip-rate table lists every model`;
}

const ofComparison = (all: readonly FlipRateRow[], c: { comparison: string }) =>
  all.filter((r) => r.comparison === c.comparison);

export const flipRatesChart: PairedChartModule<FlipRateRow[]> = {
  name: "flip_rates_by_model",
  title: (c) => `Flip rate by model: ${comparisonLabel(c)}`,
  load: async (store) =>
    await rows<FlipRateRow>(store, "SELECT * FROM flip_rates_by_model ORDER BY comparison, domain, model"),
  note: (all, c, opts: ChartOptions) =>
    leftOutNote(
      splitByModelSize(ofComparison(all, c), opts.minModelSimulations).left,
      opts.minModelSimulations,
    ),
  build(all, c, opts: ChartOptions) {
    const min = opts.minModelSimulations;
    const every = ofComparison(all, c);
    const { shown: data, left } = splitByModelSize(every, min);
    if (data.length === 0) return null;
    const xMax = Math.min(
      1,
      Math.ceil(Math.max(...data.map((r) => Math.max(r.pass_to_fail_hi, r.fail_to_pass_hi))) * 10) / 10,
    );
    // The comparison's flips, of every model, drawn or not.
    const flips = every.reduce((n, r) => n + r.pass_to_fail + r.fail_to_pass, 0);
    const unreviewed = every.reduce((n, r) => n + r.unreviewed_flips, 0);
    const reviewed = flips - unreviewed > 0;
    const colors = reviewed ? SERIES : DIRECTION_COLORS;
    const panels = [...groupBy(data, (r) => r.domain)].map(([domain, models]) => ({
      title: panelTitle(domain),
      data: { values: models.flatMap((r) => longForm(r, reviewed)) },
      width: 420,
      height: bandHeight(models.length, reviewed ? 40 : 30),
      encoding: {
        y: {
          field: "label",
          type: "nominal",
          title: null,
          sort: "ascending",
          axis: { labelLimit: LABEL_LIMIT },
        },
        yOffset: { field: "direction", type: "nominal", sort: colors.domain },
        color: { field: "direction", type: "nominal", title: "flips", scale: colors },
      },
      layer: [
        {
          mark: { type: "rule", strokeWidth: 2 },
          encoding: {
            x: {
              field: "lo",
              type: "quantitative",
              title: "flip rate (Wilson 95% CI)",
              scale: { domain: [0, xMax] },
              axis: { format: "%" },
            },
            x2: { field: "hi" },
          },
        },
        {
          mark: { type: "point", filled: true, size: 50 },
          encoding: {
            x: { field: "rate", type: "quantitative" },
            tooltip: [
              { field: "model" },
              { field: "direction" },
              { field: "flips" },
              { field: "n" },
              { field: "rate", format: ".1%" },
            ],
          },
        },
      ],
    }));
    return topLevel(
      flipRatesChart.title(c),
      [
        `share of a model's simulations whose verdict changes from ${graderLabel(c.baseline)} to ${graderLabel(c.candidate)}; bars are Wilson 95% intervals`,
        reviewed
          ? `black: flips a reviewer confirmed; ${unreviewed} of ${flips} flips are unreviewed (excluded files left out)`
          : `no flip reviewed yet: all ${flips} flips are unreviewed (excluded files left out)`,
        ...(left.length === 0
          ? []
          : [
              `${left.length} model${left.length === 1 ? "" : "s"} with fewer than ${min} simulations left out`,
            ]),
      ],
      { vconcat: panels, resolve: { scale: { color: "shared" } } },
    );
  },
};
