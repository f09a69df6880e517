/** Quote offsets are code points (Python's `str.find`), counted without copying the text. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateQuote } from "../../../../src/graders/structured/requirements/quote.ts";

describe("locateQuote", () => {
  it("counts astral characters once, before and inside the quote", () => {
    expect(locateQuote("a😀b😀c", "b😀")).toEqual({ found: true, start: 2, end: 4 });
  });

  it("equals counting by spreading the string into code points, on any text", () => {
    const text = fc.string({ unit: "binary", maxLength: 40 });
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const from = a % (t.length + 1);
        const to = from + (b % (t.length - from + 1));
        const quote = t.slice(from, to);
        if (quote === "") return;
        const idx = t.indexOf(quote);
        const start = [...t.slice(0, idx)].length;
        expect(locateQuote(t, quote)).toEqual({ found: true, start, end: start + [...quote].length });
      }),
      { numRuns: 2000 },
    );
  });
});
