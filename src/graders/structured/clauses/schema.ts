/**
 * Domain policy clauses (`policies/<domain>/*.json`): typed rules that quote the domain policy
 * verbatim, name the tools they govern, and state conditions over the DB at the time of the call.
 *
 * - `prohibit`: a call made while the conditions hold breaks the clause.
 * - `require`: a call made while they fail breaks it. Holding, they license nothing: a precondition met
 *   is not a reason to write (an eligible order is not one the user asked to cancel).
 * - `permit`: a call made while they hold licenses the write (otherwise the clause says nothing). Its
 *   quote must grant the action ("You are allowed to…"), and its conditions should scope it to the user.
 */
import { z } from "../../../util/zod.ts";
import { bindingSchema, conditionSchema } from "../conditions/schema.ts";

export const CLAUSE_EFFECTS = ["prohibit", "require", "permit"] as const;

const offsets = { quote_start: z.number().int().min(0), quote_end: z.number().int().min(0) };

export const sourceSchema = z.union([
  /** A policy text file, relative to the domain's folder, e.g. `main_policy.md`. */
  z.strictObject({ file: z.string().min(1), ...offsets }),
  /** A knowledge-base document by id (banking's `documents/`): offsets into its `content`. */
  z.strictObject({ document: z.string().min(1), ...offsets }),
]);
export type ClauseSource = z.infer<typeof sourceSchema>;

export const clauseSchema = z.strictObject({
  /** `<domain>.<tool or topic>.<snake_case_name>` */
  id: z
    .string()
    .regex(/^[a-z0-9_]+\.[a-z0-9_]+\.[a-z0-9_]+$/, "ids look like <domain>.<topic>.<snake_case_name>"),
  effect: z.enum(CLAUSE_EFFECTS),
  /** The tools whose calls the clause governs (agent or user toolkit). */
  tools: z.array(z.string().min(1)).min(1),
  /** The rule in plain English. */
  rule: z.string().min(1),
  /** Words of the policy document, verbatim. */
  source_quote: z.string().min(12, "a quote this short cannot pin a policy sentence"),
  /** Each policy document the quote is in, with the quote's code-point offsets (end exclusive). */
  sources: z.array(sourceSchema).min(1),
  /** Records the conditions read, looked up at the time of the call. */
  bind: z.array(bindingSchema).default([]),
  when: z.array(conditionSchema).min(1),
  /** Why the conditions read the policy this way (constants such as the policy's current time). */
  note: z.string().optional(),
});
export type Clause = z.infer<typeof clauseSchema>;

export const clauseFileSchema = z.strictObject({
  domain: z.string().min(1),
  clauses: z.array(clauseSchema).min(1),
});
