/**
 * tau2's own tests of the bank-account tools (tests/test_domains/test_banking_knowledge/
 * test_tools_knowledge.py: TestValidatePin, TestOpenBankAccount, TestCloseBankAccount,
 * TestTransferFundsBetweenAccounts, TestApplyCheckingAccountCredit, TestApplySavingsAccountCredit, the
 * account tools of TestReadOnlyDiscoverableAgentTools, the parity classes and the agent-tool cases of
 * TestNumericArgumentNormalization), one vitest case per Python test, same fixture and assertions.
 */
import { describe, expect, it } from "vitest";
import { validatePin } from "../../../src/domains/banking_knowledge/agent-tools/accounts.ts";
import { PyFloat } from "../../../src/py/value.ts";
import { baseKnowledgeDb } from "./fixtures.ts";
import { callAgent, dispatchJson, rec, setField } from "./helpers.ts";

describe("TestValidatePin", () => {
  it("test_valid_pin", () => expect(validatePin("5823")).toBeNull());
  it("test_valid_pin_with_zero", () => expect(validatePin("0571")).toBeNull());
  it("test_too_short", () => expect(validatePin("123")).toContain("4 digits"));
  it("test_too_long", () => expect(validatePin("12345")).toContain("4 digits"));
  it("test_non_digits", () => expect(validatePin("12ab")).toContain("4 digits"));
  it("test_empty_string", () => expect(validatePin("")).not.toBeNull());
  it("test_sequential_ascending", () => expect(validatePin("1234")?.toLowerCase()).toContain("sequential"));
  it("test_sequential_descending", () => expect(validatePin("4321")?.toLowerCase()).toContain("sequential"));
  it("test_sequential_high", () => expect(validatePin("6789")?.toLowerCase()).toContain("sequential"));
  it("test_all_same_digits", () => expect(validatePin("1111")?.toLowerCase()).toContain("same digit"));
  it("test_all_zeros", () => expect(validatePin("0000")?.toLowerCase()).toContain("same digit"));
  it("test_two_repeated_digits_ok", () => expect(validatePin("1122")).toBeNull());
});

