import { describe, expect, it } from "vitest";
import { DbBase, DbState } from "../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import {
  bindArguments,
  invoke,
  model,
  renderToolOutput,
  type ToolDef,
  ToolError,
} from "../../src/domains/toolkit.ts";
import { PyFloat } from "../../src/py/value.ts";

const tool: ToolDef = {
  name: "suspend_line",
  kind: "write",
  params: [{ name: "customer_id" }, { name: "line_id" }, { name: "reason" }, { name: "note", default: null }],
  run: (_db, args) => {
    if (args.reason === "bad") throw new ToolError("Invalid reason");
    return { ok: true, n: 2, f: new PyFloat(15), m: model({ n: 2, f: new PyFloat(1.5) }) };
  },
};
const env = { shared: new Map(), quirks: TAU2_QUIRKS };
const db = DbState.of(new DbBase("X", {}, {}));

describe("Python keyword binding", () => {
  it("reports missing arguments like CPython 3.11", () => {
    expect(() => bindArguments("TelecomTools", tool, { customer_id: "C1" })).toThrow(
      "TelecomTools.suspend_line() missing 2 required positional arguments: 'line_id' and 'reason'",
    );
    expect(() => bindArguments("T", tool, {})).toThrow(
      "missing 3 required positional arguments: 'customer_id', 'line_id', and 'reason'",
    );
  });
  it("reports an unexpected keyword before any missing one", () => {
    expect(() => bindArguments("T", tool, { extra: 1 })).toThrow(
      "T.suspend_line() got an unexpected keyword argument 'extra'",
    );
  });
  it("fills defaults", () => {
    expect(bindArguments("T", tool, { customer_id: "C", line_id: "L", reason: "r" })).toEqual({
      customer_id: "C",
      line_id: "L",
      reason: "r",
      note: null,
    });
  });
});

describe("tool results", () => {
  it("renders plain-dict numbers and bools as Python str(), model numbers as numbers", () => {
    const out = invoke("T", tool, db, { customer_id: "C", line_id: "L", reason: "r" }, env);
    expect(out).toMatchObject({ error: false });
    expect(out.content).toBe('{"ok": "True", "n": "2", "f": "15.0", "m": {"n": 2, "f": 1.5}}');
  });
  it("turns a tool error into `Error: <message>`", () => {
    expect(invoke("T", tool, db, { customer_id: "C", line_id: "L", reason: "bad" }, env)).toEqual({
      content: "Error: Invalid reason",
      error: true,
    });
  });
  it("passes strings through verbatim", () => {
    expect(renderToolOutput("Transfer successful")).toBe("Transfer successful");
  });
});
