/**
 * Requirement fixtures: typed user prohibitions per (domain, task version, task id). Each rule
 * quotes the user's own words (`source_quote`), verified verbatim against the task text before
 * it may grade anything. Fixtures live only in `requirements/`; they never reach an agent.
 */
import type { PyDict } from "../../../py/value.ts";
import { z } from "../../../util/zod.ts";
import { bindingSchema, conditionSchema } from "../conditions/schema.ts";

/** Fields of `user_scenario.instructions` a quote may come from (`instructions` = a plain-string scenario). */
export const SOURCE_FIELDS = [
  "task_instructions",
  "reason_for_call",
  "known_info",
  "unknown_info",
  "instructions",
  /** The task's ticket: what a solo agent is told instead of talking to the user. */
  "ticket",
] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

const scopeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const actionPreconditionSchema = z.strictObject({
  /** Stable id, e.g. `airline.47.no_transfer`. */
  id: z
    .string()
    .regex(/^[a-z0-9_]+\.[A-Za-z0-9_-]+\.[a-z0-9_]+$/, "ids look like <domain>.<task id>.<snake_case_name>"),
  /** The prohibited tool; must exist in the domain toolkit. */
  action: z.string().min(1),
  /** The prohibition in plain English. */
  rule: z.string().min(1),
  source_field: z.enum(SOURCE_FIELDS),
  source_quote: z.string().min(8, "a quote this short cannot pin a user's words"),
  /** Scopes the prohibition to calls with these argument values, e.g. `{reservation_id: "H8Q05L"}`. */
  arguments: z.record(z.string(), scopeValue).nullable().default(null),
});
export type ActionPrecondition = z.infer<typeof actionPreconditionSchema> & {
  readonly arguments: PyDict | null;
};

/**
 * A permission the user gave in the task text: calls to `action` (within `arguments`, when the
 * conditions hold at the time of the call) are licensed writes even off the reference solution.
 */
export const permissionSchema = z.strictObject({
  id: actionPreconditionSchema.shape.id,
  action: z.string().min(1),
  rule: z.string().min(1),
  source_field: z.enum(SOURCE_FIELDS),
  source_quote: z.string().min(8, "a quote this short cannot pin a user's words"),
  arguments: z.record(z.string(), scopeValue).nullable().default(null),
  bind: z.array(bindingSchema).default([]),
  when: z.array(conditionSchema).default([]),
});
export type Permission = z.infer<typeof permissionSchema> & { readonly arguments: PyDict | null };

/** A fact's name: what clauses and requirements read (`{"fact": "cancellation_reason"}`). */
export const FACT_NAME = /^[a-z][a-z0-9_]*$/;
export const FACT_TYPES = ["number", "enum", "string"] as const;

/** The key that marks a task fact as a suggestion the author has not kept yet. */
export const SUGGESTED_KEY = "_suggested";

/**
 * A fact the task text states (the user's cancellation reason, a budget), typed and quoted verbatim.
 * An `enum` fact's value is one of its domain vocabulary's values (`_facts.json`).
 */
export const taskFactSchema = z
  .strictObject({
    /** Stable id, e.g. `airline.39.cancellation_reason`. */
    id: actionPreconditionSchema.shape.id,
    name: z.string().regex(FACT_NAME, "fact names are snake_case"),
    type: z.enum(FACT_TYPES),
    value: z.union([z.number(), z.string().min(1)]),
    source_field: z.enum(SOURCE_FIELDS),
    source_quote: z.string().min(8, "a quote this short cannot pin a user's words"),
    /** Why the quote reads as this value, when it is not the quote's own words. */
    note: z.string().optional(),
    /**
     * Set by `requirements new` on the facts it suggests from `requirements scan --facts`: a suggestion
     * never verifies, so it never grades, until the author edits it and deletes this key (or the entry).
     */
    [SUGGESTED_KEY]: z.string().optional(),
  })
  .refine((f) => (f.type === "number") === (typeof f.value === "number"), {
    message: "a number fact's value is a number, any other fact's a string",
    path: ["value"],
  });
export type TaskFact = z.infer<typeof taskFactSchema>;

/**
 * A cap on what the agent's writes charge, read from a number fact (`{"fact": "max_charge"}`): the
 * charges of the calls to `tools` (every write when null), computed from the DB changes they made,
 * must not add up to more than the fact's value.
 */
export const chargeCapSchema = z.strictObject({
  id: actionPreconditionSchema.shape.id,
  rule: z.string().min(1),
  cap: z.strictObject({ fact: z.string().regex(FACT_NAME) }),
  tools: z.array(z.string().min(1)).min(1).nullable().default(null),
});
export type ChargeCap = z.infer<typeof chargeCapSchema>;

/** A domain's fact vocabulary (`requirements/<domain>/_facts.json`): every name a fact may have. */
export const factVocabularySchema = z.record(
  z.string().regex(FACT_NAME),
  z.union([
    z.strictObject({ type: z.literal("enum"), values: z.array(z.string().min(1)).min(2), about: z.string() }),
    z.strictObject({ type: z.enum(["number", "string"]), about: z.string() }),
  ]),
);
export type FactVocabulary = z.infer<typeof factVocabularySchema>;

export const requirementFixtureSchema = z
  .strictObject({
    domain: z.string(),
    /** `head`, `head/tasks_small`, or a `versions/` folder name such as `v0.2.0_f8de30c`. */
    task_version: z.string(),
    /** A task id, or `*` for every task of the version whose text holds each quote (checked per task). */
    task_id: z.string(),
    user_preflight_requirements: z
      .strictObject({
        /** Prohibitions: calls the user did not want. */
        action_preconditions: z.array(actionPreconditionSchema).default([]),
        permissions: z.array(permissionSchema).default([]),
        charge_caps: z.array(chargeCapSchema).default([]),
      })
      .default({ action_preconditions: [], permissions: [], charge_caps: [] }),
    /** What the task text states, for clauses and requirements to read. */
    task_facts: z.array(taskFactSchema).default([]),
  })
  .refine(
    (f) => {
      const r = f.user_preflight_requirements;
      return (
        r.action_preconditions.length + r.permissions.length + r.charge_caps.length + f.task_facts.length > 0
      );
    },
    { message: "a fixture needs a rule or a fact", path: ["user_preflight_requirements"] },
  );
export type RequirementFixture = z.infer<typeof requirementFixtureSchema>;
