/**
 * Differential tests of the Python-exact formatting against CPython itself: float repr, round(x, 2),
 * and json.dumps(sort_keys=True) with ensure_ascii, on generated inputs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, pyDumps } from "../../src/py/json.ts";
import { floatRepr, pyRoundFloat } from "../../src/py/number.ts";
import { parsePyJson } from "../../src/py/parse.ts";
import { PyFloat, type PyValue } from "../../src/py/value.ts";
import { hasPython, python } from "../helpers/python.ts";

const finiteDoubles = fc.double({ noNaN: true, noDefaultInfinity: true });
const interesting = [
  0, -0, 1, 1e-5, 1e-4, 1e16, 1e15, 123456789012345680000, 5e-324, 1.7976931348623157e308, 0.1, 2.675, 1.005,
  -2.5,
];

describe.skipIf(!hasPython)("against CPython", () => {
  it("floatRepr equals repr(float) on 20,000 doubles", () => {
    const xs = [...interesting, ...fc.sample(finiteDoubles, 20_000)];
    const want = python<string[]>(
      "import json,sys,struct\nxs=json.load(sys.stdin)\nprint(json.dumps([repr(float(x)) for x in xs]))",
      xs.map((x) => (Object.is(x, -0) ? "-0.0" : x)),
    );
    expect(xs.map(floatRepr)).toEqual(want);
  });

  it("pyRoundFloat equals round(x, 2) on 20,000 values", () => {
    const money = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => c / 1000);
    const xs = [
      ...interesting,
      ...fc.sample(money, 10_000),
      ...fc.sample(fc.double({ min: -1e6, max: 1e6, noNaN: true }), 10_000),
    ];
    const want = python<string[]>(
      "import json,sys\nxs=json.load(sys.stdin)\nprint(json.dumps([repr(round(float(x),2)) for x in xs]))",
      xs.map((x) => (Object.is(x, -0) ? "-0.0" : x)),
    );
    expect(xs.map((x) => floatRepr(pyRoundFloat(x, 2)))).toEqual(want);
  });

  it("canonicalJson equals json.dumps(sort_keys=True) on random documents", () => {
    // Encode the int/float distinction for Python: floats travel as {"__f": repr}.
    const leaf = fc.oneof(
      fc.integer().map((n): PyValue => n),
      finiteDoubles.map((x): PyValue => new PyFloat(x)),
      fc.string({ unit: "binary" }).map((s): PyValue => s),
      fc.boolean().map((b): PyValue => b),
      fc.constant<PyValue>(null),
    );
    const doc = fc.letrec<{ v: PyValue }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("v"), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("v"), { maxKeys: 4 }),
      ),
    })).v;
    const docs = fc.sample(doc, 300);
    const encode = (v: PyValue): unknown =>
      v instanceof PyFloat
        ? { __f: floatRepr(v.v) }
        : Array.isArray(v)
          ? v.map(encode)
          : v !== null && typeof v === "object"
            ? { __d: Object.entries(v).map(([k, x]) => [k, encode(x as PyValue)]) }
            : v;
    const want = python<string[]>(
      [
        "import json,sys",
        "def dec(v):",
        "  if isinstance(v, dict) and '__f' in v: return float(v['__f'])",
        "  if isinstance(v, dict): return {k: dec(x) for k, x in v['__d']}",
        "  if isinstance(v, list): return [dec(x) for x in v]",
        "  return v",
        "print(json.dumps([json.dumps(dec(d), sort_keys=True) for d in json.load(sys.stdin)]))",
      ].join("\n"),
      docs.map(encode),
    );
    expect(docs.map(canonicalJson)).toEqual(want);
  });
});

describe("Python formatting rules", () => {
  it("keeps ints and floats distinct", () => {
    expect(canonicalJson([2, new PyFloat(2)])).toBe("[2, 2.0]");
    expect(canonicalJson(parsePyJson('{"a": 2.0, "b": 2, "c": 1e5}'))).toBe(
      '{"a": 2.0, "b": 2, "c": 100000.0}',
    );
  });
  it("escapes like ensure_ascii, sorts keys by code point, and spells NaN/Infinity", () => {
    expect(canonicalJson({ "\u{1F600}": 1, "\uFFFF": 2 })).toBe('{"\\uffff": 2, "\\ud83d\\ude00": 1}');
    expect(pyDumps(["\u007f\u0000\b/"])).toBe('["\\u007f\\u0000\\b/"]');
    expect(pyDumps([new PyFloat(Number.NaN), new PyFloat(Number.NEGATIVE_INFINITY)])).toBe(
      "[NaN, -Infinity]",
    );
  });
  it("refuses a non-integral plain number, which would be a lost float", () => {
    expect(() => canonicalJson(1.5)).toThrow(/Python int/);
  });
  it("round is half-even on the exact binary value", () => {
    expect(pyRoundFloat(2.675, 2)).toBe(2.67); // 2.675 is 2.67499999... in binary
    expect(pyRoundFloat(0.125, 2)).toBe(0.12);
    expect(pyRoundFloat(0.375, 2)).toBe(0.38);
    expect(Object.is(pyRoundFloat(-0.001, 2), -0)).toBe(true);
  });
});
