/**
 * Mutations of raw simulations (parsed JSON) for the fuzz suites, as fast-check arbitraries: each is a
 * plain value (shrinkable, printable) applied to a deep copy of a seed simulation.
 */
import fc from "fast-check";
import { DOMAINS } from "../../../src/domains/registry.ts";
import type { Json, JsonRecord } from "./seeds.ts";

/** Every tool name of every domain, and names no domain has. */
export const KNOWN_TOOLS: readonly string[] = [
  ...new Set(
    Object.values(DOMAINS).flatMap((d) => [
      ...d.agentTools.tools.keys(),
      ...(d.userTools?.tools.keys() ?? []),
    ]),
  ),
].sort();
export const UNKNOWN_TOOLS = [
  "",
  "nope",
  "__proto__",
  "constructor",
  "toString",
  "get_user_details ",
  "x".repeat(300),
];

/** Strings that are special to JavaScript objects, used as ids and keys. */
export const TRICKY_STRINGS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "",
];

/** An object with own `__proto__`, `constructor` and `prototype` keys (what `JSON.parse` would build). */
export function protoObject(payload: Json = { polluted: true }): JsonRecord {
  const o: JsonRecord = {};
  for (const k of ["__proto__", "constructor", "prototype"])
    Object.defineProperty(o, k, {
      value: k === "constructor" ? { prototype: payload } : payload,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return o;
}

/** Values of every JSON type, tricky strings and prototype keys included. */
export const weirdValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 2 ** 53 + 2, "", "0", ...TRICKY_STRINGS),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constant(null).map(() => protoObject()),
  fc.array(fc.constantFrom<Json>(...TRICKY_STRINGS, 1, null), { maxLength: 3 }),
);

/** Arguments for a tool: its real parameter names with odd values, or anything that is not a dict. */
export function argumentsFor(tool: string): fc.Arbitrary<Json> {
  const params = Object.values(DOMAINS)
    .map((d) => d.agentTools.tools.get(tool) ?? d.userTools?.tools.get(tool))
    .find((t) => t !== undefined)
    ?.params.map((p) => p.name) ?? ["user_id"];
  return fc.oneof(
    fc.record(Object.fromEntries(params.map((p) => [p, weirdValue])), {
      requiredKeys: [],
    }) as fc.Arbitrary<Json>,
    fc.record(Object.fromEntries(params.map((p) => [p, fc.constantFrom<Json>(...TRICKY_STRINGS)])), {
      requiredKeys: [],
    }) as fc.Arbitrary<Json>,
    weirdValue,
    fc.constant(null).map(() => protoObject()),
  );
}

export type Mutation =
  | { readonly kind: "drop" | "duplicate" | "flip-error" | "mismatch-id" | "proto-keys"; readonly at: number }
  | { readonly kind: "swap"; readonly at: number; readonly with: number }
  | { readonly kind: "role"; readonly at: number; readonly role: Json }
  | { readonly kind: "rename-tool"; readonly at: number; readonly name: string }
  | { readonly kind: "arguments"; readonly at: number; readonly args: Json }
  | {
      readonly kind: "message-field";
      readonly at: number;
      readonly field: string;
      readonly value: Json | undefined;
    }
  | { readonly kind: "sim-field"; readonly field: string; readonly value: Json | undefined }
  | { readonly kind: "mislabel"; readonly pick: number }
  | { readonly kind: "truncate"; readonly keep: number };

const MESSAGE_FIELDS = [
  "role",
  "content",
  "tool_calls",
  "turn_idx",
  "id",
  "requestor",
  "error",
  "tool_call_id",
  "name",
];
const SIM_FIELDS = [
  "id",
  "task_id",
  "trial",
  "termination_reason",
  "messages",
  "traj",
  "reward_info",
  "reward",
  "info",
];

