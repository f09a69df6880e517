/** Applies verified clauses to every replayed call they govern, on the DBs as they were before the call. */
import type { DomainDef } from "../../../domains/domain.ts";
import { keyedCache } from "../../../util/keyed-cache.ts";
import type { CallRef } from "../attribution.ts";
import {
  bind,
  conditionsRead,
  type EvalContext,
  evaluateAll,
  type Fact,
  type StateView,
} from "../conditions/evaluate.ts";
import type { VerifiedClause } from "./verify.ts";

/** The policy document an agent works under: telecom's solo agents have their own. */
export function policyFileFor(domain: DomainDef, solo: boolean): string {
  return (solo ? domain.soloPolicyFile : undefined) ?? domain.policyFile;
}

export interface ClauseFinding {
  readonly clause: VerifiedClause;
  readonly call: CallRef;
  /**
   * `broken`: the call broke the clause. `attempted`: it would have, but changed nothing (it failed, or
   * was a no-op; see `attempts.ts`). `satisfied`: a `require` clause's conditions held (necessary, not
   * sufficient: it licenses nothing). `licenses`: a `permit` clause's conditions held.
   */
  readonly outcome: "broken" | "attempted" | "satisfied" | "licenses";
  /** The values the conditions read. */
  readonly facts: readonly Fact[];
}

/** The clauses of one policy document by the tools they govern, worked out once per verified set. */
const toolIndex = keyedCache<readonly VerifiedClause[], string, Map<string, VerifiedClause[]>>();
const clausesByTool = (
  clauses: readonly VerifiedClause[],
  policyFile: string,
): Map<string, VerifiedClause[]> =>
  toolIndex(clauses, policyFile, () => {
    const byTool = new Map<string, VerifiedClause[]>();
    for (const c of clauses) {
      if (!c.allAgents && !c.files.includes(policyFile)) continue;
      for (const tool of c.clause.tools) byTool.set(tool, [...(byTool.get(tool) ?? []), c]);
    }
    return byTool;
  });

const permitReaders = new WeakMap<VerifiedClause, boolean>();
/** Whether a clause's conditions read `task_permits` (worked out once per verified clause). */
function readsTaskPermits(c: VerifiedClause): boolean {
  let reads = permitReaders.get(c);
  if (reads === undefined) {
    reads = conditionsRead(c.clause.when, (x) => "task_permits" in x);
    permitReaders.set(c, reads);
  }
  return reads;
}

export function evaluateClauses(
  clauses: readonly VerifiedClause[],
  calls: readonly CallRef[],
  viewBefore: (step: number) => StateView,
  policyFile: string,
  taskPermits: (call: CallRef, view: StateView) => boolean,
): ClauseFinding[] {
  const out: ClauseFinding[] = [];
  const byTool = clausesByTool(clauses, policyFile);
  for (const call of calls) {
    const governing = byTool.get(call.name);
    if (governing === undefined) continue;
    const view = viewBefore(call.step);
    let permits: boolean | undefined;
    for (const c of governing) {
      const effect = c.clause.effect;
      // Only a clause that asks for task permissions pays for working them out.
      if (readsTaskPermits(c)) permits ??= taskPermits(call, view);
      const ctx: EvalContext = { view, args: call.args, taskPermits: permits ?? false, facts: [] };
      const scope = bind(c.clause.bind, ctx);
      if (scope === null) continue; // what it is about does not exist: the clause does not apply
      const held = evaluateAll(c.clause.when, ctx, scope);
      // A call that changed nothing (it failed, or was a no-op) only attempted to break it. Whether it
      // wrote is asked last: it compares the records the call touched, and most conditions settle first.
      const violated = effect === "prohibit" ? held === true : effect === "require" && held === false;
      if (violated)
        out.push({ clause: c, call, outcome: call.wrote ? "broken" : "attempted", facts: ctx.facts });
      else if (effect !== "prohibit" && held === true)
        out.push({
          clause: c,
          call,
          outcome: effect === "permit" ? "licenses" : "satisfied",
          facts: ctx.facts,
        });
    }
  }
  return out;
}
