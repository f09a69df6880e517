/**
 * tau2's `parse_discoverable_tool_docstring` / `format_discoverable_tool_for_agent` and Python's
 * `inspect.cleandoc`, on hand-derived cases (the 48 real docstrings are covered by the unlock and
 * give outputs of the gold vectors).
 */
import { describe, expect, it } from "vitest";
import {
  cleandoc,
  formatDiscoverableToolForAgent,
  parseDiscoverableToolDocstring,
} from "../../../src/domains/banking_knowledge/docstring.ts";

describe("cleandoc", () => {
  it("strips the first line, the common indent of the rest, and blank edge lines", () => {
    expect(cleandoc("\n        Title.\n\n          deeper\n        Args:\n        ")).toBe(
      "Title.\n\n  deeper\nArgs:",
    );
    expect(cleandoc("  One line.  ")).toBe("One line.  ");
    // Tabs expand to 8 columns before the indent is measured.
    expect(cleandoc("X\n\tA\n        B")).toBe("X\nA\nB");
    // A whitespace line longer than the margin keeps its excess (and so is not blank).
    expect(cleandoc("X\n  a\n     \n")).toBe("X\na\n   ");
  });
});

describe("parse_discoverable_tool_docstring", () => {
  const doc = `
        Do a thing.
        Over two lines.

        Args:
            alpha (string): First
                continued (not a parameter)
            beta (int, Optional): Second one
            gamma: Untyped
            delta (optional): Only optional

        Returns:
            Done it.
            More.
        `;

  it("reads description, typed/optional/untyped parameters and the first Returns line", () => {
    const info = parseDiscoverableToolDocstring("t", doc);
    expect(info.description).toBe("Do a thing.\nOver two lines.");
    expect(Object.fromEntries(info.parameters)).toEqual({
      alpha: { type: "string", description: "First", required: true },
      beta: { type: "int", description: "Second one", required: false },
      gamma: { type: "string", description: "Untyped", required: true },
      delta: { type: "string", description: "Only optional", required: false },
    });
    expect(info.successMessage).toBe("Done it.");
  });

  it("formats the parameters as the agent sees them", () => {
    expect(formatDiscoverableToolForAgent(parseDiscoverableToolDocstring("t", doc))).toBe(
      "Tool: t\nDescription: Do a thing.\nOver two lines.\nParameters:\n" +
        "  - alpha: string (required) - First\n" +
        "  - beta: int (optional) - Second one\n" +
        "  - gamma: string (required) - Untyped\n" +
        "  - delta: string (optional) - Only optional",
    );
  });

  it("without an Args section: no parameters and the default success message", () => {
    const info = parseDiscoverableToolDocstring("t", "\n    Just this.\n\n    Returns:\n        X.\n    ");
    expect(info.description).toBe("Just this.\n\nReturns:\n    X.");
    expect(info.parameters.size).toBe(0);
    expect(info.successMessage).toBe("Action completed successfully.");
    expect(formatDiscoverableToolForAgent(info)).toBe(
      "Tool: t\nDescription: Just this.\n\nReturns:\n    X.\nParameters:\n  (no parameters)",
    );
  });

  it("a repeated parameter keeps its first place and takes the later entry", () => {
    const info = parseDiscoverableToolDocstring("t", "D.\n\nArgs:\n  a: one\n  b: two\n  a (int): three\n");
    expect([...info.parameters]).toEqual([
      ["a", { type: "int", description: "three", required: true }],
      ["b", { type: "string", description: "two", required: true }],
    ]);
  });
});
