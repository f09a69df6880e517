import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffValues, type FieldDiff } from "../../../src/graders/structured/field-diff.ts";
import { canonicalJson } from "../../../src/py/json.ts";
import { isPyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { pyValues } from "../../helpers/py-values.ts";

const leaf = fc.oneof(
  fc.integer({ min: -2, max: 2 }).map((n): PyValue => n),
  fc.constantFrom(0n, 2n).map((n): PyValue => n),
  fc.constantFrom(0, -0, 2).map((x): PyValue => new PyFloat(x)),
  fc.constantFrom<PyValue>("a", "b", true, false, null, new PyFloat(Number.NaN)),
);
const value = pyValues(leaf, ["x", "y", "a.b", 'q"']);

const UNIT = "users\u0000u1";

/** The obvious definition: walk both, build every path, compare leaves by their Python dump. */
function reference(
  path: string,
  a: PyValue | undefined,
  b: PyValue | undefined,
  out: FieldDiff[],
  rest: readonly (string | number)[] = [],
): void {
  const text = (v: PyValue | undefined) => (v === undefined ? undefined : canonicalJson(v));
  const leafy = (v: PyValue | undefined) =>
    v === undefined || v === null || typeof v !== "object" || v instanceof PyFloat;
  if (leafy(a) || leafy(b) || Array.isArray(a) !== Array.isArray(b)) {
    if (text(a) !== text(b)) out.push({ path, a, b, unit: UNIT, rest });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      reference(`${path}[${i}]`, a[i], b[i], out, [...rest, i]);
    return;
  }
  if (isPyDict(a) && isPyDict(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = /^[A-Za-z0-9_-]+$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
      reference(p, Object.hasOwn(a, k) ? a[k] : undefined, Object.hasOwn(b, k) ? b[k] : undefined, out, [
        ...rest,
        k,
      ]);
    }
  }
}

const diff = (a: PyValue, b: PyValue) => {
  const out: FieldDiff[] = [];
  diffValues(UNIT, "users.u1", a, b, out);
  return out;
};

describe("diffValues", () => {
  it("reports exactly the leaves whose Python dump differs, with their paths", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const expected: FieldDiff[] = [];
        reference("users.u1", a, b, expected);
        expect(diff(a, b)).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it("has no difference exactly when the canonical JSON texts are equal", () => {
    fc.assert(
      fc.property(
        value,
        value,
        (a, b) => (diff(a, b).length === 0) === (canonicalJson(a) === canonicalJson(b)),
      ),
      { numRuns: 5000 },
    );
  });

  it("tells int from float and 0.0 from -0.0, and names odd keys in brackets", () => {
    expect(diff({ amount: 2 }, { amount: new PyFloat(2) }).map((d) => d.path)).toEqual(["users.u1.amount"]);
    expect(diff([new PyFloat(0)], [new PyFloat(-0)]).map((d) => d.path)).toEqual(["users.u1[0]"]);
    expect(diff(new PyFloat(Number.NaN), new PyFloat(Number.NaN))).toEqual([]);
    expect(diff(2n, 2)).toEqual([]);
    expect(diff({ "a.b": { x: 1 } }, { "a.b": {} }).map((d) => d.path)).toEqual(['users.u1["a.b"].x']);
  });
});
