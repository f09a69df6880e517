/**
 * tau2's `TestCompleteDisputeFlow` (test_tools_knowledge.py §18), through the real environment: agent and
 * user toolkits over one DB, the dispatchers, the toolkit session. The tool-level files test each step alone.
 */
import { describe, expect, it } from "vitest";
import { baseKnowledgeBase } from "./fixtures.ts";
import { call, callDiscoverableAgent, createEnvironment, jsonArgs, tableSize } from "./helpers.ts";

const giveDispute = { discoverable_tool_name: "submit_cash_back_dispute_0589" };
const submitDispute = {
  discoverable_tool_name: "submit_cash_back_dispute_0589",
  arguments: jsonArgs({ user_id: "user_001", transaction_id: "txn_001" }),
};

describe("TestCompleteDisputeFlow", () => {
  it("test_full_dispute_flow_auto_resolve", () => {
    const env = createEnvironment(baseKnowledgeBase());
    // Step 1: log verification
    let resp = call(env, "log_verification", {
      name: "Amara Okonkwo",
      user_id: "user_001",
      address: "305 Magnolia Street, Houston, TX 77002",
      email: "amara@icloud.com",
      phone_number: "713-555-0963",
      date_of_birth: "08/11/1997",
      time_verified: "2025-11-14 03:40:00 EST",
    });
    expect(resp.error).toBe(false);
    expect(tableSize(env, "verification_history")).toBe(1);
    // Step 2: the agent gives the dispute tool to the user
    resp = call(env, "give_discoverable_user_tool", giveDispute);
    expect(resp.error).toBe(false);
    expect(tableSize(env, "user_discoverable_tools")).toBe(1);
    // Step 3: the user submits the dispute (auto-resolved)
    resp = call(env, "call_discoverable_user_tool", submitDispute, "user");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("RESOLVED");
    expect(tableSize(env, "cash_back_disputes")).toBe(1);
    // Step 4: the agent unlocks the update tool
    resp = call(env, "unlock_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
    });
    expect(resp.error).toBe(false);
    // Step 5: the agent updates the rewards; the write is logged once
    resp = call(env, "call_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
      arguments: jsonArgs({ transaction_id: "txn_001", new_rewards_earned: "500 points" }),
    });
    expect(resp.error).toBe(false);
    expect(
      (env.agent.get("credit_card_transaction_history", "txn_001") as { rewards_earned: string })
        .rewards_earned,
    ).toBe("500 points");
    expect(tableSize(env, "agent_discoverable_tools")).toBe(1);
  });

  it("test_adversarial_dispute_flow_no_auto_resolve", () => {
    const env = createEnvironment(
      baseKnowledgeBase({
        task_config: { data: { dispute_settings: { auto_resolve_disputes: false } }, notes: "" },
      }),
    );
    call(env, "give_discoverable_user_tool", giveDispute);
    const resp = call(env, "call_discoverable_user_tool", submitDispute, "user");
    expect(resp.content).toContain("SUBMITTED");
    const disputes = env.agent.values("cash_back_disputes");
    const dispute = disputes[0] as Record<string, unknown>;
    expect(dispute.status).toBe("SUBMITTED");
    expect("resolution" in dispute).toBe(false);
  });
});

describe("TestUpdateTransactionRewards, through the dispatcher", () => {
  it("test_update_success: the call is logged to agent_discoverable_tools", () => {
    const env = createEnvironment(baseKnowledgeBase());
    const resp = callDiscoverableAgent(env, "update_transaction_rewards_3847", {
      transaction_id: "txn_001",
      new_rewards_earned: "500 points",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("updated successfully");
    expect(tableSize(env, "agent_discoverable_tools")).toBe(1);
  });
});
