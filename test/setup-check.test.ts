import { describe, expect, it } from "vitest";
import { canonicalJson, pyJsonString } from "../src/py/json.ts";
import { floatRepr, pyRoundFloat } from "../src/py/number.ts";
import { parsePyJson } from "../src/py/parse.ts";
import { PyFloat } from "../src/py/value.ts";

describe("smoke", () => {
  it("formats like Python", () => {
    expect([1, 1e-5, 1e16, 1e15, 0.0001, 2.5e-7, 1.5e300, -0, 883, 0.1 + 0.2].map(floatRepr)).toEqual([
      "1.0",
      "1e-05",
      "1e+16",
      "1000000000000000.0",
      "0.0001",
      "2.5e-07",
      "1.5e+300",
      "-0.0",
      "883.0",
      "0.30000000000000004",
    ]);
    expect(pyJsonString("é\u007f😀/")).toBe('"\\u00e9\\u007f\\ud83d\\ude00/"');
    expect(canonicalJson({ b: 1, a: [new PyFloat(2), true, null] })).toBe('{"a": [2.0, true, null], "b": 1}');
    expect(pyRoundFloat(2.675, 2)).toBe(2.67);
    expect(parsePyJson('{"a": 1.0, "b": 1}')).toEqual({ a: new PyFloat(1), b: 1 });
  });
});
