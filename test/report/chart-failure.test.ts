/**
 * A chart that fails to draw never stops the report: vega refusing its spec, or resvg its SVG, leaves a
 * placeholder with the reason where the chart would be (report.html, report.md), and a warning counted in
 * summary.json and on stderr. The failing charts are added to the store's own through a mock.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Summary } from "../../src/analysis/summary.ts";
import type { ChartDef, ChartOptions } from "../../src/charts/index.ts";
import { registerReportCommand } from "../../src/cli/commands/report.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { syntheticStore } from "../analysis/synthetic-store.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { writeHtmlReport } from "../helpers/html-report.ts";

const FAILING: ChartDef[] = [
  // vega-lite refuses a mark it does not know
  {
    name: "bad_spec",
    title: "Bad spec",
    comparison: null,
    spec: { data: { values: [] }, mark: "nope" } as never,
  },
  // vega draws a 0 × 0 chart, which resvg refuses
  {
    name: "no_size",
    title: "No size",
    comparison: null,
    spec: { data: { values: [] }, mark: "point", width: 0, height: 0, padding: 0, autosize: "none" },
  },
];

vi.mock("../../src/charts/index.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/charts/index.ts")>();
  return {
    ...real,
    buildCharts: async (store: VerdictStore, opts?: ChartOptions) => [
      ...(await real.buildCharts(store, opts)),
      ...FAILING,
    ],
  };
});

let store: VerdictStore;
let out = "";
let summary: Summary;

beforeAll(async () => {
  store = await syntheticStore(
    ["a", "b"].flatMap((model) =>
      ["1", "2", "3"].map((task, t) => ({ model, task, tau3: true, structured: t !== 0 })),
    ),
    { minTaskCoverage: 0.5, bootstrapSamples: 20 },
  );
  out = join(mkdtempSync(join(tmpdir(), "tr-chartfail-")), "report");
  ({ summary } = await writeHtmlReport(store, out));
}, 60_000);
afterAll(() => store?.close());

describe("a chart that fails to draw", () => {
  it("leaves the report complete, the other charts drawn", () => {
    for (const f of [
      "report.html",
      "report.md",
      "summary.json",
      "charts/flip_rates_by_model--tau3-vs-structured.png",
    ])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect(existsSync(join(out, "charts/bad_spec.svg"))).toBe(false);
    expect(existsSync(join(out, "charts/no_size.svg"))).toBe(true);
    expect(existsSync(join(out, "charts/no_size.png"))).toBe(false);
  });

  it("is counted in summary.json with its reason", () => {
    const written = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Summary;
    expect(written.warnings).toEqual(summary.warnings);
    expect(written.warnings).toHaveLength(2);
    expect(written.warnings?.[0]).toMatch(/^chart bad_spec: not drawn: \S/);
    expect(written.warnings?.[1]).toMatch(/^chart no_size: PNG not drawn: resvg: .*size/);
  });

  it("shows a placeholder with the reason in report.html and report.md", () => {
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(page).toContain("2 chart warning(s):");
    expect(page).toMatch(
      /<figure id="chart-bad_spec">[^<]*<figcaption>[\s\S]*?<\/figcaption>\n<p class="unknown">Chart not drawn: [^<]+<\/p>\n<\/figure>/,
    );
    expect(page).toMatch(
      /<figure id="chart-no_size">[\s\S]*?PNG not drawn: resvg: [\s\S]*?<img src="charts\/no_size.svg"/,
    );
    expect(page).not.toContain('href="charts/bad_spec.svg"');
    expect(page).not.toContain('href="charts/no_size.png"');
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("2 chart warning(s):");
    expect(md).toMatch(
      /^- Bad spec: not drawn \(.+\) \(\[vega-lite spec\]\(charts\/bad_spec\.vl\.json\)\)$/m,
    );
    expect(md).toMatch(/^- \[No size\]\(charts\/no_size\.svg\): PNG not drawn \(resvg: .*\)/m);
  });

  it("is written on stderr by `report`, which exits 0", async () => {
    store.close();
    const r = await runInProcess(registerReportCommand, [
      "report",
      "--db",
      store.path,
      "--out",
      join(out, "..", "again"),
      "--html",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const text = r.stderr;
    expect(text).toMatch(/^tau-rescore: warning: chart bad_spec: not drawn: /m);
    expect(text).toMatch(/^tau-rescore: warning: chart no_size: PNG not drawn: /m);
    expect(text).toContain("; 2 warning(s), in summary.json");
  });
});
