// Bundles src/util/zod.ts (the `z` every source uses, over zod-api.ts, the package's one import of zod) into
// dist/util/zod.js, over what tsc emitted: one module to load instead of about a hundred (see its comment).
import { build } from "esbuild";

await build({
  entryPoints: ["src/util/zod.ts"],
  outfile: "dist/util/zod.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: "eof",
  logLevel: "warning",
});
