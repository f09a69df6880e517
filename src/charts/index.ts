/** Every chart of the report: built from the analysis views, saved as `.vl.json`, `.svg` and `.png`. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { VerdictStore } from "../store/store.ts";
import { actionsChart } from "./actions.ts";
import type { ChartDef, ChartModule } from "./common.ts";
import { flipRatesChart } from "./flip-rates.ts";
import { flipsByCauseChart } from "./flips-by-cause.ts";
import { passHatKChart } from "./pass-hat-k.ts";
import { probeCensusChart } from "./probe-census.ts";
import { rankSlopeChart } from "./rank-slope.ts";
import { renderPng, renderSvg } from "./render.ts";
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

/** Writes `charts/<name>.vl.json|svg|png` under `dir` and returns the SVGs for inlining. */
export async function writeCharts(dir: string, charts: readonly ChartDef[]): Promise<RenderedChart[]> {
  const chartDir = join(dir, "charts");
  mkdirSync(chartDir, { recursive: true });
  const out: RenderedChart[] = [];
  for (const c of charts) {
    const { svg, warnings } = sanitizeSvg(await renderSvg(c.spec));
    const files = {
      spec: `charts/${c.name}.vl.json`,
      svg: `charts/${c.name}.svg`,
      png: `charts/${c.name}.png`,
    };
    writeFileSync(join(dir, files.spec), `${JSON.stringify(c.spec, null, 1)}\n`);
    writeFileSync(join(dir, files.svg), svg);
    writeFileSync(join(dir, files.png), renderPng(svg).data);
    out.push({ ...c, svg, warnings, files });
  }
  return out;
}