describe("TestOpenBankAccount", () => {
  it("test_open_checking_success", () => {
    const resp = callAgent(baseKnowledgeDb(), "open_bank_account_4821", {
      user_id: "user_002",
      account_type: "checking",
      account_class: "Standard Checking",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("opened successfully");
  });

  it("test_open_savings_success", () => {
    const resp = callAgent(baseKnowledgeDb(), "open_bank_account_4821", {
      user_id: "user_002",
      account_type: "savings",
      account_class: "High-Yield Savings",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("opened successfully");
  });

  it("test_open_invalid_type", () => {
    const resp = callAgent(baseKnowledgeDb(), "open_bank_account_4821", {
      user_id: "user_001",
      account_type: "crypto_wallet",
      account_class: "Test",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid account_type");
  });
});

describe("TestCloseBankAccount", () => {
  it("test_close_zero_balance_success", () => {
    const db = baseKnowledgeDb();
    callAgent(db, "close_bank_account_7392", { account_id: "chk_closed" });
    // Account already closed might cause issues; re-open it first (as the Python test does).
    setField(db, "accounts", "chk_closed", "status", "OPEN");
    const resp = callAgent(db, "close_bank_account_7392", { account_id: "chk_closed" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("closed successfully");
  });

  it("test_close_nonzero_balance_fails", () => {
    const resp = callAgent(baseKnowledgeDb(), "close_bank_account_7392", { account_id: "chk_001" });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("balance");
  });

  it("test_close_nonexistent_account", () => {
    const resp = callAgent(baseKnowledgeDb(), "close_bank_account_7392", { account_id: "acct_nonexistent" });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });
});

describe("TestTransferFundsBetweenAccounts", () => {
  const transfer = (src: string, dst: string, amount: number) => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "transfer_funds_between_bank_accounts_7291", {
      source_account_id: src,
      destination_account_id: dst,
      amount,
    });
    return { db, resp };
  };

  it("test_transfer_success", () => {
    const { db, resp } = transfer("chk_001", "chk_002", 1000.0);
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Transfer completed successfully");
    expect(rec(db, "accounts", "chk_001").current_holdings).toBe("$4000.00");
    expect(rec(db, "accounts", "chk_002").current_holdings).toBe("$1200.00");
  });

  it("test_transfer_insufficient_funds", () => {
    const { resp } = transfer("chk_002", "chk_001", 99999.0);
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Insufficient funds");
  });

  it("test_transfer_source_not_found", () => {
    const { resp } = transfer("acct_fake", "chk_001", 100.0);
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_transfer_destination_not_found", () => {
    const { resp } = transfer("chk_001", "acct_fake", 100.0);
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_transfer_zero_amount", () => {
    const { resp } = transfer("chk_001", "chk_002", 0);
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });
});

describe("TestApplyCheckingAccountCredit", () => {
  const credit = (accountId: string, amount: number, creditType: string) => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "apply_checking_account_credit_5829", {
      account_id: accountId,
      amount,
      credit_type: creditType,
    });
    return { db, resp };
  };

  it("test_apply_rebate_credit", () => {
    const { db, resp } = credit("chk_001", 15.0, "rebate_credit");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Credit applied");
    expect(rec(db, "accounts", "chk_001").current_holdings).toBe("$5015.00");
  });

  it("test_apply_fee_refund", () => {
    const { resp } = credit("chk_001", 10.0, "fee_refund");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Credit applied");
  });

  it("test_apply_invalid_credit_type", () => {
    const { resp } = credit("chk_001", 10.0, "magic_money");
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid credit_type");
  });

  it("test_apply_credit_account_not_found", () => {
    const { resp } = credit("acct_nonexistent", 10.0, "fee_refund");
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_apply_credit_negative_amount", () => {
    const { resp } = credit("chk_001", -5.0, "fee_refund");
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });
});

describe("TestApplySavingsAccountCredit", () => {
  const credit = (amount: number, creditType: string) => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "apply_savings_account_credit_6831", {
      account_id: "sav_001",
      amount,
      credit_type: creditType,
    });
    return { db, resp };
  };

  it("test_apply_interest_correction", () => {
    const { db, resp } = credit(25.5, "interest_correction");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Credit applied");
    expect(rec(db, "accounts", "sav_001").current_holdings).toBe("10025.50");
  });

  it("test_apply_goodwill_credit", () => {
    expect(credit(50.0, "goodwill_credit").resp.error).toBe(false);
  });

  it("test_apply_invalid_type", () => {
    const { resp } = credit(10.0, "bonus_credit");
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid credit_type");
  });
});

describe("TestReadOnlyDiscoverableAgentTools (account tools)", () => {
  it("test_get_all_user_accounts", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_all_user_accounts_by_user_id_3847", {
      user_id: "user_001",
    });
    expect(resp.error).toBe(false);
    expect(resp.content.toLowerCase()).toContain("accounts retrieved");
  });

  it("test_get_all_user_accounts_empty", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_all_user_accounts_by_user_id_3847", {
      user_id: "nonexistent_user",
    });
    expect(resp.error).toBe(false);
  });

  it("test_get_bank_account_transactions", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_bank_account_transactions_9173", {
      account_id: "chk_001",
    });
    expect(resp.error).toBe(false);
    expect(resp.content.toLowerCase()).toContain("transactions");
  });

  it("test_get_bank_account_transactions_reverse_chronological", () => {
    const db = baseKnowledgeDb();
    const txn = (id: string, date: string) => ({
      transaction_id: id,
      account_id: "chk_001",
      date,
      description: "TEST TRANSACTION",
      amount: new PyFloat(-10.0),
      type: "debit_card_purchase",
      status: "posted",
    });
    // Inserted deliberately out of chronological order, with a same-date pair and a timestamped date.
    for (const [id, date] of [
      ["btxn_dup_first", "11/11/2025"],
      ["btxn_dup_second", "11/11/2025"],
      ["btxn_oldest", "11/01/2025"],
      ["btxn_newest", "11/13/2025"],
      ["btxn_timestamped", "11/12/2025 14:30:00"],
    ] as const) {
      db.put("bank_account_transaction_history", id, txn(id, date));
    }
    const resp = callAgent(db, "get_bank_account_transactions_9173", { account_id: "chk_001" });
    expect(resp.error).toBe(false);
    const listed = resp.content
      .split("\n")
      .filter((l) => l.includes("Record ID:"))
      .map((l) => (l.split("Record ID:")[1] as string).trim());
    // Most recent first; same-date records keep their stored order.
    expect(listed).toEqual([
      "btxn_newest",
      "btxn_timestamped",
      "btxn_dup_first",
      "btxn_dup_second",
      "btxn_oldest",
    ]);
  });
});

