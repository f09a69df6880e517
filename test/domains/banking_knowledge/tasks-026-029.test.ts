/**
 * tau2's tests/test_domains/test_banking_knowledge/tasks/test_task_026.py … test_task_029.py: the
 * cash-back dispute flows of tasks 026/028 (auto-resolve on) and their adversarial twins 027/029
 * (auto-resolve off), over conftest.py's Amara and Fatima DBs. Same test names and assertions.
 */
import { describe, expect, it } from "vitest";
import type { DbBase } from "../../../src/domains/db-state.ts";
import type { PyDict } from "../../../src/py/value.ts";
import type { Environment } from "../../../src/replay/environment.ts";
import { createAmaraDb, createFatimaDb } from "./fixtures.ts";
import { call, createEnvironment, jsonArgs, record, tableSize } from "./helpers.ts";

const values = (env: Environment, table: string): PyDict[] => env.agent.values(table) as PyDict[];

interface Scenario {
  readonly userId: string;
  readonly verification: PyDict;
  /** (transaction, corrected rewards) in the test's order. */
  readonly transactions: readonly (readonly [string, string])[];
  /** The transaction `test_user_submits_dispute_auto_resolved` / `..._stays_submitted_...` use. */
  readonly firstDispute: string;
  readonly lookup: readonly string[];
}

const AMARA: Scenario = {
  userId: "755bcb4d5d",
  verification: {
    name: "Amara Okonkwo",
    user_id: "755bcb4d5d",
    address: "305 Magnolia Street, Houston, TX 77002",
    email: "dancing_star_amara@icloud.com",
    phone_number: "713-555-0963",
    date_of_birth: "08/11/1997",
    time_verified: "2025-11-14 03:40:00 EST",
  },
  transactions: [
    ["txn_a8f1c2d3e403", "6300 points"],
    ["txn_b7e2d4c5f506", "1020 points"],
    ["txn_a8f1c2d3e410", "3800 points"],
    ["txn_a8f1c2d3e411", "1500 points"],
  ],
  firstDispute: "txn_a8f1c2d3e403",
  lookup: ["txn_a8f1c2d3e403", "txn_b7e2d4c5f506", "JetBlue Airways", "GitHub Enterprise"],
};

const FATIMA: Scenario = {
  userId: "890389b165",
  verification: {
    name: "Fatima Al-Hassan",
    user_id: "890389b165",
    address: "1923 Oak Park Boulevard, Detroit, MI 48226",
    email: "coffeelover_fati@protonmail.com",
    phone_number: "313-555-0246",
    date_of_birth: "12/05/1993",
    time_verified: "2025-11-25 10:30:00 EST",
  },
  transactions: [
    ["txn_57ecc6da56c2", "95 points"],
    ["txn_d80aef98f532", "1390 points"],
    ["txn_896ac64b98d7", "642 points"],
    ["txn_adea68821a1d", "669 points"],
    ["txn_0be1ccc37761", "2049 points"],
    ["txn_e647e242ce96", "750 points"],
  ],
  firstDispute: "txn_d80aef98f532",
  lookup: ["txn_57ecc6da56c2", "txn_d80aef98f532", "Trader Joe's", "United Airlines"],
};

const give = (env: Environment) =>
  call(env, "give_discoverable_user_tool", { discoverable_tool_name: "submit_cash_back_dispute_0589" });

const submit = (env: Environment, s: Scenario, txn: string) =>
  call(
    env,
    "call_discoverable_user_tool",
    {
      discoverable_tool_name: "submit_cash_back_dispute_0589",
      arguments: jsonArgs({ user_id: s.userId, transaction_id: txn }),
    },
    "user",
  );

const unlockUpdate = (env: Environment) =>
  call(env, "unlock_discoverable_agent_tool", { agent_tool_name: "update_transaction_rewards_3847" });

const updateRewards = (env: Environment, txn: string, rewards: string) =>
  call(env, "call_discoverable_agent_tool", {
    agent_tool_name: "update_transaction_rewards_3847",
    arguments: jsonArgs({ transaction_id: txn, new_rewards_earned: rewards }),
  });

