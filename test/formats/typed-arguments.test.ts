import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  parseJsonWithTypedKeys,
  restoreTypedValues,
  TypedArgumentsError,
} from "../../src/formats/typed-arguments.ts";
import { pyDumps } from "../../src/py/json.ts";
import { parsePyJson } from "../../src/py/parse.ts";
import { PyFloat, type PyValue, sameCanonical } from "../../src/py/value.ts";
import { pyValues } from "../helpers/py-values.ts";

describe("parseJsonWithTypedKeys", () => {
  it("restores floats in arguments and leaves ints and other numbers plain", () => {
    const text = `{"reward": 1.0, "messages": [{"tool_calls": [
      {"name": "pay", "arguments": {"amount": 100.0, "count": 100, "nested": {"x": [1.5, 2]}}},
      {"name": "get", "arguments": {"id": "a"}}]}]}`;
    const data = parseJsonWithTypedKeys(text) as {
      reward: unknown;
      messages: { tool_calls: { arguments: Record<string, unknown> }[] }[];
    };
    const [pay, get] = data.messages[0]!.tool_calls;
    expect(pay!.arguments.amount).toEqual(new PyFloat(100));
    expect(pay!.arguments.amount).toBeInstanceOf(PyFloat);
    expect(pay!.arguments.count).toBe(100);
    expect(pay!.arguments.nested).toEqual({ x: [new PyFloat(1.5), 2] });
    expect(get!.arguments).toEqual({ id: "a" });
    expect(data.reward).toBe(1); // outside arguments: plain JS number
  });

  it("restores initialization_data and ignores keys that only appear inside strings", () => {
    const text = String.raw`{"content": "say \"arguments\": {\"a\": 1.0}", "initial_state": {"initialization_data": {"agent_data": {"balance": 5.0}}}}`;
    const data = parseJsonWithTypedKeys(text) as {
      content: string;
      initial_state: { initialization_data: unknown };
    };
    expect(data.content).toBe('say "arguments": {"a": 1.0}');
    expect(data.initial_state.initialization_data).toEqual({ agent_data: { balance: new PyFloat(5) } });
  });

  it("does not double-count a typed key nested inside another typed value", () => {
    const text = `{"arguments": {"arguments": {"v": 2.5}}, "after": {"arguments": {"w": 3.0}}}`;
    const data = parseJsonWithTypedKeys(text) as Record<string, { arguments: unknown }>;
    expect(data.arguments).toEqual({ arguments: { v: new PyFloat(2.5) } });
    expect(data.after!.arguments).toEqual({ w: new PyFloat(3) });
  });

  it("keeps ints beyond 2^53 exact", () => {
    const data = parseJsonWithTypedKeys(`{"arguments": {"big": 12345678901234567890}}`) as {
      arguments: { big: unknown };
    };
    expect(data.arguments.big).toBe(12345678901234567890n);
  });

  it("reports an alignment failure instead of guessing (escaped key name)", () => {
    const text = `{"argum\\u0065nts": {"a": 1.0}, "x": {"arguments": {"b": 2}}}`;
    expect(() => parseJsonWithTypedKeys(text)).toThrow(TypedArgumentsError);
    expect(() => parseJsonWithTypedKeys(text)).toThrow(
      'cannot restore Python number types: the "arguments" value at arguments does not line up with the raw text (text position 37); escaped or duplicate keys?',
    );
  });

  it("reports a duplicate key that JSON.parse collapsed", () => {
    const text = `{"arguments": {"a": 1.0}, "arguments": {"a": 1.0}}`;
    expect(() => parseJsonWithTypedKeys(text)).toThrow(
      'cannot restore Python number types: the raw text has a "arguments" key at position 26 that the parsed document does not (duplicate key?)',
    );
  });

  it("restores values below the recursion limit in document order (explicit-stack walk)", () => {
    const depth = 5000;
    // [[[ … {"arguments": {"x": 1.0}, "k": {"arguments": {"y": 2.5}}} … ]]], {"arguments": {"z": 3.0}}
    const text = `[${"[".repeat(depth)}{"arguments": {"x": 1.0}, "k": {"arguments": {"y": 2.5}}}${"]".repeat(depth)}, {"arguments": {"z": 3.0}}]`;
    const data = parseJsonWithTypedKeys(text) as unknown[];
    let inner: unknown = data[0];
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    const record = inner as { arguments: { x: unknown }; k: { arguments: { y: unknown } } };
    expect(record.arguments.x).toEqual(new PyFloat(1));
    expect(record.k.arguments.y).toEqual(new PyFloat(2.5));
    expect((data[1] as { arguments: { z: unknown } }).arguments.z).toEqual(new PyFloat(3));
  });

  it("names the JSON path of a deep key that does not line up", () => {
    const text = `{"a": [{"b": {"argum\\u0065nts": {"v": 1.0}}}, {"arguments": {"w": 2}}]}`;
    expect(() => parseJsonWithTypedKeys(text)).toThrow(
      /the "arguments" value at a\[0\]\.b\.arguments does not line up/,
    );
  });
});

describe("restoreTypedValues' depth", () => {
  const tree = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "medium" },
      fc.constantFrom<unknown>(1, 2.5, "s", null),
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "arguments", "initialization_data"), tie("v"), { maxKeys: 3 }),
    ),
  })).v;
  /** Depth of the deepest array or object; the root container is 0, a scalar -1. */
  const depthOf = (v: unknown): number => {
    if (v === null || typeof v !== "object") return -1;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    return 1 + Math.max(-1, ...children.map(depthOf));
  };

  it("is the depth of the deepest container, typed values included", () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (v, spaced) => {
        const text = JSON.stringify(v, null, spaced ? 1 : undefined);
        const root: unknown = JSON.parse(text);
        expect(restoreTypedValues(text, root)).toBe(depthOf(v));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("restoreTypedValues against the typed parser", () => {
  const typedKeys = ["arguments", "initialization_data"];
  const leaf = fc.oneof(
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 70n }),
    fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 16n - 1n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => new PyFloat(x)),
    fc.constantFrom<PyValue>(new PyFloat(100), new PyFloat(1e21), new PyFloat(-0.5), true, false, null),
    fc.constantFrom("1.5", "NaN", "Infinity", "12345678901234567", "e5", "", 'a\\"b'),
    // Key names as string values: found in the text, then passed over (no colon follows).
    fc.constantFrom("arguments", "initialization_data", 'say "arguments": 1.5', "ments"),
  );
  const doc = pyValues(leaf, ["a", "arguments", "initialization_data", "1e2"]);
  /** What the fast path must give: typed values below the outermost typed keys, plain numbers elsewhere. */
  const expected = (v: PyValue, typed: boolean): unknown => {
    if (typed) return v;
    if (v instanceof PyFloat) return v.v;
    if (typeof v === "bigint") return Number(v);
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map((x) => expected(x, false));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = expected(x, typedKeys.includes(k));
    return out;
  };

  it("gives the typed parser's values under typed keys and JSON.parse's elsewhere", () => {
    fc.assert(
      fc.property(doc, fc.constantFrom("spaced", "compact", "padded"), (v, layout) => {
        const dumped = pyDumps(v);
        const text =
          layout === "spaced"
            ? dumped
            : layout === "compact"
              ? dumped.replace(/, /g, ",").replace(/: /g, ":")
              : dumped.replace(/": /g, '"  : '); // whitespace between a key and its colon
        const root: unknown = JSON.parse(text);
        restoreTypedValues(text, root, typedKeys);
        const want = expected(parsePyJson(text), false);
        // Type-exact: an int is not a float.
        expect(sameCanonical(root as PyValue, want as PyValue)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
