import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, identityKey } from "../../../src/formats/py/json.ts";
import { PyFloat, type PyValue } from "../../../src/formats/py/value.ts";
import { pyValues } from "../../helpers/py-values.ts";

const leaf = fc.oneof(
  fc.integer({ min: -2, max: 2 }).map((n): PyValue => n),
  fc.constantFrom(1n, 2n).map((n): PyValue => n),
  fc.constantFrom(0, -0, 1, Number.NaN, Number.POSITIVE_INFINITY).map((x): PyValue => new PyFloat(x)),
  fc.constantFrom<PyValue>("a", "\u0000f1", "\u0000i1", "\u0000\u0000f1", "1", true, null),
);
const value = pyValues(leaf, ["x", "y", "\u0000f1"]);

describe("identityKey", () => {
  it("is equal only for values with equal canonical JSON", () => {
    fc.assert(
      fc.property(
        value,
        value,
        (a, b) => identityKey(a) !== identityKey(b) || canonicalJson(a) === canonicalJson(b),
      ),
      { numRuns: 20_000 },
    );
  });
  it("tells apart what JSON.stringify alone would merge", () => {
    const distinct: PyValue[] = [
      1,
      new PyFloat(1),
      1n,
      "\u0000f1",
      new PyFloat(0),
      new PyFloat(-0),
      new PyFloat(Number.NaN),
      null,
    ];
    expect(new Set(distinct.map(identityKey)).size).toBe(distinct.length);
  });
});
