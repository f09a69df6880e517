/**
 * Initial task states (tau2 `set_state` steps 1–2: `initialization_data`, then
 * `initialization_actions`), computed once per task and forked per simulation.
 */
import { type DbBase, DbState } from "../domains/db-state.ts";
import type { DomainData } from "../domains/domain.ts";
import type { Quirks } from "../domains/quirks.ts";
import type { ToolEnv } from "../domains/toolkit.ts";
import type { Action, InitialState } from "../formats/model.ts";
import { isPyDict, type PyDict, type PyValue, pyKeys, recordKeyOrder, setKey, toPlain } from "../py/value.ts";
import { Environment } from "./environment.ts";
import { ReplayAbort } from "./errors.ts";

export type { DomainData };

/**
 * addict-style deep merge used by tau2's `update_pydantic_model_with_dict`: objects merge
 * recursively; anything else (lists and nulls included) replaces.
 */
export function deepMerge(target: unknown, update: unknown): unknown {
  if (!isPlainObject(target) || !isPlainObject(update)) return update;
  const out: Record<string, unknown> = { ...target };
  for (const k of Object.keys(update)) {
    const merged = deepMerge(out[k], update[k]);
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: merged, enumerable: true, writable: true, configurable: true });
    else out[k] = merged;
  }
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `deepMerge` over Python values: numbers keep int vs float (schema-less records hash them as
 * written), and keys keep Python's order (addict: existing keys stay put, new ones follow in order).
 */
export function deepMergePy(target: PyValue | undefined, update: PyValue): PyValue {
  if (target === undefined || !isPyDict(target) || !isPyDict(update)) return update;
  const keys = [...pyKeys(target)];
  const known = new Set(keys);
  for (const k of pyKeys(update)) if (!known.has(k)) keys.push(k);
  const out: PyDict = {};
  for (const k of keys) {
    const old = Object.hasOwn(target, k) ? target[k] : undefined;
    setKey(out, k, Object.hasOwn(update, k) ? deepMergePy(old, update[k] as PyValue) : (old as PyValue));
  }
  recordKeyOrder(out, keys);
  return out;
}

function applyData(
  state: DbState,
  data: PyDict,
  fromPlain: (plain: unknown) => DbBase,
  untyped: boolean | undefined,
): DbState {
  const merged = untyped ? deepMergePy(state.dump(), data) : deepMerge(toPlain(state.dump()), toPlain(data));
  return DbState.of(fromPlain(merged));
}

/**
 * Builds the environment a task starts from (before any message is replayed). tau2 builds the
 * gold env without the solo flag, so the setup is solo-agnostic; `fork(solo)` sets it per use.
 */
export function buildTaskSetup(
  data: DomainData,
  initial: InitialState | null,
  quirks: Quirks,
  shared: Map<string, unknown>,
  /** The task's gold actions: some domains derive toolkit settings from them (tau2's `env_kwargs`). */
  goldActions: readonly Action[] | null = null,
): Environment {
  const { domain } = data;
  const session = domain.newSession?.(goldActions);
  const toolEnv: ToolEnv = session === undefined ? { shared, quirks } : { shared, quirks, session };
  const untyped = domain.untypedRecords;
  let agent = DbState.of(data.agentBase);
  let user = data.userBase === null ? null : domain.sharedDb ? agent : DbState.of(data.userBase);
  // A shared DB stays shared: both toolkits hold the DB object tau2 re-points them to.
  const alias = quirks.userDbAliasing || domain.sharedDb === true;
  const init = initial?.initialization_data ?? null;
  if (init?.agent_data != null) {
    if (!isPyDict(init.agent_data)) throw new ReplayAbort("initialization_data.agent_data is not an object");
    agent = applyData(agent, init.agent_data, (p) => domain.agentDbFromPlain(p), untyped);
    // tau2 ≥1.0 re-points the user toolkit at the new agent DB object (quirk userDbAliasing).
    if (user !== null && alias) user = agent;
  }
  if (init?.user_data != null) {
    if (user === null || domain.userDbFromPlain === undefined) {
      throw new ReplayAbort(
        "'NoneType' object has no attribute 'update_db'",
        "initialization_data.user_data",
      );
    }
    if (!isPyDict(init.user_data)) throw new ReplayAbort("initialization_data.user_data is not an object");
    const fromPlain = domain.userDbFromPlain.bind(domain);
    const userFromPlain = user === agent ? (p: unknown) => domain.agentDbFromPlain(p) : fromPlain;
    user = applyData(user, init.user_data, userFromPlain, untyped);
    if (alias) agent = user;
  }
  const env = new Environment(domain, agent, user, false, toolEnv);
  (initial?.initialization_actions ?? []).forEach((a, i) => {
    env.runFunction(a.env_type, a.func_name, a.arguments, `initial_state.initialization_actions[${i}]`);
  });
  return env;
}
