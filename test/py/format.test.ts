/**
 * Python `format()` specs banking uses (`.2f`, `.0f`, `,.2f`, `,`), `float()`, `int(float)` and
 * `json.dumps(indent=2)`: hand-derived cases, then differential tests against CPython.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyTypeError } from "../../src/py/errors.ts";
import {
  PyOverflowError,
  PyValueError,
  pyDumpsIndent,
  pyFloatFromStr,
  pyFormatComma,
  pyFormatFixed,
  pyFormatGrouped,
  pyIntOfFloat,
  pyToFloat,
} from "../../src/py/format.ts";
import { floatRepr } from "../../src/py/number.ts";
import { PyFloat, type PyValue } from "../../src/py/value.ts";
import { hasPython, python } from "../helpers/python.ts";

const f = (x: number) => new PyFloat(x);

describe("pyFormatFixed (format(x, '.Nf'))", () => {
  it("rounds the exact binary value, ties to even", () => {
    expect(pyFormatFixed(f(2.675), 2)).toBe("2.67"); // 2.67499999... in binary
    expect(pyFormatFixed(f(1.005), 2)).toBe("1.00");
    expect(pyFormatFixed(f(0.125), 2)).toBe("0.12"); // exact tie, even
    expect(pyFormatFixed(f(0.375), 2)).toBe("0.38");
    expect(pyFormatFixed(f(2.5), 0)).toBe("2");
    expect(pyFormatFixed(f(3.5), 0)).toBe("4");
    expect(pyFormatFixed(f(0.5), 0)).toBe("0");
    expect(pyFormatFixed(f(1e22), 2)).toBe("10000000000000000000000.00");
    expect(pyFormatFixed(f(5e-324), 2)).toBe("0.00");
  });
  it("keeps the sign of -0.0 and of negatives that round to zero", () => {
    expect(pyFormatFixed(f(-0), 2)).toBe("-0.00");
    expect(pyFormatFixed(f(-0.001), 2)).toBe("-0.00");
    expect(pyFormatFixed(f(-1234.5678), 2)).toBe("-1234.57");
  });
  it("formats ints and bools as floats, nan and inf by name", () => {
    expect(pyFormatFixed(1500, 2)).toBe("1500.00");
    expect(pyFormatFixed(-0, 2)).toBe("0.00");
    expect(pyFormatFixed(true, 2)).toBe("1.00");
    expect(pyFormatFixed(12345678901234567890n, 2)).toBe("12345678901234567168.00");
    expect(pyFormatFixed(f(Number.NaN), 2)).toBe("nan");
    expect(pyFormatFixed(f(Number.NEGATIVE_INFINITY), 2)).toBe("-inf");
  });
  it("raises Python's errors for non-numbers", () => {
    expect(() => pyFormatFixed("12", 2)).toThrow(PyValueError);
    expect(() => pyFormatFixed("12", 2)).toThrow("Unknown format code 'f' for object of type 'str'");
    expect(() => pyFormatFixed(null, 2)).toThrow(PyTypeError);
    expect(() => pyFormatFixed(null, 2)).toThrow("unsupported format string passed to NoneType.__format__");
    expect(() => pyFormatFixed([1], 2)).toThrow("unsupported format string passed to list.__format__");
    expect(() => pyFormatFixed(10n ** 400n, 2)).toThrow(PyOverflowError);
  });
});

describe("pyFormatComma / pyFormatGrouped", () => {
  it("groups the integer part", () => {
    expect(pyFormatComma(f(1234567.891), 2)).toBe("1,234,567.89");
    expect(pyFormatComma(f(-1234.5), 2)).toBe("-1,234.50");
    expect(pyFormatComma(f(999.995), 2)).toBe("1,000.00");
    expect(pyFormatComma(100, 2)).toBe("100.00");
  });
  it("format(x, ',') groups an int, and a float's repr", () => {
    expect(pyFormatGrouped(2500)).toBe("2,500");
    expect(pyFormatGrouped(-1234567)).toBe("-1,234,567");
    expect(pyFormatGrouped(f(2500))).toBe("2,500.0");
    expect(pyFormatGrouped(f(1234567.5))).toBe("1,234,567.5");
    expect(pyFormatGrouped(f(1e16))).toBe("1e+16");
    expect(pyFormatGrouped(true)).toBe("1");
    expect(() => pyFormatGrouped("abc")).toThrow("Cannot specify ',' with 's'.");
    expect(() => pyFormatGrouped({})).toThrow("unsupported format string passed to dict.__format__");
  });
});

describe("float() and int()", () => {
  it("parses what Python's float() accepts", () => {
    expect(pyFloatFromStr(" 12.5 ")).toBe(12.5);
    expect(pyFloatFromStr("1_000")).toBe(1000);
    expect(pyFloatFromStr("5.")).toBe(5);
    expect(pyFloatFromStr(".5")).toBe(0.5);
    expect(pyFloatFromStr("-Infinity")).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isNaN(pyFloatFromStr("nAn"))).toBe(true);
    expect(pyFloatFromStr("\u0661\u0662")).toBe(12);
    expect(pyFloatFromStr("12\u00a0")).toBe(12);
  });
  it("rejects the rest with Python's ValueError text", () => {
    for (const s of ["", "abc", "1,5", "1__0", "_1", "0x10", "1e"]) {
      expect(() => pyFloatFromStr(s)).toThrow(PyValueError);
    }
    expect(() => pyFloatFromStr("1,5")).toThrow("could not convert string to float: '1,5'");
    expect(() => pyToFloat(null)).toThrow(
      "float() argument must be a string or a real number, not 'NoneType'",
    );
    expect(() => pyToFloat([])).toThrow(PyTypeError);
    expect(pyToFloat(true).v).toBe(1);
    expect(pyToFloat(7).v).toBe(7);
  });
  it("int(float) truncates toward zero and refuses nan and inf", () => {
    expect(pyIntOfFloat(-2.7)).toBe(-2);
    expect(Object.is(pyIntOfFloat(-0.5), 0)).toBe(true);
    expect(pyIntOfFloat(2.5e20)).toBe(250000000000000000000n);
    expect(() => pyIntOfFloat(Number.NaN)).toThrow("cannot convert float NaN to integer");
    expect(() => pyIntOfFloat(Number.POSITIVE_INFINITY)).toThrow("cannot convert float infinity to integer");
  });
});

describe("pyDumpsIndent (json.dumps(v, indent=2))", () => {
  it("lays out nested values like Python", () => {
    const v: PyValue = { a: [], b: {}, c: [1, { x: f(1.5) }], d: "\u00e9" };
    expect(pyDumpsIndent(v)).toBe(
      '{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "x": 1.5\n    }\n  ],\n  "d": "\\u00e9"\n}',
    );
    expect(pyDumpsIndent({ user_id: "u1", check_amount: f(1500) })).toBe(
      '{\n  "user_id": "u1",\n  "check_amount": 1500.0\n}',
    );
    expect(pyDumpsIndent(5)).toBe("5");
  });
});

describe.skipIf(!hasPython)("against CPython", () => {
  const doubles = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => c / 1000),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).map((c) => c / 8), // exact binary ties
    fc.double({ min: -1e7, max: 1e7, noNaN: true }),
  );
  const xs = [0, -0, 0.125, 2.675, 1.005, 999.995, 1e16, 1e22, 5e-324, ...fc.sample(doubles, 8000)];

  it("pyFormatFixed / pyFormatComma / pyFormatGrouped equal format() on 8,000 floats", () => {
    const want = python<string[][]>(
      [
        "import json,sys",
        "xs=[float(x) for x in json.load(sys.stdin)]",
        "print(json.dumps([[format(x,'.2f'),format(x,'.0f'),format(x,',.2f'),format(x,','),format(x,'.4f')] for x in xs]))",
      ].join("\n"),
      xs.map((x) => floatRepr(x)),
    );
    const got = xs.map((x) => [
      pyFormatFixed(f(x), 2),
      pyFormatFixed(f(x), 0),
      pyFormatComma(f(x), 2),
      pyFormatGrouped(f(x)),
      pyFormatFixed(f(x), 4),
    ]);
    expect(got).toEqual(want);
  });

  it("pyFormatGrouped equals format(n, ',') on ints", () => {
    const ns = fc.sample(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), 2000);
    const want = python<string[]>(
      "import json,sys\nprint(json.dumps([format(n, ',') for n in json.load(sys.stdin)]))",
      ns,
    );
    expect(ns.map(pyFormatGrouped)).toEqual(want);
  });

  it("pyFloatFromStr agrees with float() on generated numeric text", () => {
    const digits = fc.stringMatching(/^[0-9](_?[0-9]){0,5}$/);
    const text = fc.oneof(
      fc
        .tuple(
          fc.constantFrom("", "+", "-", " ", "\t"),
          digits,
          fc.constantFrom("", ".", "."),
          fc.option(digits, { nil: "" }),
          fc.constantFrom("", "e5", "E-3", "e", "e+", "_"),
        )
        .map((p) => p.join("")),
      fc.stringMatching(/^[ 0-9._eE+-]{0,8}$/),
      fc.constantFrom("inf", "-iNF", "infinity", "nan", "in", "1_", "._1"),
    );
    const inputs = fc.sample(text, 3000);
    const want = python<(string | null)[]>(
      [
        "import json,sys",
        "out=[]",
        "for s in json.load(sys.stdin):",
        "  try: out.append(repr(float(s)))",
        "  except ValueError: out.append(None)",
        "print(json.dumps(out))",
      ].join("\n"),
      inputs,
    );
    const got = inputs.map((s) => {
      try {
        return floatRepr(pyFloatFromStr(s));
      } catch (e) {
        if (e instanceof PyValueError) return null;
        throw e;
      }
    });
    expect(got).toEqual(want);
  });
});
