/** The structured grader's gates as one schema (the names and defaults are in `gate-names.ts`). */
import { z } from "../../util/zod.ts";
import { DEFAULT_DELTA_MODE, DELTA_MODES, SWITCH_GATES, type SwitchGate } from "./gate-names.ts";
import { POLICY_RULE_IDS } from "./policy/types.ts";

/** A policy rule a configuration may gate on. */
export const policyRuleIdSchema = z.enum(POLICY_RULE_IDS, {
  error: (issue) => `unknown policy rule ${JSON.stringify(issue.input)} (${POLICY_RULE_IDS.join(", ")})`,
});

const switchSchemas = Object.fromEntries(Object.keys(SWITCH_GATES).map((k) => [k, z.boolean()])) as {
  [K in SwitchGate]: z.ZodBoolean;
};

/** Every gate, each required: a grading spec states all of them. */
export const structuredGatesSchema = z.strictObject({
  /** Policy rules whose hits fail the verdict (all are reported either way). */
  policy_rules: z.array(policyRuleIdSchema),
  ...switchSchemas,
  delta: z.enum(DELTA_MODES),
});

type Gates = z.output<typeof structuredGatesSchema>;
export type StructuredGates = {
  readonly [K in keyof Gates]: Gates[K] extends (infer E)[] ? readonly E[] : Gates[K];
};

/** The defaults: nothing gates beyond what always does, except broken policy clauses. */
export const NO_EXTRA_GATES: StructuredGates = {
  policy_rules: [],
  ...SWITCH_GATES,
  delta: DEFAULT_DELTA_MODE,
};

type GateShape = typeof structuredGatesSchema.shape;

/** The experiment config's `gate`: every key optional, defaulting to `NO_EXTRA_GATES`. */
export const structuredGatesConfigSchema = z
  .strictObject(
    Object.fromEntries(
      Object.entries(structuredGatesSchema.shape).map(([k, s]) => [
        k,
        // Parsed per use, so no two configs share the default arrays.
        (s as z.ZodType).prefault(NO_EXTRA_GATES[k as keyof StructuredGates]),
      ]),
    ) as { [K in keyof GateShape]: z.ZodPrefault<GateShape[K]> },
  )
  .prefault({});
