#!/usr/bin/env node
// Launcher: runs the CLI from a cached esbuild bundle of src/ (built on first use, rebuilt when a source
// changes); loading every module through tsx cost about 0.4 s per command. tsx is the fallback, and
// TAU_RESCORE_NO_BUNDLE=1 forces it, for the grading threads too (see `bundleToRun`).
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleToRun } from "../src/build/bundle.mjs";

const main = new URL("../src/cli/main.ts", import.meta.url);
const bundled = await bundleToRun(fileURLToPath(main), "cli");
if (bundled !== null) {
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(main.href);
}