describe("TestApplyCheckingAccountCreditParity", () => {
  it("test_credit_to_savings_account_rejected", () => {
    const resp = callAgent(baseKnowledgeDb(), "apply_checking_account_credit_5829", {
      account_id: "sav_001",
      amount: 100.0,
      credit_type: "rebate_credit",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("checking");
  });

  it("test_credit_to_closed_account_rejected", () => {
    const resp = callAgent(baseKnowledgeDb(), "apply_checking_account_credit_5829", {
      account_id: "chk_closed",
      amount: 50.0,
      credit_type: "fee_refund",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase().includes("not active") || resp.content.includes("CLOSED")).toBe(true);
  });

  it("test_credit_creates_transaction_record", () => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "apply_checking_account_credit_5829", {
      account_id: "chk_001",
      amount: 100.0,
      credit_type: "rebate_credit",
    });
    expect(resp.error).toBe(false);
    expect(db.keys("bank_account_transaction_history").length).toBeGreaterThan(0);
  });
});

describe("TestApplySavingsAccountCreditParity", () => {
  it("test_credit_to_checking_account_rejected", () => {
    const resp = callAgent(baseKnowledgeDb(), "apply_savings_account_credit_6831", {
      account_id: "chk_001",
      amount: 100.0,
      credit_type: "fee_refund",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("savings");
  });

  it("test_credit_to_closed_savings_rejected", () => {
    const db = baseKnowledgeDb();
    setField(db, "accounts", "sav_001", "status", "CLOSED");
    const resp = callAgent(db, "apply_savings_account_credit_6831", {
      account_id: "sav_001",
      amount: 50.0,
      credit_type: "fee_refund",
    });
    expect(resp.content).toContain("Error");
  });

  it("test_credit_creates_transaction_record", () => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "apply_savings_account_credit_6831", {
      account_id: "sav_001",
      amount: 100.0,
      credit_type: "fee_refund",
    });
    expect(resp.error).toBe(false);
    expect(db.keys("bank_account_transaction_history").length).toBeGreaterThan(0);
  });
});

describe("TestSubmitInterestDiscrepancyReportParity", () => {
  it("test_account_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "submit_interest_discrepancy_report_7294", {
      account_id: "acct_nonexistent",
      user_id: "user_001",
      expected_apy: 2.5,
      actual_apy: 1.5,
      amount_difference: 50.0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("not found");
  });

  it("test_user_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "submit_interest_discrepancy_report_7294", {
      account_id: "sav_001",
      user_id: "user_nonexistent",
      expected_apy: 2.5,
      actual_apy: 1.5,
      amount_difference: 50.0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("not found");
  });
});

describe("TestNumericArgumentNormalization (account tools)", () => {
  /** `_env_after_agent_call`: a fresh DB, one call that must not fail. */
  const afterCall = (name: string, argumentsJson: string) => {
    const db = baseKnowledgeDb();
    const resp = dispatchJson(name, db, argumentsJson);
    expect(resp.error || resp.content.includes("Error"), resp.content).toBe(false);
    return db;
  };

  it("test_savings_credit_amount_spelling", () => {
    const asFloat = afterCall(
      "apply_savings_account_credit_6831",
      '{"account_id": "sav_001", "amount": 33.00, "credit_type": "interest_correction"}',
    );
    const asInt = afterCall(
      "apply_savings_account_credit_6831",
      '{"account_id": "sav_001", "amount": 33, "credit_type": "interest_correction"}',
    );
    expect(asFloat.hash()).toBe(asInt.hash());
  });

  it("test_checking_credit_amount_spelling", () => {
    const asFloat = afterCall(
      "apply_checking_account_credit_5829",
      '{"account_id": "chk_001", "amount": 14.00, "credit_type": "fee_refund"}',
    );
    const asInt = afterCall(
      "apply_checking_account_credit_5829",
      '{"account_id": "chk_001", "amount": 14, "credit_type": "fee_refund"}',
    );
    expect(asFloat.hash()).toBe(asInt.hash());
  });
});
