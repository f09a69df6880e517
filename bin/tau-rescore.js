#!/usr/bin/env node
// Runs the compiled command line (dist/, built by `npm run build`; `npm ci` builds it too).
import { existsSync } from "node:fs";

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("tau-rescore: not built yet: run `npm run build` in the checkout first\n");
  process.exit(2);
}
await import(main.href);
