import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepestPath } from "../../src/formats/nesting.ts";

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
