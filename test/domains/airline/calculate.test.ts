/** `calculate` and `transfer_to_human_agents`: Python eval semantics and CPython 3.11 error texts. */
import { describe, expect, it } from "vitest";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { calculate, transferToHumanAgents } from "../../../src/domains/shared-tools.ts";
import { invoke } from "../../../src/domains/toolkit.ts";
import type { PyValue } from "../../../src/py/value.ts";
import { airlineBase } from "./data.ts";

const run = (expression: PyValue) =>
  invoke(
    "AirlineTools",
    calculate,
    DbState.of(airlineBase()),
    { expression },
    { shared: new Map(), quirks: TAU2_QUIRKS },
  ).content;

describe("calculate", () => {
  it.each([
    ["2 + 2", "4.0"],
    ["10 / 4", "2.5"],
    ["1/3", "0.33"],
    ["7 // 2", "3.0"],
    ["-7 // 2", "-4.0"],
    ["7.5 // 2", "3.0"],
    ["2 ** 10", "1024.0"],
    ["2 ** -1", "0.5"],
    ["2 ** 3 ** 2", "512.0"],
    ["-2 ** 2", "-4.0"],
    ["(1 + 2) * 3", "9.0"],
    ["3 -- 2", "5.0"],
    ["+-+3", "-3.0"],
    ["0.1 + 0.2", "0.3"],
    ["2.675 * 1", "2.67"], // round half-even on the exact binary value
    ["0.125", "0.12"],
    ["00.5", "0.5"],
    ["1.", "1.0"],
    ["  .5 * 2", "1.0"],
    ["123456789 * 987654321", "1.2193263111263526e+17"],
    ["1000000 * 1000000 * 1000000.0", "1e+18"],
    ["2 ** 1100 / 2 ** 1000", "1.2676506002282294e+30"], // exact int true division
  ])("%s = %s", (expression, text) => {
    expect(run(expression)).toBe(text);
  });

  it.each([
    ["a", "Error: Invalid characters in expression"],
    ["1e5", "Error: Invalid characters in expression"],
    ["1 / 0", "Error: division by zero"],
    ["1.0 / 0", "Error: float division by zero"],
    ["1 // 0", "Error: integer division or modulo by zero"],
    ["1.0 // 0", "Error: float floor division by zero"],
    ["0 ** -1", "Error: 0.0 cannot be raised to a negative power"],
    ["", "Error: invalid syntax (<string>, line 0)"],
    ["1 +", "Error: invalid syntax (<string>, line 1)"],
    ["1 2", "Error: invalid syntax (<string>, line 1)"],
    ["1..2", "Error: invalid syntax (<string>, line 1)"],
    ["(1 2)", "Error: invalid syntax. Perhaps you forgot a comma? (<string>, line 1)"],
    ["(1 + 2", "Error: '(' was never closed (<string>, line 1)"],
    ["1 + (2 3", "Error: '(' was never closed (<string>, line 1)"],
    ["1 + 2)", "Error: unmatched ')' (<string>, line 1)"],
    [
      "0123",
      "Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)",
    ],
    ["2(3)", "Error: 'int' object is not callable"],
    ["()", "Error: float() argument must be a string or a real number, not 'tuple'"],
    ["...", "Error: float() argument must be a string or a real number, not 'ellipsis'"],
    ["(-8) ** 0.5", "Error: float() argument must be a string or a real number, not 'complex'"],
    ["10 ** 400", "Error: int too large to convert to float"],
    ["10.0 ** 400", "Error: (34, 'Numerical result out of range')"],
  ])("%s fails with %s", (expression, text) => {
    expect(run(expression)).toBe(text);
  });

  it("iterates a non-string argument like Python", () => {
    expect(run(5)).toBe("Error: 'int' object is not iterable");
    expect(run([1])).toBe("Error: 'in <string>' requires string as left operand, not int");
    expect(run(["1", "+"])).toBe("Error: eval() arg 1 must be a string, bytes or code object");
  });
});

describe("transfer_to_human_agents", () => {
  it("answers and changes nothing", () => {
    const state = DbState.of(airlineBase());
    const out = invoke(
      "AirlineTools",
      transferToHumanAgents,
      state,
      { summary: "x" },
      { shared: new Map(), quirks: TAU2_QUIRKS },
    );
    expect(out).toMatchObject({ content: "Transfer successful", error: false });
  });
});
