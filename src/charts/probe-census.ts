/**
 * The blind-spot census: per probe kind, the share of probe tasks each grader passes. Probes are built
 * to be wrong, so a grader that passes them has a blind spot. The `probe_census` relation is added
 * by the probes work; the chart is skipped while it does not exist.
 */
import { rows } from "../analysis/report.ts";
import {
  bandHeight,
  type ChartModule,
  graderColors,
  groupBy,
  panelTitle,
  relationExists,
  topLevel,
} from "./common.ts";

export interface ProbeCensusRow {
  domain: string;
  task_version: string;
  kind: string;
  tasks: number;
  tau3_pass: number;
  structured_pass: number;
}

export const probeCensusChart: ChartModule<ProbeCensusRow[] | null> = {
  name: "probe_census",
  title: "Blind-spot census",
  async load(store) {
    if (!(await relationExists(store, "probe_census"))) return null;
    return await rows<ProbeCensusRow>(
      store,
      "SELECT domain, task_version, kind, tasks, tau3_pass, structured_pass FROM probe_census ORDER BY domain, task_version, kind",
    );
  },
  build(data) {
    if (data === null || data.length === 0) return null;
    const panels = [...groupBy(data, (r) => `${r.domain} · ${r.task_version}`)].map(([key, g]) => ({
      title: panelTitle(key),
      data: {
        values: g.flatMap((r) => [
          { kind: r.kind, grader: "τ³", passed: Number(r.tau3_pass), tasks: Number(r.tasks) },
          { kind: r.kind, grader: "structured", passed: Number(r.structured_pass), tasks: Number(r.tasks) },
        ]),
      },
      transform: [{ calculate: "datum.tasks > 0 ? datum.passed / datum.tasks : 0", as: "share" }],
      width: 380,
      height: bandHeight(g.length, 34),
      encoding: {
        y: { field: "kind", type: "nominal", title: "probe kind" },
        yOffset: { field: "grader", type: "nominal", sort: graderColors(["tau3", "structured"]).domain },
      },
      layer: [
        {
          mark: { type: "bar" },
          encoding: {
            x: {
              field: "share",
              type: "quantitative",
              title: "share of probe tasks passed",
              scale: { domain: [0, 1] },
              axis: { format: "%" },
            },
            color: {
              field: "grader",
              type: "nominal",
              title: "grader",
              scale: graderColors(["tau3", "structured"]),
            },
            tooltip: [{ field: "kind" }, { field: "grader" }, { field: "passed" }, { field: "tasks" }],
          },
        },
        {
          mark: { type: "text", align: "left", dx: 4, fontSize: 10 },
          encoding: {
            x: { field: "share", type: "quantitative" },
            text: { field: "passed", type: "quantitative", format: "d" },
          },
        },
      ],
    }));
    return topLevel(
      "Blind-spot census",
      "share of synthetic probe tasks each grader passes: gold and extra-read should pass; null-agent, forbidden-write and transfer probes should not",
      { vconcat: panels, resolve: { scale: { color: "shared" } } },
    );
  },
};
