/** The structured grader's gates, declared once: the schema, the defaults, the config key and the flags agree. */
import { describe, expect, it } from "vitest";
import { experimentSchema } from "../../../src/experiments/config.ts";
import {
  DELTA_MODES,
  GATE_WORDS,
  gatesFromWords,
  SWITCH_GATES,
} from "../../../src/graders/structured/gate-names.ts";
import {
  NO_EXTRA_GATES,
  structuredGatesConfigSchema,
  structuredGatesSchema,
} from "../../../src/graders/structured/gates.ts";
import { structuredConfig } from "../../../src/graders/structured/grader.ts";

describe("structured gates", () => {
  it("the defaults are a valid gate set, and the spec requires every gate", () => {
    expect(structuredGatesSchema.parse(NO_EXTRA_GATES)).toEqual(NO_EXTRA_GATES);
    const { user_state: _, ...missing } = NO_EXTRA_GATES;
    expect(structuredGatesSchema.safeParse(missing).success).toBe(false);
    expect(structuredGatesSchema.safeParse({ ...NO_EXTRA_GATES, extra: true }).success).toBe(false);
    expect(structuredConfig.shape.gate).toBe(structuredGatesSchema);
  });

  it("an experiment config's gate defaults to them, key by key, each parse with its own arrays", () => {
    const a = structuredGatesConfigSchema.parse(undefined);
    const b = structuredGatesConfigSchema.parse({});
    expect(a).toEqual(NO_EXTRA_GATES);
    expect(b).toEqual(NO_EXTRA_GATES);
    expect(a.policy_rules).not.toBe(b.policy_rules);
    expect(a.policy_rules).not.toBe(NO_EXTRA_GATES.policy_rules);
    expect(structuredGatesConfigSchema.parse({ delta: "strict", consistency: true })).toEqual({
      ...NO_EXTRA_GATES,
      delta: "strict",
      consistency: true,
    });
    // The stored config keeps the keys in the schema's order.
    expect(Object.keys(a)).toEqual(Object.keys(structuredGatesSchema.shape));
    expect(
      structuredGatesConfigSchema.safeParse({ policy_rules: ["nope"] }).error?.issues[0]?.message,
    ).toMatch(/^unknown policy rule "nope" \(/);
    const config = experimentSchema.parse({
      name: "x",
      roots: { corpus: ".", data: ".", output: "." },
      corpus: ["a"],
      output: "o.duckdb",
    });
    expect(config.gate).toEqual(NO_EXTRA_GATES);
  });

  it("--gate names the switches that are off by default; the rest of its words are policy rules", () => {
    expect(GATE_WORDS).toEqual([
      "format_errors",
      "nl_curated",
      "consistency",
      "degenerate_judge",
      "user_state",
      "attempted_violation",
    ]);
    for (const w of GATE_WORDS) expect(SWITCH_GATES[w]).toBe(false);
    expect(GATE_WORDS).not.toContain("policy_clauses");
    expect(gatesFromWords(["consistency", "off_reference_write"], false, "strict")).toEqual({
      policy_rules: ["off_reference_write"],
      format_errors: false,
      nl_curated: false,
      consistency: true,
      degenerate_judge: false,
      user_state: false,
      attempted_violation: false,
      policy_clauses: false,
      delta: "strict",
    });
    expect(structuredGatesSchema.parse(gatesFromWords([], true, DELTA_MODES[0]))).toEqual(NO_EXTRA_GATES);
    expect(gatesFromWords(["attempted_violation"], true, "licensed").attempted_violation).toBe(true);
  });
});
