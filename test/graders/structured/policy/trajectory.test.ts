import { describe, expect, it } from "vitest";
import { isFailedResult, locateCalls } from "../../../../src/graders/structured/policy/trajectory.ts";
import { agent, call, result, user } from "./fixtures.ts";

describe("locateCalls", () => {
  it("pairs each result with the oldest unanswered call of that id, even when ids are reused", () => {
    const messages = [
      agent(null, [call("call_0", "get_order")]),
      result("call_0", "first"),
      agent(null, [call("call_0", "cancel_order"), call("call_1", "get_order")]),
      result("call_1", "Error: nope"),
      result("call_0", "second"),
      agent(null, [call("call_0", "get_order")]),
    ];
    expect(
      locateCalls(messages).map((c) => [
        c.call.name,
        c.messageIndex,
        c.position,
        c.result?.messageIndex,
        c.result?.failed,
      ]),
    ).toEqual([
      ["get_order", 0, 0, 1, false],
      ["cancel_order", 2, 0, 4, false],
      ["get_order", 2, 1, 3, true],
      ["get_order", 5, 0, undefined, undefined],
    ]);
  });

  it("ignores a result that precedes its call and marks who made each call", () => {
    const userCall = { ...user(null), tool_calls: [call("u1", "toggle_airplane_mode")] };
    const located = locateCalls([result("u1", "early"), userCall]);
    expect(located.map((c) => [c.by, c.result])).toEqual([["user", null]]);
  });
});

describe("isFailedResult", () => {
  it("uses the error flag or the Error: prefix", () => {
    expect(isFailedResult(true, "fine")).toBe(true);
    expect(isFailedResult(false, "Error: x")).toBe(true);
    expect(isFailedResult(false, "No Error: here")).toBe(false);
    expect(isFailedResult(false, null)).toBe(false);
  });
});
