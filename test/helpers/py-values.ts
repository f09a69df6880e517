/** Small generated Python-typed values (lists and dicts over given leaves and keys) for property tests. */
import fc from "fast-check";
import type { PyValue } from "../../src/py/value.ts";

export function pyValues(leaf: fc.Arbitrary<PyValue>, keys: readonly string[]): fc.Arbitrary<PyValue> {
  return fc.letrec<{ v: PyValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom(...keys), tie("v"), { maxKeys: 3 }),
    ),
  })).v;
}
