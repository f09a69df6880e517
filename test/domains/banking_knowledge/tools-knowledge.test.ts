/**
 * tau2's test_tools_knowledge.py, the classes of the core agent tools and the discoverable-tool
 * dispatchers: same test names, fixture data and assertions (`environment` = a fresh test env over
 * `base_knowledge_db`).
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Environment } from "../../../src/replay/environment.ts";
import { baseKnowledgeBase } from "./fixtures.ts";
import { call, createEnvironment, jsonArgs, record, tableSize } from "./helpers.ts";

let environment: Environment;
beforeEach(() => {
  environment = createEnvironment(baseKnowledgeBase());
});

describe("TestGetUserInformation", () => {
  it("test_get_user_by_id_found", () => {
    const resp = call(environment, "get_user_information_by_id", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Amara Okonkwo");
    expect(resp.content).toContain("amara@icloud.com");
  });

  it("test_get_user_by_id_not_found", () => {
    const resp = call(environment, "get_user_information_by_id", { user_id: "nonexistent" });
    expect(resp.content).toContain("No records found");
  });

  it("test_get_user_by_name_found", () => {
    const resp = call(environment, "get_user_information_by_name", { customer_name: "Fatima Al-Hassan" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("user_002");
    expect(resp.content).toContain("fatima@protonmail.com");
  });

  it("test_get_user_by_name_not_found", () => {
    const resp = call(environment, "get_user_information_by_name", { customer_name: "Nobody" });
    expect(resp.content).toContain("No records found");
  });

  it("test_get_user_by_name_case_sensitive", () => {
    const resp = call(environment, "get_user_information_by_name", { customer_name: "amara okonkwo" });
    expect(resp.content).toContain("No records found");
  });

  it("test_get_user_by_email_found", () => {
    const resp = call(environment, "get_user_information_by_email", { email: "amara@icloud.com" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Amara Okonkwo");
  });

  it("test_get_user_by_email_not_found", () => {
    const resp = call(environment, "get_user_information_by_email", { email: "nobody@test.com" });
    expect(resp.content).toContain("No records found");
  });
});

describe("TestChangeUserEmail", () => {
  it("test_change_email_success", () => {
    const resp = call(environment, "change_user_email", {
      user_id: "user_001",
      new_email: "newemail@test.com",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Email updated successfully");
    expect(resp.content).toContain("newemail@test.com");
    expect(record(environment, "users", "user_001").email).toBe("newemail@test.com");
  });

  it("test_change_email_user_not_found", () => {
    const resp = call(environment, "change_user_email", {
      user_id: "nonexistent",
      new_email: "test@test.com",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });
});

describe("TestGetCurrentTime", () => {
  it("test_returns_fixed_time", () => {
    const resp = call(environment, "get_current_time", {});
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("2025-11-14 03:40:00 EST");
  });
});

describe("TestTransferToHumanAgents", () => {
  it("test_valid_transfer_reason", () => {
    const resp = call(environment, "transfer_to_human_agents", {
      summary: "Customer needs help with fraud",
      reason: "fraud_or_security_concern",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Transfer successful");
    expect(resp.content).toContain("fraud_or_security_concern");
  });

  it("test_default_other_reason", () => {
    const resp = call(environment, "transfer_to_human_agents", {
      summary: "General request",
      reason: "other",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Transfer successful");
  });

  it("test_invalid_transfer_reason", () => {
    const resp = call(environment, "transfer_to_human_agents", {
      summary: "Test",
      reason: "totally_invalid_reason",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid transfer reason");
  });
});

const AMARA_VERIFICATION = {
  name: "Amara Okonkwo",
  user_id: "user_001",
  address: "305 Magnolia Street, Houston, TX 77002",
  email: "amara@icloud.com",
  phone_number: "713-555-0963",
  date_of_birth: "08/11/1997",
  time_verified: "2025-11-14 03:40:00 EST",
};

describe("TestLogVerification", () => {
  it("test_log_verification_success", () => {
    const resp = call(environment, "log_verification", AMARA_VERIFICATION);
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Verification logged successfully");
    expect(tableSize(environment, "verification_history")).toBe(1);
  });

  it("test_log_verification_duplicate", () => {
    call(environment, "log_verification", AMARA_VERIFICATION);
    const resp = call(environment, "log_verification", AMARA_VERIFICATION);
    expect(resp.content.includes("Failed") || resp.content.includes("already exist")).toBe(true);
  });
});

describe("TestGetReferralsByUser", () => {
  it("test_get_referrals_found", () => {
    const resp = call(environment, "get_referrals_by_user", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("ref_001");
    expect(resp.content).toContain("Gold Rewards Card");
  });

  it("test_get_referrals_none", () => {
    const resp = call(environment, "get_referrals_by_user", { user_id: "user_002" });
    expect(resp.content).toContain("No records found");
  });
});

describe("TestGetCreditCardTransactionsByUser", () => {
  it("test_get_transactions_found", () => {
    const resp = call(environment, "get_credit_card_transactions_by_user", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("txn_001");
    expect(resp.content).toContain("txn_002");
    expect(resp.content).toContain("Amazon");
    expect(resp.content).toContain("Delta Airlines");
  });

  it("test_get_transactions_none", () => {
    const resp = call(environment, "get_credit_card_transactions_by_user", { user_id: "nonexistent" });
    expect(resp.content).toContain("No records found");
  });
});

describe("TestGetCreditCardAccountsByUser", () => {
  it("test_get_accounts_found", () => {
    const resp = call(environment, "get_credit_card_accounts_by_user", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("cc_001");
    expect(resp.content).toContain("Gold Rewards Card");
  });

  it("test_get_accounts_none", () => {
    const resp = call(environment, "get_credit_card_accounts_by_user", { user_id: "nonexistent" });
    expect(resp.content).toContain("No records found");
  });
});

describe("TestGiveDiscoverableUserTool", () => {
  it("test_give_valid_tool", () => {
    const resp = call(environment, "give_discoverable_user_tool", {
      discoverable_tool_name: "submit_cash_back_dispute_0589",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Tool given to user");
    expect(tableSize(environment, "user_discoverable_tools")).toBe(1);
  });

  it("test_give_unknown_tool", () => {
    const resp = call(environment, "give_discoverable_user_tool", {
      discoverable_tool_name: "nonexistent_tool",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Unknown discoverable tool");
  });

  it("test_give_tool_with_invalid_args", () => {
    const resp = call(environment, "give_discoverable_user_tool", {
      discoverable_tool_name: "submit_cash_back_dispute_0589",
      arguments: '{"bogus_param": "value"}',
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Unexpected parameter");
  });
});

describe("TestUnlockDiscoverableAgentTool", () => {
  it("test_unlock_valid_tool", () => {
    const resp = call(environment, "unlock_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Tool unlocked");
    // DB should NOT have a record yet (only on call)
    expect(tableSize(environment, "agent_discoverable_tools")).toBe(0);
  });

  it("test_unlock_unknown_tool", () => {
    const resp = call(environment, "unlock_discoverable_agent_tool", {
      agent_tool_name: "nonexistent_tool_9999",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Unknown agent tool");
  });
});

describe("TestCallDiscoverableAgentTool", () => {
  it("test_call_without_unlock_fails", () => {
    const resp = call(environment, "call_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
      arguments: jsonArgs({ transaction_id: "txn_001", new_rewards_earned: "500 points" }),
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("has not been unlocked");
  });

  it("test_call_unknown_tool", () => {
    const resp = call(environment, "call_discoverable_agent_tool", {
      agent_tool_name: "fake_tool_1234",
      arguments: "{}",
    });
    expect(resp.content).toContain("Error");
  });

  it("test_call_with_invalid_json", () => {
    call(environment, "unlock_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
    });
    const resp = call(environment, "call_discoverable_agent_tool", {
      agent_tool_name: "update_transaction_rewards_3847",
      arguments: "not valid json {{{",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid JSON");
  });
});

/** The dispatcher (agent) side of TestNumericArgumentNormalization: a number's spelling must not matter. */
describe("TestNumericArgumentNormalization", () => {
  const freshEnv = () => createEnvironment(baseKnowledgeBase());

  function envAfterAgentCall(tool: string, argumentsJson: string): Environment {
    const env = freshEnv();
    let resp = call(env, "unlock_discoverable_agent_tool", { agent_tool_name: tool });
    expect(resp.error, resp.content).toBe(false);
    resp = call(env, "call_discoverable_agent_tool", { agent_tool_name: tool, arguments: argumentsJson });
    expect(!resp.error && !resp.content.includes("Error"), resp.content).toBe(true);
    return env;
  }

  it("test_savings_credit_amount_spelling", () => {
    const envFloat = envAfterAgentCall(
      "apply_savings_account_credit_6831",
      '{"account_id": "sav_001", "amount": 33.00, "credit_type": "interest_correction"}',
    );
    const envInt = envAfterAgentCall(
      "apply_savings_account_credit_6831",
      '{"account_id": "sav_001", "amount": 33, "credit_type": "interest_correction"}',
    );
    expect(envFloat.agentHash()).toBe(envInt.agentHash());
  });

  it("test_checking_credit_amount_spelling", () => {
    const envFloat = envAfterAgentCall(
      "apply_checking_account_credit_5829",
      '{"account_id": "chk_001", "amount": 14.00, "credit_type": "fee_refund"}',
    );
    const envInt = envAfterAgentCall(
      "apply_checking_account_credit_5829",
      '{"account_id": "chk_001", "amount": 14, "credit_type": "fee_refund"}',
    );
    expect(envFloat.agentHash()).toBe(envInt.agentHash());
  });

  it("test_cli_request_amount_spelling", () => {
    const responses: string[] = [];
    const hashes: string[] = [];
    for (const spelling of ["2500", "2500.0"]) {
      const env = freshEnv();
      let resp = call(env, "unlock_discoverable_agent_tool", {
        agent_tool_name: "submit_credit_limit_increase_request_7392",
      });
      expect(resp.error, resp.content).toBe(false);
      resp = call(env, "call_discoverable_agent_tool", {
        agent_tool_name: "submit_credit_limit_increase_request_7392",
        arguments: `{"credit_card_account_id": "cc_001", "user_id": "user_001", "requested_increase_amount": ${spelling}}`,
      });
      expect(!resp.error && !resp.content.includes("Error"), resp.content).toBe(true);
      responses.push(resp.content);
      hashes.push(env.agentHash());
    }
    expect(hashes[0]).toBe(hashes[1]);
    // The tool normalizes to int (its documented type): the response does not leak the spelling.
    expect(responses[0]).toBe(responses[1]);
    expect(responses[0]).toContain("$2,500");
    expect(responses[0]).not.toContain("$2,500.0");
  });

  it("test_cli_request_fractional_amount_rejected", () => {
    const env = freshEnv();
    const resp0 = call(env, "unlock_discoverable_agent_tool", {
      agent_tool_name: "submit_credit_limit_increase_request_7392",
    });
    expect(resp0.error, resp0.content).toBe(false);
    const before = env.agent.dump().credit_limit_increase_requests;
    const resp = call(env, "call_discoverable_agent_tool", {
      agent_tool_name: "submit_credit_limit_increase_request_7392",
      arguments:
        '{"credit_card_account_id": "cc_001", "user_id": "user_001", "requested_increase_amount": 2500.5}',
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("whole number");
    expect(env.agent.dump().credit_limit_increase_requests).toEqual(before);
  });

  it("test_debit_limit_fractional_amount_rejected", () => {
    const env = freshEnv();
    env.agent.mut("debit_cards", "dbc_002").daily_atm_limit = 500;
    let resp = call(env, "unlock_discoverable_agent_tool", {
      agent_tool_name: "request_temporary_debit_card_limit_increase_8374",
    });
    expect(resp.error, resp.content).toBe(false);
    resp = call(env, "call_discoverable_agent_tool", {
      agent_tool_name: "request_temporary_debit_card_limit_increase_8374",
      arguments: '{"card_id": "dbc_002", "limit_type": "atm", "new_limit": 700.5}',
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("must be an integer");
    let card = record(env, "debit_cards", "dbc_002");
    expect(card.daily_atm_limit).toBe(500);
    expect(Object.hasOwn(card, "temporary_atm_limit_increase")).toBe(false);
    // A whole-valued float is just another spelling: it succeeds and stores the documented int.
    resp = call(env, "call_discoverable_agent_tool", {
      agent_tool_name: "request_temporary_debit_card_limit_increase_8374",
      arguments: '{"card_id": "dbc_002", "limit_type": "atm", "new_limit": 700.0}',
    });
    expect(!resp.error && !resp.content.includes("Error"), resp.content).toBe(true);
    card = record(env, "debit_cards", "dbc_002");
    expect(card.daily_atm_limit).toBe(700);
  });
});
