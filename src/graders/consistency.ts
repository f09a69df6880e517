/**
 * Task/trajectory consistency: does the conversation belong to the task it is labelled with?
 *
 * A mislabelled simulation (e.g. the ToolOrchestra retail file, where the simulation labelled task "0"
 * is the raj_santos conversation of another task) is graded against the wrong gold state and fails for
 * reasons that say nothing about the agent. The check compares *who* the conversation is about with who
 * the task is about, using only facts, never guesses:
 *
 * - the task's users: user ids in the task's instructions, gold actions and initial state, and the
 *   owners (in the domain DB) of the order/reservation ids found there; when there are none, the users
 *   whose full name the task mentions (a name may fit several users, an id fits one);
 * - the conversation's users: `user_id` arguments of tool calls, ids returned by `find_user_id_by_*`,
 *   and the owners of `order_id` / `reservation_id` arguments. Ids the DB does not know (typos,
 *   hallucinations) say nothing about another task and are ignored.
 *
 * It flags only when both sides are known and share no user: a conversation that also touches the
 * task's own user (a wrong lookup, then the right one) is not flagged. Domains whose DB has no `users`
 * table (telecom) and tasks that name no user are `unchecked`.
 */
import type { DbBase } from "../domains/db-state.ts";
import type { Message, Task } from "../formats/model.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue } from "../py/value.ts";
import type { DomainData } from "../replay/setup.ts";
import { keyedCache } from "../util/keyed-cache.ts";
import type { Evidence } from "./evidence.ts";

export const CONSISTENCY_CODE = "consistency.foreign_ids";

export interface ConsistencyInput {
  readonly data: DomainData;
  readonly task: Task;
  readonly messages: readonly Message[];
}

export interface ConsistencyResult {
  /** `foreign`: the conversation is about other users than the task's. */
  readonly status: "consistent" | "foreign" | "unchecked";
  readonly note: string;
  readonly taskUsers: readonly string[];
  readonly conversationUsers: readonly string[];
  /** One item per use of a foreign id, located at its tool call or tool result. */
  readonly evidence: readonly Evidence[];
}

/** Argument keys whose values identify a user directly or through a record the user owns. */
const ID_KEYS = { user_id: "users", order_id: "orders", reservation_id: "reservations" } as const;
type IdKind = keyof typeof ID_KEYS;
const MAX_EVIDENCE = 20;

interface DbIndex {
  readonly users: PyDict;
  /** `first last` (lower case) → user ids. */
  readonly byName: ReadonlyMap<string, readonly string[]>;
}

const indexCache = new WeakMap<DbBase, DbIndex | null>();

function tableOf(root: PyDict, name: string): PyDict | null {
  const t = Object.hasOwn(root, name) ? root[name] : undefined;
  return isPyDict(t) ? t : null;
}

function indexOf(base: DbBase): DbIndex | null {
  let hit = indexCache.get(base);
  if (hit !== undefined) return hit;
  const users = tableOf(base.root, "users");
  hit = null;
  if (users !== null) {
    const byName = new Map<string, string[]>();
    for (const id of Object.keys(users)) {
      const u = users[id];
      const name = isPyDict(u) && isPyDict(u.name) ? u.name : null;
      if (name === null || typeof name.first_name !== "string" || typeof name.last_name !== "string")
        continue;
      const key = `${name.first_name} ${name.last_name}`.toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), id]);
    }
    hit = { users, byName };
  }
  indexCache.set(base, hit);
  return hit;
}

/** The user a DB id points to: the id itself for a user, the record's `user_id` for an order or reservation. */
function ownerOf(root: PyDict, index: DbIndex, kind: IdKind, id: string): string | null {
  if (kind === "user_id") return Object.hasOwn(index.users, id) ? id : null;
  const table = tableOf(root, ID_KEYS[kind]);
  const record = table !== null && Object.hasOwn(table, id) ? table[id] : undefined;
  return isPyDict(record) && typeof record.user_id === "string" ? record.user_id : null;
}

/** Every string leaf of a value, iteratively (values are bounded by the loader, but stay cheap). */
function stringLeaves(v: PyValue | undefined, out: string[]): void {
  const stack: (PyValue | undefined)[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "string") out.push(x);
    else if (Array.isArray(x)) stack.push(...x);
    else if (x !== null && typeof x === "object" && !(x instanceof PyFloat)) stack.push(...Object.values(x));
  }
}

function taskTexts(task: Task): string[] {
  const out: string[] = [];
  const ins = task.user_scenario.instructions;
  if (typeof ins === "string") out.push(ins);
  else out.push(ins.reason_for_call, ins.known_info ?? "", ins.unknown_info ?? "", ins.task_instructions);
  if (task.user_scenario.persona !== null) out.push(task.user_scenario.persona);
  if (task.ticket !== null) out.push(task.ticket);
  const init = task.initial_state;
  stringLeaves((init?.initialization_data ?? null) as PyValue, out);
  for (const a of init?.initialization_actions ?? []) stringLeaves(a.arguments, out);
  for (const m of init?.message_history ?? []) if (m.content !== null) out.push(m.content);
  for (const a of task.evaluation_criteria?.actions ?? []) stringLeaves(a.arguments, out);
  return out;
}

