import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/py/json.ts";
import { PyFloat, type PyValue, sameCanonical } from "../../src/py/value.ts";
import { pyValues } from "../helpers/py-values.ts";

const leaf = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map((n): PyValue => n),
  fc.constantFrom(0, -0, 1).map((x): PyValue => new PyFloat(x)),
  fc.constantFrom<PyValue>("a", "b", true, false, null, new PyFloat(Number.NaN)),
);
const value = pyValues(leaf, ["x", "y", "z"]);

describe("sameCanonical", () => {
  it("agrees with comparing canonical JSON texts (the DB hash) on small generated values", () => {
    fc.assert(
      fc.property(value, value, (a, b) => sameCanonical(a, b) === (canonicalJson(a) === canonicalJson(b))),
      { numRuns: 5000 },
    );
  });
  it("distinguishes 2 from 2.0 and 0.0 from -0.0 but ignores key order", () => {
    expect(sameCanonical(2, new PyFloat(2))).toBe(false);
    expect(sameCanonical(new PyFloat(0), new PyFloat(-0))).toBe(false);
    expect(sameCanonical({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameCanonical(undefined, null)).toBe(false);
    expect(sameCanonical(undefined, undefined)).toBe(true);
  });
});
