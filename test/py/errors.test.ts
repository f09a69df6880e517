import { describe, expect, it } from "vitest";
import { PyException } from "../../src/py/errors.ts";

describe("PyException", () => {
  it("carries the message tools report, without a stack trace, and leaves other errors' traces alone", () => {
    const limit = Error.stackTraceLimit;
    const e = new PyException("User not found");
    expect([e.message, e.name, e instanceof Error]).toEqual(["User not found", "ToolError", true]);
    expect(e.stack).toBe("ToolError: User not found");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("other").stack?.split("\n").length).toBeGreaterThan(1);
  });
});
