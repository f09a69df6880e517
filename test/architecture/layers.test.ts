/**
 * The import graph follows the layers: py/util → formats → domains → replay → graders → store →
 * pipeline/experiments → analysis/probes/reviews → charts → report → cli. A lower layer never imports a higher
 * one, nothing imports cli, and no group of modules imports itself in a circle, inside a layer or
 * across. `build` (the bundler the launcher and the threads run from) imports none of them.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");
const LAYER: Record<string, number> = {
  build: 0,
  py: 0,
  util: 0,
  formats: 1,
  domains: 2,
  replay: 3,
  graders: 4,
  store: 5,
  pipeline: 6,
  experiments: 6,
  analysis: 7,
  probes: 7,
  reviews: 7,
  charts: 8,
  report: 9,
  cli: 10,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mts)$/.test(p) ? [p] : [];
  });
}

const layerOf = (file: string): string => relative(SRC, file).split("/")[0] as string;

/** Every relative import and re-export of a module, type-only ones included, as absolute paths. */
const importsOf = (file: string): string[] =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) =>
    resolve(dirname(file), m[1] as string),
  );

/** Tarjan's strongly connected components with more than one module, or a module importing itself. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        scc.push(w);
        if (w === v) break;
      }
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("layers", () => {
  it("places every folder of src in a layer", () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => !(f in LAYER))).toEqual([]);
  });

  it("no module imports from a higher layer", () => {
    const offending: string[] = [];
    for (const file of files(SRC)) {
      const from = layerOf(file);
      for (const target of importsOf(file))
        if ((LAYER[layerOf(target)] ?? 0) > (LAYER[from] ?? 0))
          offending.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
    expect(offending).toEqual([]);
  });

  it("no modules import each other in a circle", () => {
    const graph = new Map(files(SRC).map((f) => [f, importsOf(f)]));
    expect(cycles(graph).map((c) => c.map((f) => relative(SRC, f)).join(" ↔ "))).toEqual([]);
  });

  it("finds a circle when there is one (the check itself)", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(cycles(g)).toEqual([["a", "b", "c"], ["e"]]);
  });
});
