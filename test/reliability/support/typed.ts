/** Typed (post-loader) trajectories for fuzzing replay and graders directly, without a file. */
import fc from "fast-check";
import type { DomainDef } from "../../../src/domains/domain.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { DOMAINS } from "../../../src/domains/registry.ts";
import type { Message, Task, ToolCall } from "../../../src/formats/model.ts";
import { listTaskSets, loadTaskFile } from "../../../src/formats/tasks.ts";
import { ContextPool } from "../../../src/pipeline/contexts.ts";
import { type PyDict, PyFloat, type PyValue, setKey } from "../../../src/py/value.ts";
import { DATA_DIR } from "../../helpers/data.ts";
import { argumentsFor, KNOWN_TOOLS, TRICKY_STRINGS, UNKNOWN_TOOLS } from "./mutate.ts";
import type { Json } from "./seeds.ts";

/** JSON as the loader would type it: non-integral numbers become Python floats; `__proto__` stays a key. */
export function toPy(v: Json): PyValue {
  if (typeof v === "number") return Number.isInteger(v) ? v : new PyFloat(v);
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(toPy);
  const out: PyDict = {};
  for (const k of Object.keys(v)) setKey(out, k, toPy(v[k] as Json));
  return out;
}

export const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);

export interface DomainTasks {
  readonly domain: DomainDef;
  readonly tasks: readonly Task[];
}

let cache: DomainTasks[] | undefined;
/** Every domain with its first task set (head, or tasks_small for telecom). */
export function domainTasks(): DomainTasks[] {
  cache ??= Object.values(DOMAINS).flatMap((domain) => {
    const set = listTaskSets(DATA_DIR, domain.name)[0];
    return set === undefined ? [] : [{ domain, tasks: loadTaskFile(set.path) }];
  });
  return cache;
}

const callId = fc.constantFrom("c1", "c2", "c3", "", "__proto__");

export const toolCall: fc.Arbitrary<ToolCall> = fc
  .constantFrom(...KNOWN_TOOLS, ...UNKNOWN_TOOLS)
  .chain((name) =>
    fc.record({
      id: callId,
      name: fc.constant(name),
      arguments: argumentsFor(name).map(toPy),
      requestor: fc.constantFrom("assistant" as const, "user" as const),
    }),
  );

const text = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(...TRICKY_STRINGS, "yes", "Error: x", "```"),
);
const turn = fc.option(fc.nat({ max: 50 }), { nil: null });

export const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant("system" as const), content: text, turn_idx: turn }),
  fc.record({
    role: fc.constantFrom("assistant" as const, "user" as const),
    content: text,
    tool_calls: fc.option(fc.array(toolCall, { maxLength: 3 }), { nil: null }),
    turn_idx: turn,
  }),
  fc.record({
    role: fc.constant("tool" as const),
    id: callId,
    content: fc.oneof(text, fc.constantFrom('{"a": 1}', "[1, 2.0]", "Error: nope")),
    requestor: fc.constantFrom("assistant" as const, "user" as const),
    error: fc.boolean(),
    turn_idx: turn,
  }),
);

/** Messages that mostly pair up: each call is followed by its result, so replay runs deep. */
export const pairedMessages: fc.Arbitrary<Message[]> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(toolCall, text, fc.boolean()) },
      { weight: 1, arbitrary: message.map((m) => [m] as const) },
    ),
    { maxLength: 12 },
  )
  .map((steps) =>
    steps.flatMap((s): Message[] => {
      if (s.length === 1) return [s[0]];
      const [call, content, error] = s;
      return [
        { role: call.requestor, content: null, tool_calls: [call], turn_idx: null },
        {
          role: "tool",
          id: call.id,
          content: content ?? "",
          requestor: call.requestor,
          error,
          turn_idx: null,
        },
      ];
    }),
  );

const valuesCache = new Map<string, PyValue[]>();
/** Real ids and values of a domain's DB (keys of its tables, leaves of a few records). */
export function domainValues(domain: DomainDef): PyValue[] {
  let hit = valuesCache.get(domain.name);
  if (hit === undefined) {
    const root = domain.loadAgentDb(DATA_DIR).root;
    const values = new Set<PyValue>();
    const leaves = (v: PyValue, budget: { n: number }): void => {
      if (budget.n-- <= 0) return;
      if (v !== null && typeof v === "object" && !(v instanceof PyFloat)) {
        for (const x of Array.isArray(v) ? v : Object.values(v)) leaves(x, budget);
      } else values.add(v);
    };
    for (const table of Object.values(root)) {
      if (table === null || typeof table !== "object" || table instanceof PyFloat) continue;
      if (Array.isArray(table)) {
        for (const x of table.slice(0, 3)) leaves(x, { n: 60 });
        continue;
      }
      const keys = Object.keys(table).slice(0, 20);
      for (const k of keys) values.add(k);
      for (const k of keys.slice(0, 3)) leaves((table as PyDict)[k] as PyValue, { n: 60 });
    }
    hit = values.size > 0 ? [...values] : ["x"];
    valuesCache.set(domain.name, hit);
  }
  return hit;
}

/** Every declared parameter present, each a real DB value, a list of them, or an odd value. */
export function realisticArguments(
  params: readonly { name: string }[],
  values: readonly PyValue[],
): fc.Arbitrary<PyValue> {
  const one = fc.constantFrom(...values);
  const value = fc.oneof(
    { weight: 4, arbitrary: one },
    { weight: 1, arbitrary: fc.array(one, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.dictionary(
          fc.constantFrom(
            "item_id",
            "payment_method_id",
            "flight_number",
            "date",
            "first_name",
            "last_name",
            "dob",
            "amount",
            "id",
          ),
          one,
          { maxKeys: 4 },
        ),
        { maxLength: 2 },
      ) as fc.Arbitrary<PyValue>,
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<PyValue>(null, 0, -5, new PyFloat(2.5), true, "", ...TRICKY_STRINGS),
    },
  );
  return fc.record(Object.fromEntries(params.map((p) => [p.name, value]))) as fc.Arbitrary<PyValue>;
}
