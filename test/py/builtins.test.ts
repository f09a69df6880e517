/** Python built-ins on raw values: repr against CPython, and the exception texts tools surface. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dictKey,
  keyError,
  lowerMethod,
  pyIter,
  pyLen,
  pyRepr,
  pyReprString,
  pySortedStrings,
  pyStr,
  pyTruthy,
} from "../../src/py/builtins.ts";
import { PyFloat } from "../../src/py/value.ts";
import { hasPython, python } from "../helpers/python.ts";

describe("repr", () => {
  it("escapes what str.isprintable() rejects, as CPython prints it", () => {
    expect(pyReprString("a\x00\x7f\x80\xa0\xad\u200b\u2028\u3000\ue000😀 \u{e0001}\ud800")).toBe(
      String.raw`'a\x00\x7f\x80\xa0\xad\u200b\u2028\u3000\ue000😀 \U000e0001\ud800'`,
    );
  });

  it("picks the quote like CPython", () => {
    expect(pyReprString("it's")).toBe(`"it's"`);
    expect(pyReprString(`say "hi" it's`)).toBe(String.raw`'say "hi" it\'s'`);
    expect(pyReprString("\\")).toBe(String.raw`'\\'`);
  });

  it("renders values", () => {
    expect(pyRepr({ a: [1, new PyFloat(2), true, null], "b'": "x" })).toBe(
      `{'a': [1, 2.0, True, None], "b'": 'x'}`,
    );
    expect(pyRepr(undefined)).toBe("None");
    expect(pyStr("text")).toBe("text");
    expect(pyStr(new PyFloat(1e16))).toBe("1e+16");
  });

  it.skipIf(!hasPython)("equals repr(str) on 3,000 random strings", () => {
    // Code points assigned in only one of the two Unicode versions (Python's and V8's) are left out.
    const unassigned = (s: string) => [...s].map((c) => (/\p{Cn}/u.test(c) ? "1" : "0")).join("");
    const strings = fc.sample(fc.string({ unit: "binary", maxLength: 12 }), 3_000);
    const want = python<[string, string][]>(
      [
        "import json,sys,unicodedata",
        "xs=json.load(sys.stdin)",
        "flags=lambda s: ''.join('1' if unicodedata.category(c) == 'Cn' else '0' for c in s)",
        "print(json.dumps([[repr(s), flags(s)] for s in xs]))",
      ].join("\n"),
      strings,
    );
    const comparable = strings.flatMap((s, i) => (want[i]?.[1] === unassigned(s) ? [[s, want[i]?.[0]]] : []));
    expect(comparable.length).toBeGreaterThan(2_500);
    expect(comparable.map(([s]) => pyReprString(s as string))).toEqual(comparable.map(([, r]) => r));
  });
});

describe("truthiness, iteration and errors", () => {
  it("pyTruthy", () => {
    expect([0, new PyFloat(0), new PyFloat(-0), false, "", [], {}, null].map(pyTruthy)).toEqual(
      Array(8).fill(false),
    );
    expect([1, new PyFloat(Number.NaN), true, " ", [0], { a: 1 }, 10n ** 20n].map(pyTruthy)).toEqual(
      Array(7).fill(true),
    );
  });

  it("iterates and measures like Python", () => {
    expect(pyIter("a😀")).toEqual(["a", "😀"]);
    expect(pyLen({ a: 1, b: 2 })).toBe(2);
    expect(() => pyIter(5)).toThrow("'int' object is not iterable");
    expect(() => pyLen(null)).toThrow("object of type 'NoneType' has no len()");
  });

  it("hashes dict keys", () => {
    expect(dictKey(5)).toBeNull();
    expect(() => dictKey(["x"])).toThrow("unhashable type: 'list'");
    expect(keyError("k").message).toBe("'k'");
  });

  it("sorts strings by code point and refuses mixed types", () => {
    expect(pySortedStrings(["b", "a", "B"])).toEqual(["B", "a", "b"]);
    expect(() => pySortedStrings(["a", 1])).toThrow("'<' not supported between instances of 'int' and 'str'");
  });

  it("str.lower applies the final-sigma rule, like CPython", () => {
    expect(lowerMethod("ΑΣ")).toBe("ας");
    expect(() => lowerMethod(3)).toThrow("'int' object has no attribute 'lower'");
  });
});
