#!/usr/bin/env node
// Launcher: runs the CLI from a cached esbuild bundle of src/ (built on first use, rebuilt when a source
// changes); loading every module through tsx cost about 0.4 s per command. tsx is the fallback, and
// TAU_RESCORE_NO_BUNDLE=1 forces it, for the grading threads too (stack traces then name the .ts files).
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle } from "../src/build/bundle.mjs";

const main = new URL("../src/cli/main.ts", import.meta.url);
let bundled = null;
if (!process.env.TAU_RESCORE_NO_BUNDLE) {
  try {
    bundled = await bundle(fileURLToPath(main), "cli");
  } catch {
    // no esbuild, or a read-only checkout: run the sources through tsx
  }
}
if (bundled !== null) {
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(main.href);
}
