/**
 * The import graph follows the layers: formats → domains → replay → graders → store → pipeline/experiments →
 * analysis/probes → charts → report → cli. A lower layer never imports a higher one, and nothing imports cli.
 * `build` (the bundler the launcher and the threads run from) imports none of them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");
const LAYER: Record<string, number> = {
  build: 0,
  formats: 0,
  domains: 1,
  replay: 2,
  graders: 3,
  probes: 6,
  store: 4,
  pipeline: 5,
  experiments: 5,
  analysis: 6,
  charts: 7,
  report: 8,
  cli: 9,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const layerOf = (file: string): string => relative(SRC, file).split("/")[0] as string;

describe("layers", () => {
  it("places every folder of src in a layer", () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => !(f in LAYER))).toEqual([]);
  });

  it("no module imports from a higher layer", () => {
    const offending: string[] = [];
    for (const file of files(SRC)) {
      const from = layerOf(file);
      for (const m of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
        const target = layerOf(resolve(dirname(file), m[1] as string));
        if ((LAYER[target] ?? 0) > (LAYER[from] ?? 0)) offending.push(`${relative(SRC, file)} → ${m[1]}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
