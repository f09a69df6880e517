/** The order `show` lists graders in: the built-in ones as the registry runs them, then any other by name. */
import { describe, expect, it } from "vitest";
import { GRADER_IDS, isBuiltInGraderId } from "../../src/graders/registry.ts";
import { graderOrder } from "../../src/show/view.ts";

describe("graderOrder", () => {
  it("puts the built-in graders in registry order, then grader modules' by name", () => {
    const builtIn = GRADER_IDS.filter(isBuiltInGraderId);
    const shuffled = ["zeta_check", ...[...builtIn].reverse(), "alpha_check"];
    expect(shuffled.sort(graderOrder)).toEqual([...builtIn, "alpha_check", "zeta_check"]);
  });
});
