/**
 * What tau2's `KnowledgeTools` instance keeps in memory rather than in the DB: the unlocked agent
 * tools, the tools given to the user, and the read-log allow-list. One per simulation (tau2 builds a
 * fresh toolkit per environment); `fork` copies it, so forks of a task setup start alike and never
 * see each other's unlocks.
 */
import type { Action } from "../../formats/model.ts";
import type { PyValue } from "../../py/value.ts";
import type { ToolEnv, ToolSession } from "../toolkit.ts";
import type { ToolInfo } from "./docstring.ts";

export interface UnlockedTool {
  readonly unlockedAt: string;
  readonly toolInfo: ToolInfo;
}

export interface GivenTool {
  readonly arguments: PyValue;
  readonly givenAt: string;
  readonly toolInfo: ToolInfo;
}

export class BankingSession implements ToolSession {
  constructor(
    /** Names of read-only discoverable tools whose dispatched calls are still logged to the DB. */
    readonly readLogAllowlist: ReadonlySet<string> = new Set(),
    readonly unlocked: Map<string, UnlockedTool> = new Map(),
    readonly given: Map<string, GivenTool> = new Map(),
  ) {}

  fork(): BankingSession {
    // Entries are never changed in place, so copying the maps is enough.
    return new BankingSession(this.readLogAllowlist, new Map(this.unlocked), new Map(this.given));
  }
}

/**
 * tau2's `_derive_read_log_allowlist`: the `agent_tool_name` of every gold `call_discoverable_agent_tool`
 * action (a truthy value; tau2 puts it in a set, so it must be hashable: only strings occur).
 */
export function readLogAllowlist(goldActions: readonly Action[] | null): Set<string> {
  const out = new Set<string>();
  for (const a of goldActions ?? []) {
    if (a.name !== "call_discoverable_agent_tool") continue;
    const name = Object.hasOwn(a.arguments, "agent_tool_name") ? a.arguments.agent_tool_name : undefined;
    if (typeof name === "string" && name !== "") out.add(name);
  }
  return out;
}

export const newBankingSession = (goldActions: readonly Action[] | null): BankingSession =>
  new BankingSession(readLogAllowlist(goldActions));

/** The session of a banking environment (a port fault when the caller built the env without one). */
export function bankingSession(env: ToolEnv): BankingSession {
  const s = env.session;
  if (!(s instanceof BankingSession)) {
    throw new Error("banking_knowledge tools need a BankingSession in their ToolEnv (see newBankingSession)");
  }
  return s;
}
