import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadJsonFile } from "../../src/formats/load.ts";
import { deepestPath, MAX_NESTING } from "../../src/formats/nesting.ts";

const tree = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "medium" },
    fc.constantFrom<unknown>(1, "s", null, true),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "__proto__"), tie("v"), { maxKeys: 3 }),
  ),
})).v;

/** Levels of arrays/objects from the root down to the deepest one (a scalar has 0). */
const levels = (v: unknown): number => {
  if (v === null || typeof v !== "object") return 0;
  const children = Array.isArray(v) ? v : Object.values(v as object);
  return 1 + Math.max(0, ...children.map(levels));
};

describe("deepestPath", () => {
  it("finds a value nested at the limit exactly when one exists, and its path leads to it", () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 6 }), (v, limit) => {
        const path = deepestPath(v, limit);
        expect(path === null).toBe(levels(v) <= limit);
        if (path === null) return;
        expect(path).toHaveLength(limit);
        let at: unknown = v;
        for (const seg of path) at = Object.getOwnPropertyDescriptor(at, seg)?.value;
        expect(at !== null && typeof at === "object").toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("copes with 100k levels (no recursion through the whole depth)", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(deepestPath(v)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("nesting checks of a loaded file", () => {
  /** A bare simulation list whose second simulation holds arrays nested `n` deep under a message. */
  const file = (n: number) => {
    const sim = (id: string, rawData: unknown) => ({
      id,
      task_id: "0",
      termination_reason: "user_stop",
      messages: [{ role: "assistant", content: "hi", raw_data: rawData }],
    });
    let nested: unknown = 1;
    for (let i = 0; i < n; i++) nested = [nested];
    const path = join(mkdtempSync(join(tmpdir(), "tr-nest-")), "sims.json");
    writeFileSync(path, JSON.stringify([sim("a", null), sim("b", nested)]));
    return loadJsonFile(path);
  };
  const rejectedIds = (n: number) => {
    const loaded = file(n);
    if (loaded.variant === "not-trajectories") throw new Error(loaded.reason);
    return loaded.rejected.map((r) => r.id);
  };

  it("rejects exactly the simulation holding a value nested MAX_NESTING deep below it", () => {
    // simulation (0) → messages (1) → message (2) → the first array is at depth 3
    expect(rejectedIds(MAX_NESTING - 3)).toEqual([]);
    expect(rejectedIds(MAX_NESTING - 2)).toEqual(["b"]);
  });
});
