/**
 * The import graph follows the layers: py/util → formats → domains → replay → graders → store →
 * pipeline/experiments → analysis/probes/reviews/show → charts → report/view → cli. A lower layer never imports a higher
 * one, nothing imports cli, and no group of modules imports itself in a circle, inside a layer or
 * across. An edge is a static or dynamic `import` of a relative path, or a module a thread is started
 * from (`new URL("./x", import.meta.url)`), in TypeScript and plain JavaScript (`.mjs`) modules alike.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve("src");
const LAYER: Record<string, number> = {
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
  show: 7,
  charts: 8,
  report: 9,
  view: 9,
  cli: 10,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|mts|mjs)$/.test(p) ? [p] : [];
  });
}

const layerOf = (file: string): string => relative(SRC, file).split("/")[0] as string;

/**
 * Every relative import and re-export in `text` (the module at `file`), type-only and dynamic ones
 * included, and every module URL relative to it (a thread's entry), as absolute paths.
 */
const edgesIn = (file: string, text: string): string[] =>
  [
    ...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g),
    ...text.matchAll(/new\s+URL\(\s*"(\.[^"]+)"\s*,\s*import\.meta\.url\s*\)/g),
  ].map((m) => resolve(dirname(file), m[1] as string));

const importsOf = (file: string): string[] => edgesIn(file, readFileSync(file, "utf8"));

/** `from → to` for each edge of the modules `texts` (path → source) that points to a higher layer. */
function upwardEdges(texts: ReadonlyMap<string, string>): string[] {
  const offending: string[] = [];
  for (const [file, text] of texts) {
    const from = layerOf(file);
    for (const target of edgesIn(file, text))
      if ((LAYER[layerOf(target)] ?? 0) > (LAYER[from] ?? 0))
        offending.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
  }
  return offending;
}

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
    expect(upwardEdges(new Map(files(SRC).map((f) => [f, readFileSync(f, "utf8")])))).toEqual([]);
  });

  it("reads dynamic imports, thread entries and .mjs modules (the check itself)", () => {
    // A grading thread whose entry sat in cli/, named by the pipeline: each pipeline edge points up.
    const texts = new Map([
      [
        join(SRC, "pipeline/worker-bundle.ts"),
        'const WORKER = fileURLToPath(new URL("../cli/grading-thread.ts", import.meta.url));',
      ],
      [join(SRC, "pipeline/worker-entry.mjs"), 'register();\nawait import("../cli/grading-thread.ts");'],
      [join(SRC, "pipeline/census.ts"), 'const m = await import("../probes/census-thread.ts");'],
      [
        join(SRC, "cli/grading-thread.ts"),
        'import { processFile } from "../pipeline/process-file.ts";\nconst census = () => import("../probes/census-thread.ts");',
      ],
      // Same layer or below, and paths outside src (data folders): not offending.
      [join(SRC, "pipeline/parallel.ts"), 'new Worker(new URL("./thread-entry.js", import.meta.url));'],
      [
        join(SRC, "graders/load.ts"),
        'const DIR = fileURLToPath(new URL("../../requirements", import.meta.url));',
      ],
    ]);
    expect(upwardEdges(texts)).toEqual([
      "pipeline/worker-bundle.ts → cli/grading-thread.ts",
      "pipeline/worker-entry.mjs → cli/grading-thread.ts",
      "pipeline/census.ts → probes/census-thread.ts",
    ]);
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

describe("zod", () => {
  /** The modules that import zod itself (`zod`, `zod/...`), type-only imports included. */
  const zodImporters = (texts: ReadonlyMap<string, string>): string[] =>
    [...texts]
      .filter(([, text]) => /(?:from|import)\s*\(?\s*"zod(?:\/[^"]*)?"/.test(text))
      .map(([file]) => relative(SRC, file));

  it("is imported only by util/zod-api.ts, which the build bundles: any other import loads all of zod", () => {
    expect(zodImporters(new Map(files(SRC).map((f) => [f, readFileSync(f, "utf8")])))).toEqual([
      "util/zod-api.ts",
    ]);
  });

  it("finds a direct import (the check itself)", () => {
    const texts = new Map([
      [join(SRC, "formats/a.ts"), 'import { z } from "zod";'],
      [join(SRC, "formats/b.ts"), 'import type { ZodType } from "zod/v4";'],
      [join(SRC, "formats/c.ts"), 'import { z } from "../util/zod.ts";'],
    ]);
    expect(zodImporters(texts)).toEqual(["formats/a.ts", "formats/b.ts"]);
  });
});
