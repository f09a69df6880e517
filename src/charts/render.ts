/**
 * vega-lite → vega → SVG (headless, no canvas) → PNG (resvg). resvg gets the DejaVu TTF files and no
 * system fonts, so the PNGs are identical, and legible, on a machine without any fonts installed.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { Resvg, type ResvgRenderOptions } from "@resvg/resvg-js";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";
import { CHART_FONT } from "./common.ts";
import { loadFont, textWidth } from "./font-metrics.ts";

const fontDir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
export const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"].map((f) =>
  join(fontDir, f),
);

const [regular, bold] = [loadFont(FONT_FILES[0]!), loadFont(FONT_FILES[1]!)];

interface TextItem {
  fontSize?: number;
  fontWeight?: string | number;
}
interface TextMetrics {
  width: (item: TextItem, text: string) => number;
}

// vega's text measurement is a module-level hook (untyped); vl-convert replaces it the same way.
(vega as unknown as { textMetrics: TextMetrics }).textMetrics.width = (item, text) => {
  const weight = item.fontWeight;
  const isBold = weight === "bold" || (typeof weight === "number" && weight >= 600);
  return textWidth(isBold ? bold : regular, String(text ?? ""), item.fontSize ?? 11);
};

/** vega-lite's warnings (e.g. an encoding it ignores); they mean a chart is not what its code says. */
export class ChartWarnings extends RescoreError {
  override readonly code = "chart_warnings";
  override readonly exitStatus = EXIT_INTERNAL;

  override readonly name = "ChartWarnings";
}

/** Compiles a vega-lite spec, failing on any compiler warning, into a vega spec. */
export function compileSpec(spec: TopLevelSpec) {
  const warnings: string[] = [];
  const collect = (...args: readonly unknown[]) => {
    warnings.push(args.map(String).join(" "));
    return logger;
  };
  const logger = vega.logger(vega.Warn);
  logger.warn = collect;
  logger.error = collect;
  const compiled = compile(spec, { logger });
  if (warnings.length > 0) throw new ChartWarnings(`vega-lite: ${warnings.join("; ")}`);
  return compiled.spec;
}

/** Compiles a vega-lite spec (throws on an invalid one) and renders it to an SVG string. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compileSpec(spec)), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export interface Png {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/** resvg's options, for this thread and the PNG threads alike. */
const pngOptions = (scale: number): ResvgRenderOptions => ({
  font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: CHART_FONT },
  fitTo: { mode: "zoom", value: scale },
  background: "white",
});

/** Rasterizes an SVG at `scale` × its size (2 = sharp on high-density screens and in issues). */
export function renderPng(svg: string, scale = 2): Png {
  const image = new Resvg(svg, pngOptions(scale)).render();
  return { data: image.asPng(), width: image.width, height: image.height };
}

/** Threads drawing PNGs as `renderPng` does, while the calling thread goes on (with vega, say). */
export interface PngThreads {
  render(svg: string): Promise<Png>;
  close(): Promise<void>;
}

type PngReply = { data: Uint8Array; width: number; height: number } | { error: string };

interface PngThread {
  readonly worker: Worker;
  /** Replies come in the order the SVGs were sent. */
  readonly waiting: { resolve: (png: Png) => void; reject: (e: Error) => void }[];
  gone: Error | null;
}

/** `count` threads; each SVG goes to the thread with the fewest SVGs waiting. */
export function pngThreads(count: number, scale = 2): PngThreads {
  const threads = Array.from({ length: count }, (): PngThread => {
    const t: PngThread = {
      worker: new Worker(new URL("./png-worker.mjs", import.meta.url), { workerData: pngOptions(scale) }),
      waiting: [],
      gone: null,
    };
    t.worker.on("message", (m: PngReply) => {
      const job = t.waiting.shift();
      if ("error" in m) job?.reject(new Error(`resvg: ${m.error}`));
      else job?.resolve({ ...m, data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength) });
    });
    const fail = (e: Error) => {
      t.gone ??= e;
      for (const job of t.waiting.splice(0)) job.reject(t.gone);
    };
    t.worker.on("error", fail);
    t.worker.on("exit", (code) => fail(new Error(`PNG thread exited (code ${code})`)));
    return t;
  });
  return {
    render(svg) {
      const [t] = threads.filter((x) => x.gone === null).sort((a, b) => a.waiting.length - b.waiting.length);
      if (t === undefined) return Promise.reject(threads[0]?.gone ?? new Error("no PNG threads"));
      return new Promise((resolve, reject) => {
        t.waiting.push({ resolve, reject });
        t.worker.postMessage(svg);
      });
    },
    async close() {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

/** The width and height attributes vega writes on the root `<svg>`. */
export function svgSize(svg: string): { width: number; height: number } {
  const m = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  if (m === null) throw new Error("rendered SVG has no width/height");
  return { width: Number(m[1]), height: Number(m[2]) };
}