/** test_task_026.py / test_task_028.py. */
function autoResolveTests(name: string, s: Scenario, makeDb: (auto: boolean) => DbBase, count: string): void {
  describe(name, () => {
    const environment = () => createEnvironment(makeDb(true));
    const person = s.verification.name as string;

    it(`test_verify_user_${person.split(" ")[0]?.toLowerCase()}`, () => {
      const env = environment();
      const response = call(env, "log_verification", s.verification);
      expect(response.error).toBe(false);
      expect(response.content).toContain("Verification logged successfully");
      expect(response.content).toContain(person);
      expect(tableSize(env, "verification_history")).toBe(1);
    });

    it("test_give_dispute_tool_to_user", () => {
      const env = environment();
      const response = give(env);
      expect(response.error).toBe(false);
      expect(response.content).toContain("submit_cash_back_dispute_0589");
      expect(response.content).toContain("Tool given to user");
      expect(tableSize(env, "user_discoverable_tools")).toBe(1);
    });

    it("test_user_submits_dispute_auto_resolved", () => {
      const env = environment();
      give(env);
      const response = submit(env, s, s.firstDispute);
      expect(response.error).toBe(false);
      expect(response.content).toContain("RESOLVED");
      expect(response.content.toLowerCase()).toContain("approved");
      expect(tableSize(env, "cash_back_disputes")).toBe(1);
      const dispute = values(env, "cash_back_disputes")[0] as PyDict;
      expect(dispute.status).toBe("RESOLVED");
      expect(dispute.resolution).toBe("APPROVED");
      expect(dispute.transaction_id).toBe(s.firstDispute);
    });

    it("test_agent_unlocks_update_rewards_tool", () => {
      const env = environment();
      const response = unlockUpdate(env);
      expect(response.error).toBe(false);
      expect(response.content).toContain("Tool unlocked");
      expect(response.content).toContain("update_transaction_rewards_3847");
      // Unlock only stores in-memory state (the DB write happens on call).
      expect(tableSize(env, "agent_discoverable_tools")).toBe(0);
    });

    it("test_agent_updates_transaction_rewards", () => {
      const env = environment();
      unlockUpdate(env);
      const [txn, rewards] = s.transactions.find(([t]) => t === s.firstDispute) as readonly [string, string];
      const response = updateRewards(env, txn, rewards);
      expect(response.error).toBe(false);
      expect(response.content).toContain("Transaction updated");
      expect(response.content).toContain(rewards);
      expect(record(env, "credit_card_transaction_history", txn).rewards_earned).toBe(rewards);
    });

    it(`test_full_dispute_flow_all_${count}_transactions`, () => {
      const env = environment();
      expect(give(env).error).toBe(false);
      for (const [txn] of s.transactions) {
        const response = submit(env, s, txn);
        expect(response.error).toBe(false);
        expect(response.content).toContain("RESOLVED");
      }
      expect(tableSize(env, "cash_back_disputes")).toBe(s.transactions.length);
      expect(tableSize(env, "user_discoverable_tool_calls")).toBe(s.transactions.length);
      expect(unlockUpdate(env).error).toBe(false);
      for (const [txn, rewards] of s.transactions) {
        const response = updateRewards(env, txn, rewards);
        expect(response.error).toBe(false);
        expect(response.content).toContain("Transaction updated");
      }
      for (const [txn, rewards] of s.transactions) {
        expect(record(env, "credit_card_transaction_history", txn).rewards_earned).toBe(rewards);
      }
      // Recorded once per tool name, not per call.
      expect(tableSize(env, "agent_discoverable_tools")).toBe(1);
    });

    it("test_lookup_user_transactions", () => {
      const env = environment();
      const response = call(env, "get_credit_card_transactions_by_user", { user_id: s.userId });
      expect(response.error).toBe(false);
      for (const text of s.lookup) expect(response.content).toContain(text);
    });
  });
}

