import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excerpt } from "../../src/graders/evidence.ts";

/** The definition: whitespace runs become one space, trimmed, cut to `max` with an ellipsis. */
const naive = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

describe("excerpt", () => {
  it("equals flattening the whole text, however long", () => {
    const text = fc
      .array(fc.constantFrom("a", "b", " ", "\n", "\t", "  ", "\u2003", "x".repeat(40), " ".repeat(90)), {
        maxLength: 80,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 60 }), (t, max) => {
        expect(excerpt(t, max)).toBe(naive(t, max));
      }),
      { numRuns: 20_000 },
    );
  });
  it("keeps a short text whole and marks a cut", () => {
    expect(excerpt("  two\n\nlines  ")).toBe("two lines");
    expect(excerpt(`${"a".repeat(160)}${" ".repeat(600)}`)).toBe("a".repeat(160));
    expect(excerpt("a".repeat(1000), 10)).toBe(`${"a".repeat(9)}…`);
    expect(excerpt(null)).toBe("");
  });
});
