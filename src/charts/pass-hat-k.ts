/**
 * pass^k curves under both sides of a comparison: one panel per (domain, task set), colour = model (and
 * run configuration, when a model ran under several: trials pool only within one), dash = grader.
 */
import { rows } from "../analysis/rows.ts";
import { groupBy } from "../util/group-by.ts";
import { graderLabel, type PairedChartModule, panelTitle, topLevel } from "./common.ts";

export interface PassHatKRow {
  domain: string;
  task_version: string;
  model: string;
  /** The user model, or the file when the configuration is not fully known (`sim_verdicts.run_config`). */
  run_config: string;
  grader: string;
  k: number;
  pass_hat_k: number;
  tasks: number;
}

/** Curves need k ≥ 2; keep the models that have one, unless no model does (then show the points). */
function withCurves(data: readonly PassHatKRow[]): PassHatKRow[] {
  const key = (r: PassHatKRow) => `${r.domain}\u0000${r.task_version}\u0000${r.model}\u0000${r.run_config}`;
  const multi = new Set(data.filter((r) => r.k >= 2).map(key));
  return multi.size === 0 ? [...data] : data.filter((r) => multi.has(key(r)));
}

export const passHatKChart: PairedChartModule<PassHatKRow[]> = {
  name: "pass_hat_k",
  title: (c) => `pass^k under ${graderLabel(c.baseline)} and ${graderLabel(c.candidate)}`,
  load: async (store) =>
    await rows<PassHatKRow>(
      store,
      `SELECT domain, task_version, model, run_config, grader, k, pass_hat_k, tasks FROM pass_hat_k
       WHERE grader IN (SELECT grader FROM compared_graders)
       ORDER BY domain, task_version, model, run_config, grader, k`,
    ),
  build(data, c) {
    const sides = [graderLabel(c.baseline), graderLabel(c.candidate)];
    const kept = withCurves(data.filter((r) => r.grader === c.baseline || r.grader === c.candidate));
    if (kept.length === 0) return null;
    const panels = [...groupBy(kept, (r) => `${r.domain} · ${r.task_version}`)].map(([key, g]) => {
      const kMax = Math.max(...g.map((r) => r.k));
      const configs = new Map<string, Set<string>>();
      for (const r of g) configs.set(r.model, (configs.get(r.model) ?? new Set()).add(r.run_config));
      const series = (r: PassHatKRow) =>
        (configs.get(r.model)?.size ?? 0) > 1 ? `${r.model} · ${r.run_config}` : r.model;
      return {
        title: panelTitle(key),
        data: {
          values: g.map((r) => ({ ...r, series: series(r), grader: graderLabel(r.grader) })),
        },
        width: 380,
        height: 220,
        mark: { type: "line", point: { filled: true, size: 40 } },
        encoding: {
          x: {
            field: "k",
            type: "quantitative",
            title: "k (trials)",
            scale: { domain: [1, Math.max(2, kMax)], nice: false },
            axis: { tickMinStep: 1, format: "d" },
          },
          y: {
            field: "pass_hat_k",
            type: "quantitative",
            title: "pass^k",
            scale: { domain: [0, 1] },
            axis: { format: "%" },
          },
          color: {
            field: "series",
            type: "nominal",
            title: "model",
            legend: { orient: "right", direction: "vertical" },
          },
          strokeDash: {
            field: "grader",
            type: "nominal",
            title: "grader",
            scale: {
              domain: sides,
              range: [
                [1, 0],
                [6, 4],
              ],
            },
            // Line dashes do not show in a legend next to the points; the subtitle names them.
            legend: null,
          },
          tooltip: [
            { field: "model" },
            { field: "run_config", title: "run configuration" },
            { field: "grader" },
            { field: "k" },
            { field: "pass_hat_k", format: ".1%" },
            { field: "tasks" },
          ],
        },
      };
    });
    return topLevel(
      passHatKChart.title(c),
      `unbiased pass^k per model (solid: ${sides[0]}, dashed: ${sides[1]}; one solid line = both agree); models with two or more trials per task`,
      { vconcat: panels, resolve: { scale: { color: "independent" }, legend: { color: "independent" } } },
    );
  },
};
