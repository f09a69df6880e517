// A thread that rasterizes chart SVGs (`pngThreads` in render.ts): resvg is synchronous and takes about as
// long per chart as vega, so the charts' PNGs are drawn here while the main thread lays out the next chart.
// Plain JavaScript, so it starts without a TypeScript loader, from src/ or dist/ (tsc copies it);
// `workerData` is resvg's options.
import { parentPort, workerData } from "node:worker_threads";
import { Resvg } from "@resvg/resvg-js";

parentPort.on("message", (svg) => {
  try {
    const image = new Resvg(svg, workerData).render();
    parentPort.postMessage({ data: image.asPng(), width: image.width, height: image.height });
  } catch (e) {
    parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
