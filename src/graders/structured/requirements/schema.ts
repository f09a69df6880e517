/**
 * Requirement fixtures: typed user prohibitions per (domain, task version, task id). Each rule
 * quotes the user's own words (`source_quote`), verified verbatim against the task text before
 * it may grade anything. Fixtures live only in `requirements/`; they never reach an agent.
 */
import { z } from "zod";
import type { PyDict } from "../../../py/value.ts";
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

export const requirementFixtureSchema = z.strictObject({
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
    })
    .refine((r) => r.action_preconditions.length + r.permissions.length > 0, "a fixture needs a rule"),
});
export type RequirementFixture = z.infer<typeof requirementFixtureSchema>;
