import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/formats/py/value.ts";
import { parseJsonWithTypedKeys, TypedArgumentsError } from "../../src/formats/typed-arguments.ts";

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
