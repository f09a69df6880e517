/**
 * Each run configuration's pass rate under the comparison's two graders, with the spread of one run's
 * pass rate under re-running the agent (trials resampled within tasks): where the grader's two points
 * sit farther apart than the bars, changing the grader moved the score more than re-running would.
 * Only configurations with repeated runs outside excluded files are drawn; the table lists every one.
 */
import { rows } from "../analysis/rows.ts";
import {
  bandHeight,
  comparisonLabel,
  graderLabel,
  LABEL_LIMIT,
  type PairedChartModule,
  topLevel,
} from "./common.ts";

export interface NoiseRow {
  configuration: string;
  model: string;
  grader: string;
  pass_rate: number;
  pass_rate_lo: number;
  pass_rate_hi: number;
}

/** The ranking entry's name and the configuration's domain and task set (the whole configuration is in the tooltip). */
const shortLabel = (r: NoiseRow): string => {
  const parts = r.configuration.split(" · ");
  return parts.length < 3 ? r.configuration : `${r.model} · ${parts.at(-1)}`;
};

export const noiseChart: PairedChartModule<NoiseRow[]> = {
  name: "grader_effect_vs_noise",
  title: (c) => `Pass rate under each grader beside re-running the agent: ${comparisonLabel(c)}`,
  load: async (store) =>
    await rows<NoiseRow>(
      store,
      `SELECT configuration, model, grader, pass_rate, pass_rate_lo, pass_rate_hi FROM noise_by_configuration
       WHERE NOT excluded AND pairs > 0 ORDER BY configuration, grader`,
    ),
  build(all, c) {
    const data = all
      .filter((r) => r.grader === c.baseline || r.grader === c.candidate)
      .map((r) => ({ ...r, side: graderLabel(r.grader), label: shortLabel(r) }));
    const configurations = new Set(data.map((r) => r.configuration));
    if (configurations.size === 0) return null;
    const sides = [graderLabel(c.baseline), graderLabel(c.candidate)];
    return topLevel(
      noiseChart.title(c),
      [
        "points: each configuration's pass rate; bars: 95% of one run's pass rate when the agent is re-run (its trials resampled within tasks)",
        "configurations with repeated runs outside excluded files; the table lists every configuration",
      ],
      {
        data: { values: data },
        width: 420,
        height: bandHeight(configurations.size, 30),
        encoding: {
          y: {
            field: "label",
            type: "nominal",
            title: null,
            sort: "ascending",
            axis: { labelLimit: LABEL_LIMIT },
          },
          yOffset: { field: "side", type: "nominal", sort: sides },
          color: { field: "side", type: "nominal", title: "grader", sort: sides },
        },
        layer: [
          {
            mark: { type: "rule", strokeWidth: 2 },
            encoding: {
              x: {
                field: "pass_rate_lo",
                type: "quantitative",
                title: "pass rate (95% of re-runs)",
                scale: { domain: [0, 1] },
                axis: { format: "%" },
              },
              x2: { field: "pass_rate_hi" },
            },
          },
          {
            mark: { type: "point", filled: true, size: 50 },
            encoding: {
              x: { field: "pass_rate", type: "quantitative" },
              tooltip: [
                { field: "configuration" },
                { field: "side", title: "grader" },
                { field: "pass_rate", format: ".1%" },
                { field: "pass_rate_lo", format: ".1%" },
                { field: "pass_rate_hi", format: ".1%" },
              ],
            },
          },
        ],
      },
    );
  },
};