const at = fc.nat({ max: 200 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom("drop", "duplicate", "flip-error", "mismatch-id", "proto-keys"), at }),
  fc.record({ kind: fc.constant("swap"), at, with: at }),
  fc.record({
    kind: fc.constant("role"),
    at,
    role: fc.constantFrom<Json>("system", "assistant", "user", "tool", "robot", 7, null),
  }),
  fc.record({
    kind: fc.constant("rename-tool"),
    at,
    name: fc.constantFrom(...KNOWN_TOOLS, ...UNKNOWN_TOOLS),
  }),
  fc
    .constantFrom(...KNOWN_TOOLS)
    .chain((tool) =>
      fc.record({ kind: fc.constant("arguments"), at, args: argumentsFor(tool), name: fc.constant(tool) }),
    )
    .map(({ name: _n, ...m }) => m as Mutation),
  fc.record({
    kind: fc.constant("message-field"),
    at,
    field: fc.constantFrom(...MESSAGE_FIELDS),
    value: fc.option(weirdValue, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant("sim-field"),
    field: fc.constantFrom(...SIM_FIELDS),
    value: fc.option(weirdValue, { nil: undefined }),
  }),
  fc.record({ kind: fc.constant("mislabel"), pick: fc.nat() }),
  fc.record({ kind: fc.constant("truncate"), keep: fc.nat({ max: 30 }) }),
);

const isRecord = (v: Json | undefined): v is JsonRecord =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The message list of a raw simulation (tau2 `messages` or v1 `traj`), when it is a list. */
export function messagesOf(sim: JsonRecord): Json[] | null {
  const m = sim.messages ?? sim.traj;
  return Array.isArray(m) ? m : null;
}

/** The tool calls of a raw message, tau2 style or OpenAI style. */
function toolCallsOf(m: Json | undefined): JsonRecord[] {
  if (!isRecord(m) || !Array.isArray(m.tool_calls)) return [];
  return m.tool_calls.filter(isRecord);
}

function setField(o: JsonRecord, field: string, value: Json | undefined): void {
  if (value === undefined) delete o[field];
  else Object.defineProperty(o, field, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies a mutation in place; indices wrap around the list, so every mutation applies somewhere. */
export function applyMutation(sim: JsonRecord, m: Mutation, taskIds: readonly string[]): void {
  const messages = messagesOf(sim);
  const n = messages?.length ?? 0;
  const idx = (i: number) => (n === 0 ? 0 : i % n);
  const withCalls = (messages ?? []).filter((x) => toolCallsOf(x).length > 0);
  const callAt = (i: number): JsonRecord | undefined => {
    const all = withCalls.flatMap(toolCallsOf);
    return all.length === 0 ? undefined : all[i % all.length];
  };
  switch (m.kind) {
    case "drop":
      if (messages && n > 0) messages.splice(idx(m.at), 1);
      return;
    case "duplicate":
      if (messages && n > 0) messages.splice(idx(m.at), 0, structuredClone(messages[idx(m.at)] as Json));
      return;
    case "swap":
      if (messages && n > 1) {
        const [a, b] = [idx(m.at), idx(m.with)];
        [messages[a], messages[b]] = [messages[b] as Json, messages[a] as Json];
      }
      return;
    case "role": {
      const msg = messages?.[idx(m.at)];
      if (isRecord(msg)) setField(msg, "role", m.role);
      return;
    }
    case "flip-error": {
      const tools = (messages ?? []).filter((x) => isRecord(x) && x.role === "tool") as JsonRecord[];
      const t = tools[m.at % Math.max(1, tools.length)];
      if (t !== undefined) t.error = !(t.error === true);
      return;
    }
    case "mismatch-id": {
      const c = callAt(m.at);
      if (c !== undefined) c.id = `${String(c.id)}-other`;
      return;
    }
    case "rename-tool": {
      const c = callAt(m.at);
      if (c === undefined) return;
      if (isRecord(c.function)) c.function.name = m.name;
      else c.name = m.name;
      return;
    }
    case "arguments": {
      const c = callAt(m.at);
      if (c === undefined) return;
      if (isRecord(c.function))
        c.function.arguments = typeof m.args === "string" ? m.args : JSON.stringify(m.args);
      else setField(c, "arguments", m.args);
      return;
    }
    case "proto-keys": {
      const target = [sim, messages?.[idx(m.at)], callAt(m.at), callAt(m.at)?.arguments][m.at % 4];
      if (isRecord(target)) for (const [k, v] of Object.entries(protoObject())) setField(target, k, v);
      return;
    }
    case "message-field": {
      const msg = messages?.[idx(m.at)];
      if (isRecord(msg)) setField(msg, m.field, m.value);
      return;
    }
    case "sim-field":
      setField(sim, m.field, m.value);
      return;
    case "mislabel":
      if (taskIds.length > 0) {
        const other = taskIds[m.pick % taskIds.length] as string;
        if ("task_id" in sim) sim.task_id = typeof sim.task_id === "number" ? Number(other) : other;
      }
      return;
    case "truncate":
      if (messages) messages.length = Math.min(messages.length, m.keep);
      return;
  }
}
