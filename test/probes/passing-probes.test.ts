/**
 * `gold` and `extra-read` must pass both graders: τ³ on every task (apart from the pinned task-data
 * exceptions below), and the structured grader wherever τ³ passes (apart from the pinned golds that
 * break the policy).
 */
import { describe, expect, it } from "vitest";
import type { ProbeVerdict } from "../../src/probes/verdicts.ts";
import { ALL_SETS, probe, tasksOf } from "./helpers.ts";

/** Gold probes τ³ fails, each for a reason in the task data, not in either grader. */
const GOLD_TAU3_EXCEPTIONS: Record<string, Record<string, string>> = {
  "mock head": {
    // No reference actions, yet the env assertion wants task_2 (created in the message history) completed.
    update_task_with_history_and_env_assertions: "ENV_ASSERTION",
    // The env assertion wants notification notif_1 read: a user-side step the gold actions omit.
    update_task_with_user_tools: "ENV_ASSERTION",
  },
  "mock v0.2.0_f8de30c": {
    update_task_with_history_and_env_assertions: "ENV_ASSERTION",
  },
};

/**
 * Gold probes the structured grader fails: golds that break the written policy. The pre-τ³ ones are
 * each fixed upstream in the head task set (whose gold probes pass), so the clause, not the grader, is
 * confirmed; banking's is pinned against another task's gold that applies the rule.
 */
const GOLD_POLICY_CONFLICTS: Record<string, Record<string, string>> = {
  "airline head": {
    // Cancels MSJ4OA (economy, booked 2024-05-05, insured) for a reason insurance does not cover: the user
    // gives the seat to someone else (task fact airline.39.cancellation_reason). Head has not fixed it.
    "39": "policy_clause:airline.cancel_reservation.not_eligible",
  },
  "airline v0.2.0_f8de30c": {
    // Upgrades XEHM4B (basic economy, booked 2024-05-01, uninsured) to economy, then cancels it; head upgrades to business.
    "7": "policy_clause:airline.cancel_reservation.not_eligible",
    // MSJ4OA, as in head.
    "39": "policy_clause:airline.cancel_reservation.not_eligible",
    // Cancels S61CZX (economy, booked 2024-05-02, insured) because it has flights over 4 hours; head's gold
    // cancels nothing.
    "44": "policy_clause:airline.cancel_reservation.not_eligible",
  },
  "retail v0.2.0_f8de30c": {
    // Each exchanges an item for the very same item id; head exchanges for another option.
    "18": "policy_clause:retail.exchange_delivered_order_items.different_option",
    "91": "policy_clause:retail.exchange_delivered_order_items.different_option",
    "107": "policy_clause:retail.exchange_delivered_order_items.different_option",
  },
  "banking_knowledge head": {
    // Closes a Light Blue (ENTRY) card as fraud_suspected and orders its replacement at once; task_084's
    // gold, in the same situation, waits out the ENTRY tier's 48 hours (test/graders/structured/clauses/banking.test.ts).
    task_091: "policy_clause:banking_knowledge.order_debit_card.entry_tier_wait",
  },
};

/** A τ³ failure named by its failing basis components. */
const failingComponents = (v: ProbeVerdict): string =>
  (v.verdicts.tau3?.basis ?? [])
    .filter((b) => v.verdicts.tau3?.components[b] === 0)
    .sort()
    .join("+");

describe.each(["gold", "extra-read"] as const)("%s probes", (kind) => {
  it.each(ALL_SETS.map((s) => [`${s.domain} ${s.name}`, s] as const))("%s", async (label, set) => {
    const run = await probe(set, kind);
    const tasks = tasksOf(set);
    expect(run.skipped).toEqual([]);
    expect(run.verdicts).toHaveLength(tasks.size);
    const tau3Failures: Record<string, string> = {};
    const structuredFailures: Record<string, string> = {};
    for (const v of run.verdicts) {
      expect(v.error).toBeNull();
      const reward = v.verdicts.tau3?.reward;
      if (reward === 0) tau3Failures[v.task_id] = failingComponents(v);
      if (reward === null) {
        // Unknown only because an NL assertion is in the basis and the census runs without a judge.
        const criteria = tasks.get(v.task_id)?.evaluation_criteria;
        expect(criteria?.reward_basis).toContain("NL_ASSERTION");
        expect(criteria?.nl_assertions?.length ?? 0).toBeGreaterThan(0);
        expect(failingComponents(v)).toBe("");
      }
      if (reward === 1 && v.verdicts.structured?.pass !== true)
        structuredFailures[v.task_id] = (v.verdicts.structured?.causes ?? [])
          .filter((c) => c.gates)
          .map((c) => `${c.kind}:${c.reference}`)
          .join(",");
    }
    expect(tau3Failures).toEqual(GOLD_TAU3_EXCEPTIONS[label] ?? {});
    expect(structuredFailures).toEqual(GOLD_POLICY_CONFLICTS[label] ?? {});
  });
});
