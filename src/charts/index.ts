/** Every chart of the report: built from the analysis views, saved as `.vl.json`, `.svg` and `.png`. */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { VerdictStore } from "../store/store.ts";
import { actionsChart } from "./actions.ts";
import type { ChartDef, ChartModule } from "./common.ts";
import { flipRatesChart } from "./flip-rates.ts";
import { flipsByCauseChart } from "./flips-by-cause.ts";
import { passHatKChart } from "./pass-hat-k.ts";
import { probeCensusChart } from "./probe-census.ts";
import { rankSlopeChart } from "./rank-slope.ts";
import { pngThreads, renderSvg } from "./render.ts";
import { sanitizeSvg } from "./svg-safety.ts";

export type { ChartDef } from "./common.ts";

// Each module has its own data type; the list only needs load → build to line up per module.
const CHARTS: readonly ChartModule<never>[] = [
  flipRatesChart,
  rankSlopeChart,
  flipsByCauseChart,
  actionsChart,
  passHatKChart,
  probeCensusChart,
] as unknown as readonly ChartModule<never>[];

/** The charts that have data in this store (the analysis views must be installed). */
export async function buildCharts(store: VerdictStore): Promise<ChartDef[]> {
  const out: ChartDef[] = [];
  for (const m of CHARTS) {
    const spec = m.build(await m.load(store));
    if (spec !== null) out.push({ name: m.name, title: m.title, spec });
  }
  return out;
}

export interface RenderedChart extends ChartDef {
  readonly svg: string;
  /** What `sanitizeSvg` removed from vega's SVG (normally nothing). */
  readonly warnings: readonly string[];
  /** File names relative to the report folder. */
  readonly files: { readonly spec: string; readonly svg: string; readonly png: string };
}

/**
 * Threads for the PNGs. Two even on two cores, beside vega on this thread: resvg re-reads the font file
 * for each glyph, so it waits on memory, and a second thread measured 0.5 s faster than one.
 */
const PNG_THREADS = Math.min(2, availableParallelism());

export interface WrittenCharts {
  readonly charts: readonly RenderedChart[];
  /** Settles once every PNG is written: they are drawn on other threads, while this one goes on. */
  readonly pngs: Promise<void>;
}

/**
 * Writes `charts/<name>.vl.json|svg|png` under `dir` and returns the SVGs for inlining. Vega lays out
 * the charts here, one after another, while other threads draw the PNGs of those already laid out.
 */
export async function writeCharts(dir: string, charts: readonly ChartDef[]): Promise<WrittenCharts> {
  const chartDir = join(dir, "charts");
  mkdirSync(chartDir, { recursive: true });
  const threads = pngThreads(PNG_THREADS);
  const out: RenderedChart[] = [];
  const written: Promise<void>[] = [];
  try {
    // Largest spec first: its PNG takes longest, and then does not hold up the end.
    const size = charts.map((c) => JSON.stringify(c.spec).length);
    const order = charts.map((_, i) => i).sort((a, b) => size[b]! - size[a]!);
    for (const i of order) {
      const c = charts[i]!;
      const { svg, warnings } = sanitizeSvg(await renderSvg(c.spec));
      const files = {
        spec: `charts/${c.name}.vl.json`,
        svg: `charts/${c.name}.svg`,
        png: `charts/${c.name}.png`,
      };
      writeFileSync(join(dir, files.spec), `${JSON.stringify(c.spec, null, 1)}\n`);
      writeFileSync(join(dir, files.svg), svg);
      const png = threads.render(svg).then((p) => writeFileSync(join(dir, files.png), p.data));
      png.catch(() => {}); // awaited through `pngs`; a failure must not count as unhandled meanwhile
      written.push(png);
      out[i] = { ...c, svg, warnings, files };
    }
  } catch (e) {
    await threads.close();
    throw e;
  }
  const pngs = Promise.all(written).then(
    () => threads.close(),
    async (e) => {
      await threads.close();
      throw e;
    },
  );
  pngs.catch(() => {}); // the caller awaits it, maybe after other work
  return { charts: out, pngs };
}
