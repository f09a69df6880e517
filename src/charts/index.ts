/** Every chart of the report: built from the analysis views, saved as `.vl.json`, `.svg` and `.png`. */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { type ComparisonRef, runComparisons } from "../analysis/run.ts";
import type { VerdictStore } from "../store/store.ts";
import { visibleText } from "../util/visible-text.ts";
import { actionsChart } from "./actions.ts";
import {
  type ChartDef,
  type ChartModule,
  type ChartOptions,
  DEFAULT_CHART_OPTIONS,
  type PairedChartModule,
  pairedChartName,
} from "./common.ts";
import { flipRatesChart } from "./flip-rates.ts";
import { flipsByCauseChart } from "./flips-by-cause.ts";
import { noiseChart } from "./noise.ts";
import { passHatKChart } from "./pass-hat-k.ts";
import { probeCensusChart } from "./probe-census.ts";
import { rankSlopeChart } from "./rank-slope.ts";
import { pngThreads, renderSvg } from "./render.ts";
import { sanitizeSvg } from "./svg-safety.ts";

export type { ChartDef, ChartOptions } from "./common.ts";

// Each module has its own data type; the lists only need load → build to line up per module.
/** Drawn once per comparison. */
const PAIRED: readonly PairedChartModule<never>[] = [
  flipRatesChart,
  rankSlopeChart,
  flipsByCauseChart,
  actionsChart,
  passHatKChart,
  noiseChart,
] as unknown as readonly PairedChartModule<never>[];
/** About the run as a whole. */
const SINGLE: readonly ChartModule<never>[] = [probeCensusChart] as unknown as readonly ChartModule<never>[];

/**
 * The charts that have data in this store (the analysis views must be installed): each comparison's
 * paired charts, in the experiment's order (the headline first), then the others.
 */
export async function buildCharts(
  store: VerdictStore,
  opts: ChartOptions = DEFAULT_CHART_OPTIONS,
): Promise<ChartDef[]> {
  const comparisons: readonly ComparisonRef[] = await runComparisons(store);
  const out: ChartDef[] = [];
  const loaded = [];
  for (const m of PAIRED) loaded.push({ m, data: await m.load(store) });
  for (const c of comparisons)
    for (const { m, data } of loaded) {
      const spec = m.build(data, c, opts);
      if (spec !== null)
        out.push({
          name: pairedChartName(m.name, c.comparison),
          title: m.title(c),
          comparison: c.comparison,
          spec,
          note: m.note?.(data, c, opts) ?? null,
        });
    }
  for (const m of SINGLE) {
    const spec = m.build(await m.load(store));
    if (spec !== null) out.push({ name: m.name, title: m.title, comparison: null, spec });
  }
  return out;
}

export interface RenderedChart extends ChartDef {
  /** The SVG to inline; empty when vega failed (see `failure`). */
  readonly svg: string;
  /** What `sanitizeSvg` removed from vega's SVG (normally nothing). */
  readonly warnings: readonly string[];
  /**
   * Why the chart was not drawn: at `vega` (no SVG and no PNG file) or at `png` (the SVG is there); null
   * when it was. A failed chart never stops the report: the pages show the reason in its place.
   */
  readonly failure: { readonly stage: "vega" | "png"; readonly reason: string } | null;
  /** File names relative to the report folder. */
  readonly files: { readonly spec: string; readonly svg: string; readonly png: string };
}

/** Every string of a spec through `visibleText`: chart text comes from the corpus (model names, task ids). */
function visibleSpec<T>(v: T): T {
  if (typeof v === "string") return visibleText(v) as T;
  if (Array.isArray(v)) return v.map(visibleSpec) as T;
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visibleSpec(x)])) as T;
  return v;
}

/** One line per chart warning: what `sanitizeSvg` removed, and each chart or PNG not drawn. */
export function chartWarnings(charts: readonly RenderedChart[]): string[] {
  return charts.flatMap((c) => [
    ...c.warnings.map((w) => `chart ${c.name}: ${w}`),
    ...(c.failure === null
      ? []
      : [
          `chart ${c.name}: ${c.failure.stage === "vega" ? "not drawn" : "PNG not drawn"}: ${c.failure.reason}`,
        ]),
  ]);
}

/**
 * Threads for the PNGs. Two even on two cores, beside vega on this thread: resvg re-reads the font file
 * for each glyph, so it waits on memory, and a second thread measured 0.5 s faster than one.
 */
const PNG_THREADS = Math.min(2, availableParallelism());

export interface WrittenCharts {
  /** As laid out by vega; a PNG that then fails is only in `pngs`'s charts. */
  readonly charts: readonly RenderedChart[];
  /**
   * The charts once every PNG is written or has failed (`failure`): they are drawn on other threads,
   * while this one goes on. Rejects only when a file cannot be written.
   */
  readonly pngs: Promise<readonly RenderedChart[]>;
}

const reason = (e: unknown): string => visibleText(e instanceof Error ? e.message : String(e));

/**
 * Writes `charts/<name>.vl.json|svg|png` under `dir` and returns the SVGs for inlining. Vega lays out
 * the charts here, one after another, while other threads draw the PNGs of those already laid out.
 */
export async function writeCharts(dir: string, charts: readonly ChartDef[]): Promise<WrittenCharts> {
  const chartDir = join(dir, "charts");
  mkdirSync(chartDir, { recursive: true });
  const threads = pngThreads(PNG_THREADS);
  const out: RenderedChart[] = [];
  const written: Promise<RenderedChart>[] = []; // by chart, as `out`
  try {
    // Largest spec first: its PNG takes longest, and then does not hold up the end.
    const size = charts.map((c) => JSON.stringify(c.spec).length);
    const order = charts.map((_, i) => i).sort((a, b) => size[b]! - size[a]!);
    for (const i of order) {
      // vega draws a chart without yielding to the event loop: between charts, a signal's handler runs.
      await new Promise((next) => setImmediate(next));
      const c = { ...charts[i]!, spec: visibleSpec(charts[i]!.spec) };
      const files = {
        spec: `charts/${c.name}.vl.json`,
        svg: `charts/${c.name}.svg`,
        png: `charts/${c.name}.png`,
      };
      writeFileSync(join(dir, files.spec), `${JSON.stringify(c.spec, null, 1)}\n`);
      let drawn: { svg: string; warnings: readonly string[] };
      try {
        drawn = sanitizeSvg(await renderSvg(c.spec));
      } catch (e) {
        out[i] = { ...c, svg: "", warnings: [], failure: { stage: "vega", reason: reason(e) }, files };
        written[i] = Promise.resolve(out[i]!);
        continue;
      }
      writeFileSync(join(dir, files.svg), drawn.svg);
      const chart: RenderedChart = { ...c, ...drawn, failure: null, files };
      const png = threads.render(drawn.svg).then(
        (p) => {
          writeFileSync(join(dir, files.png), p.data);
          return chart;
        },
        (e): RenderedChart => ({ ...chart, failure: { stage: "png", reason: reason(e) } }),
      );
      png.catch(() => {}); // awaited through `pngs`; a failure must not count as unhandled meanwhile
      written[i] = png;
      out[i] = chart;
    }
  } catch (e) {
    await threads.close();
    throw e;
  }
  const pngs = Promise.all(written).then(
    async (done) => {
      await threads.close();
      return done;
    },
    async (e) => {
      await threads.close();
      throw e;
    },
  );
  pngs.catch(() => {}); // the caller awaits it, maybe after other work
  return { charts: out, pngs };
}