/**
 * Per DB, by the task texts themselves: every results file embeds its own copy of the same tasks,
 * so caching by task object alone would redo the work for each file.
 */
const taskUsersByText = keyedCache<DbBase, string, readonly string[]>();

/** The same, by task object: a file's simulations share their task, whose texts are not gathered again. */
const taskUsersByTask = keyedCache<DbBase, Task, readonly string[]>(() => new WeakMap());

/** The users a task is about (see the module comment). */
const taskUsers = (task: Task, base: DbBase, index: DbIndex): readonly string[] =>
  taskUsersByTask(base, task, () => {
    const texts = taskTexts(task);
    return taskUsersByText(base, texts.join("\u0000"), () => usersNamedIn(texts, base, index));
  });

function usersNamedIn(texts: readonly string[], base: DbBase, index: DbIndex): readonly string[] {
  const byId = new Set<string>();
  const byName = new Set<string>();
  for (const text of texts) {
    // Ids appear as whole values (gold arguments) or inside sentences (instructions).
    for (const token of new Set([text, ...text.split(/[^A-Za-z0-9_#]+/)])) {
      if (token === "") continue;
      for (const kind of Object.keys(ID_KEYS) as IdKind[]) {
        const owner = ownerOf(base.root, index, kind, token);
        if (owner !== null) byId.add(owner);
      }
    }
    const words = text
      .toLowerCase()
      .split(/[^a-z'-]+/)
      .filter((w) => w !== "");
    for (let i = 0; i + 1 < words.length; i++)
      for (const id of index.byName.get(`${words[i]} ${words[i + 1]}`) ?? []) byName.add(id);
  }
  // A name may fit several users; ids are exact, so names count only when the task has no id.
  const users = byId.size > 0 ? byId : byName;
  return [...users].sort();
}

interface IdUse {
  readonly id: string;
  readonly kind: IdKind;
  readonly owner: string;
  readonly evidence: Omit<Evidence, "code" | "message">;
  readonly how: string;
}

/** The DB-known ids a conversation uses, each with where it was used. */
function conversationIds(messages: readonly Message[], root: PyDict, index: DbIndex): IdUse[] {
  const uses: IdUse[] = [];
  const lookups = new Map<string, string>(); // tool-call id → name, for find_user_id_by_* results
  messages.forEach((m, messageIndex) => {
    if (m.role === "tool") {
      const name = lookups.get(m.id);
      if (name === undefined || m.error || m.content === null) return;
      const id = m.content.trim().replace(/^"(.*)"$/, "$1");
      const owner = ownerOf(root, index, "user_id", id);
      if (owner !== null)
        uses.push({
          id,
          kind: "user_id",
          owner,
          how: `returned by ${name}`,
          evidence: { messageIndex, turnIdx: m.turn_idx, toolCallId: m.id, toolName: name },
        });
      return;
    }
    if (m.role === "system") return;
    for (const call of m.tool_calls ?? []) {
      if (call.name.startsWith("find_user_id_by_")) lookups.set(call.id, call.name);
      const args = call.arguments;
      if (!isPyDict(args)) continue;
      for (const kind of Object.keys(ID_KEYS) as IdKind[]) {
        const id = Object.hasOwn(args, kind) ? args[kind] : undefined;
        if (typeof id !== "string") continue;
        const owner = ownerOf(root, index, kind, id);
        if (owner !== null)
          uses.push({
            id,
            kind,
            owner,
            how: `${kind} argument of ${call.name}`,
            evidence: { messageIndex, turnIdx: m.turn_idx, toolCallId: call.id, toolName: call.name },
          });
      }
    }
  });
  return uses;
}

const unchecked = (note: string): ConsistencyResult => ({
  status: "unchecked",
  note,
  taskUsers: [],
  conversationUsers: [],
  evidence: [],
});

export function checkConsistency(input: ConsistencyInput): ConsistencyResult {
  const base = input.data.agentBase;
  const index = indexOf(base);
  if (index === null) return unchecked("the domain DB has no users table");
  const owners = taskUsers(input.task, base, index);
  if (owners.length === 0) return unchecked("the task names no user the DB knows");
  const uses = conversationIds(input.messages, base.root, index);
  const conversationUsers = [...new Set(uses.map((u) => u.owner))].sort();
  const common = { taskUsers: owners, conversationUsers };
  if (conversationUsers.length === 0)
    return { status: "unchecked", note: "the conversation uses no id the DB knows", ...common, evidence: [] };
  const own = new Set(owners);
  if (conversationUsers.some((u) => own.has(u)))
    return { status: "consistent", note: "the conversation uses the task's user", ...common, evidence: [] };
  const theirs = owners.join(", ");
  const evidence = uses.slice(0, MAX_EVIDENCE).map(
    (u): Evidence => ({
      code: CONSISTENCY_CODE,
      message:
        u.kind === "user_id"
          ? `user ${u.id} (${u.how}) is not the task's user (${theirs})`
          : `${u.kind} ${u.id} (${u.how}) belongs to user ${u.owner}, not the task's user (${theirs})`,
      ...u.evidence,
    }),
  );
  return {
    status: "foreign",
    note: `the conversation is about ${conversationUsers.join(", ")}; the task ${input.task.id} is about ${theirs}`,
    ...common,
    evidence,
  };
}
