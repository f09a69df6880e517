/**
 * What the pipeline checks of a grader from `grader_modules` on each simulation. The built-in graders
 * produce well-formed records by construction (their types say so and the compiler checks them); a
 * module's record is only typed, so every one is checked here before anything is stored from it.
 */
import { joinPath } from "../formats/json-path.ts";
import { canonicalJson } from "../py/json.ts";
import type { PyValue } from "../py/value.ts";
import { EXIT_INPUT_FAILED, RescoreError } from "../util/errors.ts";
import { z } from "../util/zod.ts";
import { CAUSE_KIND_NAMES, type CauseKind } from "./causes.ts";
import type { VerdictRecord } from "./grader.ts";

/** A grader module failed on one simulation: the simulation's error row is this message. */
export class GraderModuleError extends RescoreError {
  override readonly name = "GraderModuleError";
  readonly code = "grader_module";
  readonly exitStatus = EXIT_INPUT_FAILED;
}

/** Seconds a module grader may take on one simulation unless the command line says otherwise. */
export const GRADER_MODULE_TIMEOUT_SECONDS = 60;

/** The error row of a simulation a module grader gave no verdict on in time. */
export const overdueMessage = (label: string, seconds: number): string =>
  `${label}: no verdict within ${seconds} s`;

/** What a module threw, in one line (a module may throw anything, even a value without a string form). */
export function thrownText(e: unknown): string {
  try {
    const text = e instanceof Error ? `${e.name === "Error" ? "" : `${e.name}: `}${e.message}` : String(e);
    return text.split("\n")[0] ?? "";
  } catch {
    return "a value that cannot be shown";
  }
}

/** The store's INTEGER columns. */
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const UNIT = "expected a finite number from 0 to 1, or null";
/** A reward or a component's score (`z.number` refuses NaN and ±Infinity). */
const unitOrNull = z.number({ error: UNIT }).min(0, { error: UNIT }).max(1, { error: UNIT }).nullable();
const text = z.string({ error: "expected a string" });
const textOrNull = z.string({ error: "expected a string or null" }).nullable();
const flag = z.boolean({ error: "expected true or false" });
const flagOrNull = z.boolean({ error: "expected true, false or null" }).nullable();
const list = <T extends z.ZodType>(item: T) => z.array(item, { error: "expected a list" });
const OBJECT = { error: "expected an object" };
const ACTOR = "expected agent or user";
const actor = z.enum(["agent", "user"], { error: ACTOR });
const messageIndex = z
  .int({ error: "expected an integer from 0" })
  .min(0, { error: "expected an integer from 0" })
  .max(INT32.max, { error: `expected an integer up to ${INT32.max}` });
const turnIndex = z
  .int({ error: "expected an integer" })
  .min(INT32.min, { error: `expected an integer from ${INT32.min}` })
  .max(INT32.max, { error: `expected an integer up to ${INT32.max}` });

/** A value the store writes as Python's JSON (evidence arguments and DB values). */
const pyValue = z.custom<PyValue>(
  (v) => {
    try {
      canonicalJson(v as PyValue);
      return true;
    } catch {
      return false; // not a Python value: a fraction as a plain number, a function, a cycle
    }
  },
  { error: "expected a Python value (null, true/false, integer, string, PyFloat, list or object of them)" },
);

const evidenceSchema = z.object(
  {
    code: text,
    message: text,
    messageIndex: messageIndex.optional(),
    turnIdx: turnIndex.nullable().optional(),
    toolCallId: text.optional(),
    toolName: text.optional(),
    actor: actor.optional(),
    arguments: pyValue.optional(),
    db: z.enum(["agent", "user"], { error: ACTOR }).optional(),
    path: text.optional(),
    values: z
      .object(
        { initial: pyValue.optional(), gold: pyValue.optional(), predicted: pyValue.optional() },
        OBJECT,
      )
      .optional(),
    quote: text.optional(),
    excerpt: text.optional(),
  },
  OBJECT,
);

const causeSchema = z.object(
  {
    kind: z.enum(CAUSE_KIND_NAMES as [CauseKind, ...CauseKind[]], {
      error: `expected a cause kind (${CAUSE_KIND_NAMES.join(", ")})`,
    }),
    reference: text,
    gates: flag,
    message: text,
    messageIndex: messageIndex.nullable(),
    turnIdx: turnIndex.nullable(),
    toolCallId: textOrNull,
    toolName: textOrNull,
    actor: actor.nullable(),
    evidence: list(evidenceSchema),
  },
  OBJECT,
);

const componentSchema = z.object({ name: text, score: unitOrNull, inBasis: flag, vacuous: flag }, OBJECT);

const count = z.number({ error: "expected a count" }).int({ error: "expected a count" }).min(0);

const coverageSchema = z.object(
  {
    fixtures: list(text),
    facts: count,
    clauses: count,
    skipped: list(z.object({ fixture: textOrNull, reason: text }, OBJECT)),
  },
  OBJECT,
);

/** Every field of a `VerdictRecord` the store needs, each with the values its column can hold. */
const verdictRecordSchema = z.object(
  {
    pass: flagOrNull,
    reward: unitOrNull,
    dbMatch: flagOrNull,
    notes: list(text),
    judgeFailure: textOrNull,
    // A component's name is its key in the store.
    components: list(componentSchema).check((ctx) => {
      const seen = new Set<string>();
      for (const [i, c] of ctx.value.entries()) {
        if (seen.has(c.name))
          ctx.issues.push({
            code: "custom",
            message: "another component has this name",
            input: c,
            path: [i, "name"],
          });
        seen.add(c.name);
      }
    }),
    causes: list(causeSchema),
    coverage: coverageSchema.optional(),
  },
  OBJECT,
);

/** What a value was, for a message: short, one line. */
function shown(v: unknown): string {
  if (v === undefined) return "missing";
  if (typeof v === "string") return `got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v)}`;
  if (v === null || typeof v === "number" || typeof v === "boolean") return `got ${String(v)}`;
  if (typeof v === "bigint") return `got ${v}n`;
  if (Array.isArray(v)) return "got a list";
  return typeof v === "object" ? "got an object" : `got a ${typeof v}`;
}

const at = (root: unknown, path: readonly PropertyKey[]): unknown => {
  let v = root;
  for (const key of path)
    v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
};

/**
 * The record a module grader returned, checked: a copy holding only the fields the store reads. A bad
 * one throws `GraderModuleError` naming the grader (`label`) and the first wrong field.
 */
export function checkedRecord(label: string, record: unknown): VerdictRecord {
  const parsed = verdictRecordSchema.safeParse(record);
  // zod infers a cause's `kind` as the union of kinds, `Cause` spells the same set out kind by kind.
  if (parsed.success) return parsed.data as VerdictRecord;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  throw new GraderModuleError(
    `${label}: ${joinPath("record", path)}: ${issue?.message ?? "invalid"} (${shown(at(record, path))})`,
  );
}
