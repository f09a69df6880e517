/**
 * What every chart shares: the font (DejaVu Sans, shipped as TTF files so PNGs render the same on a
 * bare machine), labels for graders and flip directions, and the top-level wrapper with explicit
 * padding so axis titles and long model names are never clipped.
 */
import type { TopLevelSpec } from "vega-lite";
import type { ComparisonRef } from "../analysis/run.ts";
import { RECORDED } from "../graders/comparisons.ts";
import { graderOf, isGraderId } from "../graders/registry.ts";
import type { VerdictStore } from "../store/store.ts";

export const CHART_FONT = "DejaVu Sans";

/**
 * A chart ready to save: `<name>.vl.json` opens as is in the Vega editor (data inlined). A paired chart
 * is drawn per comparison and named `<chart>--<comparison>`.
 */
export interface ChartDef {
  readonly name: string;
  readonly title: string;
  /** The comparison a paired chart shows; null for a chart about the run as a whole. */
  readonly comparison: string | null;
  readonly spec: TopLevelSpec;
  /** What the chart leaves out, for its caption ("3 models with fewer than 20 simulations left out"). */
  readonly note?: string | null;
}

/** How the report draws its charts (an experiment's `report` settings). */
export interface ChartOptions {
  /** A model with fewer simulations than this in a domain is left out of the rate charts by model. */
  readonly minModelSimulations: number;
}

/** Enough simulations that a model's rate interval says something (`report.min_model_simulations`). */
export const DEFAULT_MIN_MODEL_SIMULATIONS = 20;
export const DEFAULT_CHART_OPTIONS: ChartOptions = { minModelSimulations: DEFAULT_MIN_MODEL_SIMULATIONS };

/** One chart module: reads its rows from the store, then builds a spec (null when there is no data). */
export interface ChartModule<D> {
  readonly name: string;
  readonly title: string;
  load(store: VerdictStore): Promise<D>;
  build(data: D): TopLevelSpec | null;
}

/**
 * A chart of one comparison: `load` reads the rows of every comparison at once (one scan per view),
 * `build` draws one comparison's.
 */
export interface PairedChartModule<D> {
  readonly name: string;
  title(c: ComparisonRef): string;
  load(store: VerdictStore): Promise<D>;
  build(data: D, c: ComparisonRef, opts: ChartOptions): TopLevelSpec | null;
  /** What the drawn chart leaves out, for its caption (null: nothing). */
  note?(data: D, c: ComparisonRef, opts: ChartOptions): string | null;
}

/** A grader as a reader knows it: its registry label, or the recorded reward. */
export const graderLabel = (id: string): string =>
  isGraderId(id) ? graderOf(id).label : id === RECORDED ? "recorded reward" : id;

/** "τ³ → structured": a comparison's two sides, baseline first. */
export const comparisonLabel = (c: { baseline: string; candidate: string }): string =>
  `${graderLabel(c.baseline)} → ${graderLabel(c.candidate)}`;

/** A paired chart's file and anchor name. */
export const pairedChartName = (chart: string, comparison: string): string => `${chart}--${comparison}`;
export const DIRECTION_LABEL: Record<string, string> = {
  pass_to_fail: "pass → fail",
  fail_to_pass: "fail → pass",
};
export const DIRECTION_COLORS = { domain: ["pass → fail", "fail → pass"], range: ["#d62728", "#2ca02c"] };

/** Long model names ("gemini/gemini-2.5-flash [enhanced_agent]") must fit next to the axis. */
export const LABEL_LIMIT = 560;

const CONFIG = {
  font: CHART_FONT,
  // No ARIA label per mark: the page's tables hold every number, and the labels tripled the SVGs' size.
  aria: false,
  background: "white",
  title: { fontSize: 15, anchor: "start", offset: 10, subtitleFontSize: 11, subtitleColor: "#555" },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: LABEL_LIMIT, titlePadding: 8 },
  legend: {
    labelFontSize: 11,
    titleFontSize: 12,
    labelLimit: LABEL_LIMIT,
    orient: "bottom",
    direction: "horizontal",
  },
  header: { labelFontSize: 12, titleFontSize: 12 },
  view: { stroke: "#ddd" },
  concat: { spacing: 28 },
} as const;

/** Wraps a spec body with the schema, shared config, title and padding. */
export function topLevel(
  title: string,
  subtitle: string | readonly string[],
  body: Record<string, unknown>,
): TopLevelSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: { text: title, subtitle },
    padding: 16,
    autosize: { type: "pad", contains: "padding" },
    config: CONFIG,
    ...body,
  } as TopLevelSpec;
}

/** Pixels per category on a band axis, so panels grow with their number of rows. */
export const bandHeight = (categories: number, step = 22): number => Math.max(60, categories * step);

export async function relationExists(store: VerdictStore, name: string): Promise<boolean> {
  const reader = await store.conn.runAndReadAll(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = $1",
    [name],
  );
  return Number(reader.getRowObjectsJS()[0]?.n ?? 0) > 0;
}

/** A panel's title, aligned with its plot area so stacked panels line up whatever their label widths. */
export const panelTitle = (text: string) =>
  ({ text, anchor: "start", frame: "group", fontSize: 13 }) as const;