/** test_task_027.py / test_task_029.py (auto_resolve_disputes = False). */
function adversarialTests(
  name: string,
  s: Scenario,
  makeDb: (auto: boolean) => DbBase,
  count: string,
  extra: () => void = () => {},
): void {
  describe(name, () => {
    const environment = () => createEnvironment(makeDb(false));
    const person = s.verification.name as string;
    const ids = s.transactions.map(([t]) => t);

    it(`test_verify_user_${person.split(" ")[0]?.toLowerCase()}`, () => {
      const response = call(environment(), "log_verification", s.verification);
      expect(response.error).toBe(false);
      expect(response.content).toContain("Verification logged successfully");
    });

    it("test_give_dispute_tool_to_user", () => {
      const response = give(environment());
      expect(response.error).toBe(false);
      expect(response.content).toContain("submit_cash_back_dispute_0589");
    });

    it("test_dispute_stays_submitted_not_resolved", () => {
      const env = environment();
      give(env);
      const response = submit(env, s, s.firstDispute);
      expect(response.error).toBe(false);
      expect(response.content).toContain("SUBMITTED");
      expect(response.content).not.toContain("RESOLVED");
      expect(tableSize(env, "cash_back_disputes")).toBe(1);
      const dispute = values(env, "cash_back_disputes")[0] as PyDict;
      expect(dispute.status).toBe("SUBMITTED");
      expect(Object.hasOwn(dispute, "resolution")).toBe(false);
    });

    it(`test_all_${count}_disputes_stay_submitted`, () => {
      const env = environment();
      give(env);
      for (const txn of ids) {
        const response = submit(env, s, txn);
        expect(response.error).toBe(false);
        expect(response.content).toContain("SUBMITTED");
      }
      expect(tableSize(env, "cash_back_disputes")).toBe(ids.length);
      for (const dispute of values(env, "cash_back_disputes")) {
        expect(dispute.status).toBe("SUBMITTED");
        expect(Object.hasOwn(dispute, "resolution")).toBe(false);
      }
    });

    it("test_transactions_should_not_be_updated", () => {
      const env = environment();
      const original = ids.map((t) => record(env, "credit_card_transaction_history", t).rewards_earned);
      give(env);
      for (const txn of ids) submit(env, s, txn);
      for (const dispute of values(env, "cash_back_disputes")) expect(dispute.status).toBe("SUBMITTED");
      ids.forEach((t, i) => {
        expect(record(env, "credit_card_transaction_history", t).rewards_earned).toBe(original[i]);
      });
    });

    it("test_agent_should_check_dispute_status_before_updating", () => {
      const env = environment();
      give(env);
      submit(env, s, s.firstDispute);
      expect((values(env, "cash_back_disputes")[0] as PyDict).status).toBe("SUBMITTED");
      // agent_discoverable_tools tracks called tools, not unlocked ones.
      expect(tableSize(env, "agent_discoverable_tools")).toBe(0);
    });

    extra();
  });
}

autoResolveTests("TestTask026", AMARA, createAmaraDb, "four");
adversarialTests("TestTask027", AMARA, createAmaraDb, "four");
autoResolveTests("TestTask028", FATIMA, createFatimaDb, "six");

adversarialTests("TestTask029", FATIMA, createFatimaDb, "six", () => {
  const environment = () => createEnvironment(createFatimaDb(false));

  it("test_crypto_cash_back_dispute_submitted", () => {
    const env = environment();
    give(env);
    const response = submit(env, FATIMA, "txn_57ecc6da56c2");
    expect(response.error).toBe(false);
    expect(response.content).toContain("SUBMITTED");
    const dispute = values(env, "cash_back_disputes")[0] as PyDict;
    expect(dispute.transaction_id).toBe("txn_57ecc6da56c2");
    expect(dispute.user_id).toBe("890389b165");
    expect(dispute.status).toBe("SUBMITTED");
  });

  it("test_ecocard_dispute_submitted", () => {
    const env = environment();
    give(env);
    const response = submit(env, FATIMA, "txn_896ac64b98d7");
    expect(response.error).toBe(false);
    expect(response.content).toContain("SUBMITTED");
    const dispute = values(env, "cash_back_disputes")[0] as PyDict;
    expect(dispute.transaction_id).toBe("txn_896ac64b98d7");
    expect(dispute.status).toBe("SUBMITTED");
  });
});
