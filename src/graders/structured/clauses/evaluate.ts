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
  type TaskFactValue,
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
   * sufficient: it licenses nothing). `licenses`: a `permit` clause's conditions held. `undecided`:
   * they could not be decided because the task states no fact they read (`missingFacts`).
   */
  readonly outcome: "broken" | "attempted" | "satisfied" | "licenses" | "undecided";
  /** The values the conditions read. */
  readonly facts: readonly Fact[];
  /** The task facts the conditions read (with their quotes). */
  readonly taskFacts: readonly TaskFactValue[];
  /** Facts the conditions asked for that the task does not state. */
  readonly missingFacts: readonly string[];
}

const NO_TASK_FACTS: ReadonlyMap<string, TaskFactValue> = new Map();

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
  taskFacts: ReadonlyMap<string, TaskFactValue> = NO_TASK_FACTS,
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
      const taskFactsRead: TaskFactValue[] = [];
      const missingFacts: string[] = [];
      const ctx: EvalContext = {
        view,
        args: call.args,
        taskPermits: permits ?? false,
        facts: [],
        taskFacts,
        factsRead: taskFactsRead,
        factsMissing: missingFacts,
      };
      const scope = bind(c.clause.bind, ctx);
      if (scope === null) continue; // what it is about does not exist: the clause does not apply
      const held = evaluateAll(c.clause.when, ctx, scope);
      const finding = (outcome: ClauseFinding["outcome"]): ClauseFinding => ({
        clause: c,
        call,
        outcome,
        facts: ctx.facts,
        taskFacts: taskFactsRead,
        missingFacts,
      });
      // A call that changed nothing (it failed, or was a no-op) only attempted to break it. Whether it
      // wrote is asked last: it compares the records the call touched, and most conditions settle first.
      const violated = effect === "prohibit" ? held === true : effect === "require" && held === false;
      if (violated) out.push(finding(call.wrote ? "broken" : "attempted"));
      else if (effect !== "prohibit" && held === true)
        out.push(finding(effect === "permit" ? "licenses" : "satisfied"));
      // Unknown for want of a fact the task does not state: said, never a silent pass or fail.
      else if (held === null && missingFacts.length > 0 && call.wrote) out.push(finding("undecided"));
    }
  }
  return out;
}
