/**
 * The blind-spot census: per probe kind, the share of probe tasks each grader passes. Probes are built
 * to be wrong, so a grader that passes them has a blind spot. The `probe_census` relation is added
 * by the probes work; the chart is skipped while it does not exist.
 */
import { rows } from "../analysis/report.ts";
import { groupBy } from "../util/group-by.ts";
import { bandHeight, type ChartModule, panelTitle, relationExists, topLevel } from "./common.ts";

export interface ProbeCensusRow {
  domain: string;
  task_version: string;
  kind: string;
  tasks: number;
  tau3_pass: number;
  structured_pass: number;
  /** Verdicts left unknown (no judge for an NL assertion in the basis): neither a pass nor a failure. */
  tau3_unknown: number;
  structured_unknown: number;
}

/** Each grader's probe tasks as passed, failed and unknown: unknown is its own category, never a failure. */
const OUTCOMES = { domain: ["passed", "failed", "unknown"], range: ["#4c78a8", "#d9d9d9", "#f2a93b"] };

function outcomes(r: ProbeCensusRow) {
  const tasks = Number(r.tasks);
  return (
    [
      ["τ³", Number(r.tau3_pass), Number(r.tau3_unknown)],
      ["structured", Number(r.structured_pass), Number(r.structured_unknown)],
    ] as const
  ).flatMap(([grader, passed, unknown]) =>
    (
      [
        ["passed", passed],
        ["failed", tasks - passed - unknown],
        ["unknown", unknown],
      ] as const
    ).map(([outcome, n], order) => ({
      row: `${r.kind} · ${grader}`,
      kind: r.kind,
      grader,
      outcome,
      order,
      n,
      tasks,
      share: tasks > 0 ? n / tasks : 0,
    })),
  );
}

export const probeCensusChart: ChartModule<ProbeCensusRow[] | null> = {
  name: "probe_census",
  title: "Blind-spot census",
  async load(store) {
    if (!(await relationExists(store, "probe_census"))) return null;
    // A table written before the unknown counts were kept reads as none unknown.
    const found = await rows<Record<string, unknown>>(
      store,
      "SELECT * FROM probe_census ORDER BY domain, task_version, kind",
    );
    return found.map((r) => ({
      domain: String(r.domain),
      task_version: String(r.task_version),
      kind: String(r.kind),
      tasks: Number(r.tasks),
      tau3_pass: Number(r.tau3_pass),
      structured_pass: Number(r.structured_pass),
      tau3_unknown: Number(r.tau3_unknown ?? 0),
      structured_unknown: Number(r.structured_unknown ?? 0),
    }));
  },
  build(data) {
    if (data === null || data.length === 0) return null;
    const panels = [...groupBy(data, (r) => `${r.domain} · ${r.task_version}`)].map(([key, g]) => ({
      title: panelTitle(key),
      data: { values: g.flatMap(outcomes).filter((v) => v.n > 0) },
      width: 380,
      height: bandHeight(g.length * 2, 20),
      layer: [
        {
          mark: { type: "bar" },
          encoding: {
            y: { field: "row", type: "nominal", title: "probe kind · grader", sort: null },
            x: {
              field: "share",
              type: "quantitative",
              title: "share of probe tasks",
              scale: { domain: [0, 1] },
              axis: { format: "%" },
              stack: "zero",
            },
            color: { field: "outcome", type: "nominal", title: "verdict", scale: OUTCOMES },
            order: { field: "order", type: "quantitative" },
            tooltip: [
              { field: "kind" },
              { field: "grader" },
              { field: "outcome" },
              { field: "n", title: "tasks with this verdict" },
              { field: "tasks" },
            ],
          },
        },
        {
          transform: [{ filter: "datum.outcome === 'passed'" }],
          mark: { type: "text", align: "left", dx: 4, fontSize: 10 },
          encoding: {
            y: { field: "row", type: "nominal", sort: null },
            x: { field: "share", type: "quantitative" },
            text: { field: "n", type: "quantitative", format: "d" },
          },
        },
      ],
    }));
    return topLevel(
      "Blind-spot census",
      [
        "share of synthetic probe tasks each grader passes: gold and extra-read should pass; null-agent, forbidden-write and transfer probes should not",
        "unknown (an NL assertion in the basis and no judge) is its own category, not a failure",
      ],
      { vconcat: panels, resolve: { scale: { color: "shared" } } },
    );
  },
};
