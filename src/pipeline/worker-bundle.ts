/**
 * Worker threads start without the main thread's TypeScript loader, and re-compiling every module
 * in every worker costs more than the grading it parallelises. So the worker runs from a cached
 * esbuild bundle (`src/build/bundle.mjs`); tsx is the fallback.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleToRun } from "../build/bundle.mjs";

// The entry composes the layers, as the command line does (see its header).
const WORKER = fileURLToPath(new URL("../cli/grading-thread.ts", import.meta.url));
const FALLBACK = new URL("./worker-entry.mjs", import.meta.url);

let cached: URL | undefined;

export async function workerScript(): Promise<URL> {
  if (cached === undefined) {
    const bundled = await bundleToRun(WORKER, "worker");
    cached = bundled === null ? FALLBACK : pathToFileURL(bundled);
  }
  return cached;
}
