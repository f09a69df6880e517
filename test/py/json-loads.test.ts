/**
 * `pyJsonLoads` against CPython 3.11's `json.loads`: values (int vs float, `parse_int=float`) and the
 * exact `JSONDecodeError` text. The fixed cases were read off CPython; the fuzz compares live.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyException, PyTypeError } from "../../src/py/errors.ts";
import { pyDumps } from "../../src/py/json.ts";
import { PyJsonDecodeError, pyJsonLoads } from "../../src/py/json-loads.ts";
import { floatRepr } from "../../src/py/number.ts";
import { type PyDict, PyFloat, type PyValue, pyKeys } from "../../src/py/value.ts";
import { hasPython, python } from "../helpers/python.ts";

const errorOf = (text: string): string => {
  try {
    pyJsonLoads(text);
  } catch (e) {
    if (e instanceof PyJsonDecodeError) return e.message;
    throw e;
  }
  return "no error";
};

describe("pyJsonLoads values", () => {
  it("keeps ints and floats apart; parse_int=float makes every number a float", () => {
    expect(pyJsonLoads('{"a": 1, "b": 1.0, "c": 1e5, "d": -0}')).toEqual({
      a: 1,
      b: new PyFloat(1),
      c: new PyFloat(100000),
      d: 0,
    });
    expect(pyJsonLoads('{"a": 1500, "b": [2]}', { parseIntAsFloat: true })).toEqual({
      a: new PyFloat(1500),
      b: [new PyFloat(2)],
    });
    expect(pyJsonLoads("12345678901234567890")).toBe(12345678901234567890n);
    expect(pyJsonLoads('[NaN, -Infinity, "\\ud83d\\ude00", "\\ud800A"]')).toEqual([
      new PyFloat(Number.NaN),
      new PyFloat(Number.NEGATIVE_INFINITY),
      "\u{1F600}",
      "\ud800A",
    ]);
    expect(Object.keys(pyJsonLoads('{"b": 1, "a": 2, "b": 3}') as object)).toEqual(["b", "a"]);
    expect(pyJsonLoads('{"b": 1, "a": 2, "b": 3}')).toEqual({ b: 3, a: 2 });
    // Python order even for the integer-like keys JavaScript would list first.
    expect(pyKeys(pyJsonLoads('{"x": 1, "126": 2, "b": 3, "x": 4}') as PyDict)).toEqual(["x", "126", "b"]);
  });

  it("raises TypeError for a non-str and Python's errors past its limits", () => {
    expect(() => pyJsonLoads({})).toThrow(PyTypeError);
    expect(() => pyJsonLoads({})).toThrow("the JSON object must be str, bytes or bytearray, not dict");
    expect(() => pyJsonLoads(null)).toThrow("not NoneType");
    expect(() => pyJsonLoads("1".repeat(4301))).toThrow(
      "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit",
    );
    expect(() => pyJsonLoads("[".repeat(2000))).toThrow(PyException);
    expect(() => pyJsonLoads("[".repeat(2000))).toThrow(
      "maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    );
  });
});

describe("pyJsonLoads error texts (read off CPython 3.11.7)", () => {
  const cases: [string, string][] = [
    ["", "Expecting value: line 1 column 1 (char 0)"],
    ["  ", "Expecting value: line 1 column 3 (char 2)"],
    ["not json {{", "Expecting value: line 1 column 1 (char 0)"],
    ['"\\u12"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\u123', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\u1234', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\ud800\\u12x4"', "Invalid \\uXXXX escape: line 1 column 9 (char 8)"],
    ['"\\ud800\\', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ['"\\x"', "Invalid \\escape: line 1 column 2 (char 1)"],
    ["[1,]", "Expecting value: line 1 column 4 (char 3)"],
    ['{"a":1,}', "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"],
    ['"a\nb"', "Invalid control character at: line 1 column 3 (char 2)"],
    ["\ufeff1", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ["1 2", "Extra data: line 1 column 3 (char 2)"],
    ["-", "Expecting value: line 1 column 1 (char 0)"],
    ["01", "Extra data: line 1 column 2 (char 1)"],
    ["1.", "Extra data: line 1 column 2 (char 1)"],
    ["1E+", "Extra data: line 1 column 2 (char 1)"],
    ["nul", "Expecting value: line 1 column 1 (char 0)"],
    ["Infinit", "Expecting value: line 1 column 1 (char 0)"],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ["{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ['"\\u', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['{"a": }', "Expecting value: line 1 column 7 (char 6)"],
    ['"\\ud83d\\ude00x" 1', "Extra data: line 1 column 17 (char 16)"],
    ['"\u{1F600}" x', "Extra data: line 1 column 5 (char 4)"],
    ['{\n  "a": 1\n  "b": 2}', "Expecting ',' delimiter: line 3 column 3 (char 13)"],
  ];
  it.each(cases)("%j", (text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});

describe.skipIf(!hasPython)("against CPython", () => {
  // Valid documents, then single-character edits of them: mostly errors at every kind of position.
  const leaf = fc.oneof(
    fc.integer().map((n): PyValue => n),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x): PyValue => new PyFloat(x)),
    fc.string({ maxLength: 5 }).map((s): PyValue => s),
    fc.boolean().map((b): PyValue => b),
    fc.constant<PyValue>(null),
  );
  const doc = fc.letrec<{ v: PyValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 3 }),
    ),
  })).v;
  const alphabet = fc.constantFrom(...'{}[]:,"\\ \n0123456789.-+eEtrufalsnNI\u00e9u'.split(""));
  const edited = fc.tuple(doc, fc.nat(), fc.nat({ max: 2 }), alphabet).map(([d, at, kind, ch]) => {
    const s = pyDumps(d);
    const i = s.length === 0 ? 0 : at % (s.length + 1);
    if (kind === 0) return s.slice(0, i) + ch + s.slice(i);
    if (kind === 1) return s.slice(0, i) + s.slice(i + 1);
    return s.slice(0, i) + ch + s.slice(i + 1);
  });
  const inputs = [...fc.sample(edited, 4000), ...fc.sample(doc, 300).map((d) => pyDumps(d))];

  const outcome = (text: string, intAsFloat: boolean): string => {
    try {
      // Sorted keys: a JS object lists integer-like keys first, a limit of the PyDict model, not of the parser.
      return `ok ${pyDumps(pyJsonLoads(text, { parseIntAsFloat: intAsFloat }), true)}`;
    } catch (e) {
      if (e instanceof PyJsonDecodeError) return `err ${e.message}`;
      if (e instanceof PyException) return `exc ${e.message}`;
      throw e;
    }
  };

  it("gives json.loads's value or error text on 4,300 documents and near-documents", () => {
    const want = python<string[][]>(
      [
        "import json,sys",
        "def run(s, **kw):",
        "  try: return 'ok ' + json.dumps(json.loads(s, **kw), sort_keys=True)",
        "  except json.JSONDecodeError as e: return 'err ' + str(e)",
        "  except Exception as e: return 'exc ' + str(e)",
        "print(json.dumps([[run(s), run(s, parse_int=float)] for s in json.load(sys.stdin)]))",
      ].join("\n"),
      inputs,
    );
    expect(inputs.map((s) => [outcome(s, false), outcome(s, true)])).toEqual(want);
  });

  it("renders floats as Python does after parse_int=float", () => {
    const ints = fc.sample(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), 500).map(String);
    const want = python<string[]>(
      "import json,sys\nprint(json.dumps([repr(json.loads(s, parse_int=float)) for s in json.load(sys.stdin)]))",
      ints,
    );
    expect(ints.map((s) => floatRepr((pyJsonLoads(s, { parseIntAsFloat: true }) as PyFloat).v))).toEqual(
      want,
    );
  });
});
