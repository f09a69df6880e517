/**
 * Worker threads start without the main thread's TypeScript loader, and re-compiling every module
 * in every worker costs more than the grading it parallelises. So the worker runs from a cached
 * esbuild bundle (`src/build/bundle.mjs`); tsx is the fallback.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle } from "../build/bundle.mjs";

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
const FALLBACK = new URL("./worker-entry.mjs", import.meta.url);

let cached: URL | undefined;

export async function workerScript(): Promise<URL> {
  if (cached !== undefined) return cached;
  // Like the launcher: TAU_RESCORE_NO_BUNDLE=1 runs the sources (stack traces name the .ts files).
  if (process.env.TAU_RESCORE_NO_BUNDLE) return (cached = FALLBACK);
  try {
    cached = pathToFileURL(await bundle(WORKER, "worker"));
  } catch {
    cached = FALLBACK;
  }
  return cached;
}
