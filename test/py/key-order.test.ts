/** Python dict order survives parsing where JavaScript would put integer-like keys first. */
import { describe, expect, it } from "vitest";
import { bankingDbFromPlain } from "../../src/domains/banking_knowledge/schema.ts";
import { DbBase, DbState } from "../../src/domains/db-state.ts";
import { parsePyJson } from "../../src/py/parse.ts";
import { type PyDict, pyKeys } from "../../src/py/value.ts";
import { deepMergePy } from "../../src/replay/setup.ts";

describe("document key order", () => {
  it("keeps the text's order of an object with integer-like keys", () => {
    const d = parsePyJson('{"b": 1, "126": 2, "a": 3, "7": 4}') as PyDict;
    expect(Object.keys(d)).toEqual(["7", "126", "b", "a"]); // what JavaScript does
    expect(pyKeys(d)).toEqual(["b", "126", "a", "7"]); // what Python does
  });

  it("records nothing for ordinary keys, and treats non-canonical numbers as ordinary", () => {
    const d = parsePyJson('{"b": 1, "01": 2, "a": 3}') as PyDict;
    expect(pyKeys(d)).toEqual(["b", "01", "a"]);
    expect(Object.keys(d)).toEqual(["b", "01", "a"]);
  });

  it("keeps the first position of a duplicated key, as Python's dict does", () => {
    const d = parsePyJson('{"x": 1, "5": 2, "x": 3}') as PyDict;
    expect(pyKeys(d)).toEqual(["x", "5"]);
    expect(d.x).toBe(3);
  });

  it("walks DB tables in Python order, before and after writes", () => {
    const root = parsePyJson('{"users": {"ab": {"n": 1}, "126": {"n": 2}, "cd": {"n": 3}}}') as PyDict;
    const base = new DbBase("T", { users: "dict" }, root);
    const s = DbState.of(base);
    expect(s.keys("users")).toEqual(["ab", "126", "cd"]);
    expect(s.values("users")).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    s.put("users", "9", { n: 4 });
    s.mut("users", "ab").n = 5;
    expect(s.keys("users")).toEqual(["ab", "126", "cd", "9"]);
  });

  it("keeps banking's table order through an initialization merge (new records after the old ones)", () => {
    const first = bankingDbFromPlain(parsePyJson('{"users": {"data": {"ab": {}, "126": {}}, "notes": ""}}'));
    const update = parsePyJson('{"users": {"data": {"zz": {}, "5": {}}}}');
    const again = bankingDbFromPlain(deepMergePy(DbState.of(first).dump(), update));
    expect(DbState.of(again).keys("users")).toEqual(["ab", "126", "zz", "5"]);
  });

  it("rejects a key that is no table, with pydantic's text (tau2's DB forbids extra fields)", () => {
    expect(() => bankingDbFromPlain({ interest_reports: { data: {} } })).toThrow(
      /1 validation error for TransactionalDB\ninterest_reports\n {2}Extra inputs are not permitted \[type=extra_forbidden/,
    );
  });
});
