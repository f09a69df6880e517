/** pydantic lax-mode field coercion against pydantic itself (see `generated_by` in the fixture). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pyRepr } from "../../src/py/builtins.ts";
import { type Coerced, coerceBool, coerceFloat, coerceInt, coerceStr } from "../../src/py/lax.ts";
import { parsePyJson } from "../../src/py/parse.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue, pyTypeName } from "../../src/py/value.ts";

type Outcome = { ok: [string, string] } | { err: [string, string] };
interface Row {
  input: PyValue;
  float: Outcome;
  int: Outcome;
  bool: Outcome;
  str: Outcome;
}

const fixture = parsePyJson(
  readFileSync(new URL("./pydantic-lax.oracle.json", import.meta.url), "utf8"),
) as PyDict;
/** Non-finite float inputs travel as `{"__float__": repr}` (JSON has no literal for them). */
const decode = (v: PyValue): PyValue => {
  const repr = isPyDict(v) ? v.__float__ : undefined;
  return typeof repr === "string"
    ? new PyFloat(Number(repr.replace("inf", "Infinity").replace("nan", "NaN")))
    : v;
};
const rows = (fixture.cases as unknown as Row[]).map((r) => ({ ...r, input: decode(r.input) }));

const outcome = (r: Coerced): Outcome =>
  r.ok ? { ok: [pyTypeName(r.value), pyRepr(r.value)] } : { err: [r.type, r.msg] };

describe.each([
  ["float", coerceFloat],
  ["int", coerceInt],
  ["bool", coerceBool],
  ["str", coerceStr],
] as const)("%s field", (field, coerce) => {
  it.each(rows.map((r) => [pyRepr(r.input), r] as const))("%s", (_name, row) => {
    expect(outcome(coerce(row.input))).toEqual(row[field]);
  });
});
