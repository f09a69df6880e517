/**
 * The condition language of policy clauses and task permissions: facts about the DB as it was when a
 * call was made, bound to the call's arguments. Small on purpose: record lookups, comparisons,
 * quantifiers over records or lists, and "or". Every name a condition uses is bound before it.
 */
import { z } from "../../../util/zod.ts";

const NAME = /^[a-z][a-z0-9_]*$/;
/** `binding.field.subfield`; a bare binding name refers to the whole value. */
const REF = /^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

export const dbSideSchema = z.enum(["agent", "user"]);
const name = z.string().regex(NAME, "names are snake_case");

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const literalSchema = z.union([scalar, z.array(scalar)]);

/** An argument of the call. */
const argSchema = z.strictObject({ arg: z.string().min(1) });
/** A value of a bound record (or list element): `line.contract_end_date`. */
const refSchema = z.strictObject({ ref: z.string().regex(REF, "a ref is a bound name, then field names") });

export const operandSchema = z.union([
  argSchema,
  refSchema,
  z.strictObject({ value: literalSchema }),
  /** A fact the task text states (a requirement fixture's `task_facts`); unknown when it states none. */
  z.strictObject({ fact: name }),
  /** How many elements a list argument or field holds (unknown when it is not a list). */
  z.strictObject({ len: z.union([argSchema, refSchema]) }),
]);
export type Operand = z.infer<typeof operandSchema>;

/** The argument or field an operand reads (a length reads its list's). */
export const readOperand = (o: Operand): Exclude<Operand, { readonly len: unknown }> =>
  "len" in o ? o.len : o;

export const COMPARISONS = ["==", "!=", "<", "<=", ">", ">=", "in", "not_in"] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Which records a binding or quantifier ranges over: a table of a DB, filtered by field equality. */
const recordsSchema = z.strictObject({
  db: dbSideSchema.default("agent"),
  table: z.string().min(1),
  /** Field → value every matching record has (all must be equal, as Python would compare). */
  where: z.record(z.string(), operandSchema).default({}),
});

export const bindingSchema = z.union([
  /** The first record of `table` (in DB order) whose fields equal `where`. */
  recordsSchema.extend({ as: name }),
  /** A whole atom field of a DB, e.g. telecom's `surroundings`. */
  z.strictObject({ as: name, db: dbSideSchema.default("agent"), atom: z.string().min(1) }),
]);
export type Binding = z.infer<typeof bindingSchema>;

export type Condition =
  | { readonly left: Operand; readonly op: Comparison; readonly right: Operand }
  | { readonly any: Quantifier }
  | { readonly all: Quantifier }
  | { readonly none: Quantifier }
  | { readonly any_of: readonly Condition[] }
  /** A verified permission in the task's requirement fixture licenses this very call. */
  | { readonly task_permits: true };

export interface Quantifier {
  /** Records of a table, or the elements of a list value (`{list: "reservation.flights"}`). */
  readonly each: z.infer<typeof recordsSchema> | { readonly list: string };
  readonly as: string;
  readonly when: readonly Condition[];
}

const quantifierSchema: z.ZodType<Quantifier> = z.lazy(() =>
  z.strictObject({
    each: z.union([recordsSchema, z.strictObject({ list: z.string().regex(REF) })]),
    as: name,
    when: z.array(conditionSchema).min(1),
  }),
);

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ left: operandSchema, op: z.enum(COMPARISONS), right: operandSchema }),
    z.strictObject({ any: quantifierSchema }),
    z.strictObject({ all: quantifierSchema }),
    z.strictObject({ none: quantifierSchema }),
    z.strictObject({ any_of: z.array(conditionSchema).min(2) }),
    z.strictObject({ task_permits: z.literal(true) }),
  ]),
);
