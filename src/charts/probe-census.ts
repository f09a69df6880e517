/**
 * The blind-spot census: per probe kind, the share of probe tasks each grader passes. Probes are built
 * to be wrong, so a grader that passes them has a blind spot. The `probe_census` table is written by
 * `probe --census --db`; the chart is skipped while it does not exist.
 */
import { rows } from "../analysis/rows.ts";
import { graderOf, isGraderId } from "../graders/registry.ts";
import { groupBy } from "../util/group-by.ts";
import { bandHeight, type ChartModule, panelTitle, relationExists, topLevel } from "./common.ts";

export interface ProbeCensusRow {
  domain: string;
  task_version: string;
  kind: string;
  grader: string;
  tasks: number;
  pass: number;
  /** Verdicts left unknown (no judge for an NL assertion in the basis): neither a pass nor a failure. */
  unknown: number;
}

/** Each grader's probe tasks as passed, failed and unknown: unknown is its own category, never a failure. */
const OUTCOMES = { domain: ["passed", "failed", "unknown"], range: ["#4c78a8", "#d9d9d9", "#f2a93b"] };

const graderLabel = (id: string): string => (isGraderId(id) ? graderOf(id).label : id);

function outcomes(r: ProbeCensusRow) {
  const grader = graderLabel(r.grader);
  return (
    [
      ["passed", r.pass],
      ["failed", r.tasks - r.pass - r.unknown],
      ["unknown", r.unknown],
    ] as const
  ).map(([outcome, n], order) => ({
    row: `${r.kind} · ${grader}`,
    kind: r.kind,
    grader,
    outcome,
    order,
    n,
    tasks: r.tasks,
    share: r.tasks > 0 ? n / r.tasks : 0,
  }));
}

/**
 * The rows of a table written before the census had a row per grader: one column of passes per grader
 * (`<grader>_pass`) and, later, of unknown verdicts (`<grader>_unknown`; none unknown before that).
 */
function perGraderRows(r: Record<string, unknown>): ProbeCensusRow[] {
  return Object.keys(r).flatMap((column) => {
    const grader = /^(.+)_pass$/.exec(column)?.[1];
    if (grader === undefined) return [];
    return [
      {
        domain: String(r.domain),
        task_version: String(r.task_version),
        kind: String(r.kind),
        grader,
        tasks: Number(r.tasks),
        pass: Number(r[column]),
        unknown: Number(r[`${grader}_unknown`] ?? 0),
      },
    ];
  });
}

export const probeCensusChart: ChartModule<ProbeCensusRow[] | null> = {
  name: "probe_census",
  title: "Blind-spot census",
  async load(store) {
    if (!(await relationExists(store, "probe_census"))) return null;
    const found = await rows<Record<string, unknown>>(
      store,
      "SELECT * FROM probe_census ORDER BY domain, task_version, kind, rowid",
    );
    // Rows in the order the census wrote them (graders in registry order), whatever the layout.
    return found.flatMap((r) =>
      "grader" in r
        ? [
            {
              domain: String(r.domain),
              task_version: String(r.task_version),
              kind: String(r.kind),
              grader: String(r.grader),
              tasks: Number(r.tasks),
              pass: Number(r.pass),
              unknown: Number(r.unknown),
            },
          ]
        : perGraderRows(r),
    );
  },
  build(data) {
    if (data === null || data.length === 0) return null;
    const panels = [...groupBy(data, (r) => `${r.domain} · ${r.task_version}`)].map(([key, g]) => ({
      title: panelTitle(key),
      data: { values: g.flatMap(outcomes).filter((v) => v.n > 0) },
      width: 380,
      height: bandHeight(g.length, 20),
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
