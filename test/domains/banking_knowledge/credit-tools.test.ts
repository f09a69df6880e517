/**
 * tau2's test_tools_knowledge.py cases for the credit/dispute discoverable tools, one vitest case per
 * Python test with the same name, fixture and assertions. Arguments are passed as the Python helper
 * `call_discoverable_agent` passes them (JSON numbers become floats). Exact texts and ids added here
 * are derived by hand from tau2's source (ids: sha256 of the seed strings of utils.py).
 * Not here (they need the dispatcher, owned by the core part): the `agent_discoverable_tools` log
 * count asserted by test_update_success and test_full_dispute_flow_auto_resolve.
 */
import { describe, expect, it } from "vitest";
import type { PyDict } from "../../../src/py/value.ts";
import { baseKnowledgeDb } from "./fixtures.ts";
import { callAgentTool as call, typed } from "./helpers.ts";

const ccDisputeArgs = (over: PyDict): PyDict => ({
  transaction_id: "txn_001",
  card_action: "keep_active",
  card_last_4_digits: "1234",
  full_name: "Amara Okonkwo",
  user_id: "user_001",
  phone: "713-555-0963",
  email: "amara@icloud.com",
  address: "305 Magnolia Street, Houston, TX 77002",
  contacted_merchant: true,
  purchase_date: "10/01/2025",
  issue_noticed_date: "10/15/2025",
  dispute_reason: "unauthorized_fraudulent_charge",
  resolution_requested: "full_refund",
  eligible_for_provisional_credit: true,
  ...over,
});

describe("TestUpdateTransactionRewards", () => {
  it("test_update_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "update_transaction_rewards_3847", {
      transaction_id: "txn_001",
      new_rewards_earned: "500 points",
    });
    expect(resp.error).toBe(false);
    expect(
      resp.content.includes("Transaction updated") || resp.content.includes("updated successfully"),
    ).toBe(true);
    expect((db.get("credit_card_transaction_history", "txn_001") as PyDict).rewards_earned).toBe(
      "500 points",
    );
    expect(resp.content).toBe(
      "Transaction rewards updated successfully.\n\n" +
        "Executed: update_transaction_rewards_3847\n" +
        'Arguments: {\n  "transaction_id": "txn_001",\n  "new_rewards_earned": "500 points"\n}\n' +
        "Transaction updated:\n" +
        "  - Transaction ID: txn_001\n" +
        "  - New Rewards: 500 points",
    );
  });

  it("test_update_nonexistent_transaction", () => {
    const resp = call(baseKnowledgeDb(), "update_transaction_rewards_3847", {
      transaction_id: "txn_nonexistent",
      new_rewards_earned: "100 points",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
    expect(resp.content).toBe("Error: Transaction 'txn_nonexistent' not found.");
  });
});

describe("TestFileCreditCardTransactionDispute", () => {
  it("test_file_dispute_full_refund", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "file_credit_card_transaction_dispute_4829", ccDisputeArgs({}));
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("filed successfully");
    expect(db.keys("transaction_disputes").length).toBe(1);
    expect(resp.content).toBe(
      [
        "Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 business days.",
        "",
        "Executed: file_credit_card_transaction_dispute_4829",
        "Dispute ID: dsp_44fede7d6bc1",
        "Transaction: txn_001",
        "Reason: Unauthorized Fraudulent Charge",
        "Resolution Requested: Full Refund",
        "Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days.",
      ].join("\n"),
    );
    const record = db.get("transaction_disputes", "dsp_44fede7d6bc1");
    expect(Object.keys(record as PyDict)).toEqual([
      "dispute_id",
      "transaction_id",
      "user_id",
      "card_action",
      "card_last_4_digits",
      "full_name",
      "phone",
      "email",
      "address",
      "contacted_merchant",
      "purchase_date",
      "issue_noticed_date",
      "dispute_reason",
      "resolution_requested",
      "partial_refund_amount",
      "eligible_for_provisional_credit",
      "provisional_credit_given",
      "submitted_at",
      "status",
    ]);
    expect(typed(record)).toMatchObject({
      partial_refund_amount: null,
      provisional_credit_given: true,
      submitted_at: "11/14/2025",
      status: "SUBMITTED",
    });
  });

  it("test_file_dispute_partial_refund_requires_amount", () => {
    const resp = call(
      baseKnowledgeDb(),
      "file_credit_card_transaction_dispute_4829",
      ccDisputeArgs({
        address: "305 Magnolia Street",
        contacted_merchant: false,
        dispute_reason: "incorrect_amount",
        resolution_requested: "partial_refund",
        eligible_for_provisional_credit: false,
      }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("partial_refund_amount");
    expect(resp.content).toBe(
      "Error: partial_refund_amount is required when resolution_requested is 'partial_refund'.",
    );
  });

  it("test_file_dispute_partial_refund_with_amount", () => {
    const db = baseKnowledgeDb();
    const resp = call(
      db,
      "file_credit_card_transaction_dispute_4829",
      ccDisputeArgs({
        transaction_id: "txn_002",
        card_action: "cancel_and_reissue",
        card_last_4_digits: "5678",
        address: "305 Magnolia Street",
        purchase_date: "10/15/2025",
        issue_noticed_date: "10/20/2025",
        dispute_reason: "incorrect_amount",
        resolution_requested: "partial_refund",
        partial_refund_amount: 100.0,
      }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("filed successfully");
    expect(resp.content.split("\n").slice(3)).toEqual([
      "Dispute ID: dsp_ed2bfd7c4c50",
      "Transaction: txn_002",
      "Reason: Incorrect Amount",
      "Resolution Requested: Partial Refund",
      "Partial Refund Amount: $100.00",
      "Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days.",
    ]);
    // The amount came through JSON as a float.
    expect(
      typed((db.get("transaction_disputes", "dsp_ed2bfd7c4c50") as PyDict).partial_refund_amount),
    ).toEqual({
      float: 100,
    });
  });

  it("test_file_dispute_invalid_reason", () => {
    const resp = call(
      baseKnowledgeDb(),
      "file_credit_card_transaction_dispute_4829",
      ccDisputeArgs({
        full_name: "Test User",
        phone: "555-1234",
        email: "test@test.com",
        address: "123 Main St",
        contacted_merchant: false,
        dispute_reason: "invalid_reason",
        eligible_for_provisional_credit: false,
      }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid dispute_reason");
    expect(resp.content).toBe(
      "Error: Invalid dispute_reason. Must be one of: ['unauthorized_fraudulent_charge', 'duplicate_charge', " +
        "'incorrect_amount', 'goods_services_not_received', 'goods_services_not_as_described', " +
        "'canceled_subscription_still_charging', 'refund_never_processed']",
    );
  });

  it("test_file_dispute_invalid_card_action", () => {
    const resp = call(
      baseKnowledgeDb(),
      "file_credit_card_transaction_dispute_4829",
      ccDisputeArgs({
        card_action: "destroy_card",
        full_name: "Test User",
        phone: "555-1234",
        email: "test@test.com",
        address: "123 Main St",
        contacted_merchant: false,
        eligible_for_provisional_credit: false,
      }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid card_action");
    expect(resp.content).toBe(
      "Error: Invalid card_action. Must be one of: ['keep_active', 'cancel_and_reissue']",
    );
  });
});

const debitDisputeArgs = (over: PyDict): PyDict => ({
  transaction_id: "txn_debit_001",
  account_id: "chk_001",
  card_id: "dbc_002",
  user_id: "user_001",
  dispute_category: "unauthorized_transaction",
  transaction_date: "11/01/2025",
  discovery_date: "11/05/2025",
  disputed_amount: 250.0,
  transaction_type: "pin_purchase",
  card_in_possession: true,
  pin_compromised: "no",
  contacted_merchant: true,
  police_report_filed: false,
  written_statement_provided: true,
  provisional_credit_eligible: true,
  customer_max_liability_amount: 50.0,
  card_action: "keep_active",
  ...over,
});

describe("TestFileDebitCardTransactionDispute", () => {
  it("test_file_debit_dispute_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "file_debit_card_transaction_dispute_6281", debitDisputeArgs({}));
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Dispute ID:");
    expect(db.keys("debit_card_disputes").length).toBe(1);
    expect(resp.content).toBe(
      [
        "Dispute ID: dsp_7aa8b7842529",
        "Transaction: txn_debit_001",
        "Account: chk_001",
        "Category: Unauthorized Transaction",
        "Disputed Amount: $250.00",
        "Card Action: Keep Active",
        "Provisional Credit: ISSUED - $250.00 credited within 10 business days per Regulation E.",
      ].join("\n"),
    );
    expect(typed(db.get("debit_card_disputes", "dsp_7aa8b7842529"))).toEqual({
      dispute_id: "dsp_7aa8b7842529",
      transaction_id: "txn_debit_001",
      account_id: "chk_001",
      card_id: "dbc_002",
      user_id: "user_001",
      dispute_category: "unauthorized_transaction",
      transaction_date: "11/01/2025",
      discovery_date: "11/05/2025",
      disputed_amount: { float: 250 },
      transaction_type: "pin_purchase",
      card_in_possession: true,
      pin_compromised: "no",
      contacted_merchant: true,
      police_report_filed: false,
      written_statement_provided: true,
      provisional_credit_eligible: true,
      provisional_credit_issued: true,
      provisional_credit_amount: { float: 250 },
      customer_max_liability_amount: { float: 50 },
      card_action: "keep_active",
      is_fraud_category: true,
      pin_shared_voluntarily: false,
      submitted_at: "11/14/2025",
      status: "OPEN",
    });
  });

  it("test_file_debit_dispute_invalid_category", () => {
    const resp = call(
      baseKnowledgeDb(),
      "file_debit_card_transaction_dispute_6281",
      debitDisputeArgs({
        transaction_id: "txn_debit_002",
        dispute_category: "invalid_category",
        disputed_amount: 100.0,
        contacted_merchant: false,
        written_statement_provided: false,
        provisional_credit_eligible: false,
        customer_max_liability_amount: 0,
      }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid dispute_category");
  });
});

describe("TestSetDebitCardRecurringBlock", () => {
  it("test_block_recurring", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "set_debit_card_recurring_block_7382", {
      card_id: "dbc_002",
      block_recurring: true,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("BLOCKED");
    expect((db.get("debit_cards", "dbc_002") as PyDict).recurring_blocked).toBe(true);
    expect(resp.content).toBe(
      "Recurring payments BLOCKED for debit card dbc_002.\n" +
        "All recurring/subscription charges will be declined.\n" +
        "One-time purchases are not affected.\n" +
        "This change takes effect within 24 hours.",
    );
  });

  it("test_unblock_recurring", () => {
    const db = baseKnowledgeDb();
    db.mut("debit_cards", "dbc_002").recurring_blocked = true;
    const resp = call(db, "set_debit_card_recurring_block_7382", {
      card_id: "dbc_002",
      block_recurring: false,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("UNBLOCKED");
    expect((db.get("debit_cards", "dbc_002") as PyDict).recurring_blocked).toBe(false);
  });

  it("test_block_nonexistent_card", () => {
    const resp = call(baseKnowledgeDb(), "set_debit_card_recurring_block_7382", {
      card_id: "dbc_nonexistent",
      block_recurring: true,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
    expect(resp.content).toBe("Error: Debit card 'dbc_nonexistent' not found.");
  });
});

describe("TestOrderReplacementCreditCard", () => {
  it("test_order_replacement_invalid_reason", () => {
    const resp = call(baseKnowledgeDb(), "order_replacement_credit_card_7291", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      shipping_address: "123 Main St",
      reason: "bored_of_design",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid reason");
  });

  it("test_order_replacement_account_not_found", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "order_replacement_credit_card_7291", {
      credit_card_account_id: "cc_nonexistent",
      user_id: "user_001",
      shipping_address: "123 Main St",
      reason: "lost",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
    expect(db.keys("credit_card_orders")).toEqual([]);
  });
});

describe("TestLogCreditCardClosureReason", () => {
  it("test_log_closure_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "log_credit_card_closure_reason_4521", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      closure_reason: "annual_fee",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("logged successfully");
    expect(db.keys("credit_card_closure_reasons")).toEqual(["clsr_728dbbd298d3"]);
    expect(resp.content).toBe(
      "Closure reason logged successfully.\n\n" +
        "Executed: log_credit_card_closure_reason_4521\n" +
        'Arguments: {\n  "credit_card_account_id": "cc_001",\n  "user_id": "user_001",\n  "closure_reason": "annual_fee"\n}\n' +
        "Closure reason 'annual_fee' logged for account cc_001.",
    );
  });

  it("test_log_closure_invalid_reason", () => {
    const resp = call(baseKnowledgeDb(), "log_credit_card_closure_reason_4521", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      closure_reason: "alien_invasion",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid closure_reason");
  });
});

const flagArgs = (over: PyDict): PyDict => ({
  credit_card_account_id: "cc_001",
  user_id: "user_001",
  flag_type: "annual_fee_waived",
  expiration_date: "11/14/2026",
  reason: "retention_offer",
  ...over,
});

describe("TestApplyCreditCardAccountFlag", () => {
  it("test_apply_flag_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "apply_credit_card_account_flag_6147", flagArgs({}));
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("flag applied successfully");
    expect(db.keys("credit_card_account_flags")).toEqual(["ccflag_e62f8926e9df"]);
    expect(resp.content).toBe(
      "Account flag applied successfully!\n" +
        "  - Flag ID: ccflag_e62f8926e9df\n" +
        "  - Account: cc_001\n" +
        "  - User ID: user_001\n" +
        "  - Flag Type: Annual Fee Waived\n" +
        "  - Effective Date: 11/14/2025\n" +
        "  - Expiration Date: 11/14/2026\n" +
        "  - Reason: Retention Offer",
    );
  });

  it("test_apply_flag_invalid_type", () => {
    const resp = call(
      baseKnowledgeDb(),
      "apply_credit_card_account_flag_6147",
      flagArgs({ flag_type: "invalid_flag" }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid flag_type");
  });

  it("test_apply_flag_invalid_reason", () => {
    const resp = call(
      baseKnowledgeDb(),
      "apply_credit_card_account_flag_6147",
      flagArgs({ reason: "invalid_reason" }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid reason");
  });
});

describe("TestCloseCreditCardAccount", () => {
  it("test_close_account_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "close_credit_card_account_7834", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("closed successfully");
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).status).toBe("CLOSED");
    expect(Object.keys(db.get("credit_card_accounts", "cc_001") as PyDict).slice(-3)).toEqual([
      "status",
      "closed_date",
      "closed_by",
    ]);
  });

  it("test_close_account_not_found", () => {
    const resp = call(baseKnowledgeDb(), "close_credit_card_account_7834", {
      credit_card_account_id: "cc_nonexistent",
      user_id: "user_001",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });
});

const creditArgs = (over: PyDict): PyDict => ({
  user_id: "user_001",
  credit_card_account_id: "cc_001",
  amount: 25.0,
  reason: "goodwill_adjustment",
  ...over,
});

describe("TestApplyStatementCredit", () => {
  it("test_apply_credit_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "apply_statement_credit_8472", creditArgs({}));
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("applied successfully");
    expect(resp.content).toContain("$25.00");
    expect(resp.content).toBe(
      "Statement credit applied successfully.\n\n" +
        "Executed: apply_statement_credit_8472\n" +
        "  - Transaction ID: txn_6571336f03ab\n" +
        "  - User ID: user_001\n" +
        "  - Account: cc_001\n" +
        "  - Credit Amount: $25.00\n" +
        "  - Reason: Goodwill Adjustment\n" +
        "  - Date: 11/14/2025",
    );
    expect(typed(db.get("credit_card_transaction_history", "txn_6571336f03ab"))).toEqual({
      transaction_id: "txn_6571336f03ab",
      user_id: "user_001",
      credit_card_account_id: "cc_001",
      credit_card_type: "N/A",
      merchant_name: "Rho-Bank Statement Credit",
      transaction_amount: "-$25.00",
      transaction_date: "11/14/2025",
      category: "Statement Credit",
      status: "COMPLETED",
      rewards_earned: "0 points",
      credit_reason: "goodwill_adjustment",
    });
  });

  it("test_apply_credit_zero_amount", () => {
    const resp = call(baseKnowledgeDb(), "apply_statement_credit_8472", creditArgs({ amount: 0 }));
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });

  it("test_apply_credit_negative_amount", () => {
    const resp = call(baseKnowledgeDb(), "apply_statement_credit_8472", creditArgs({ amount: -50.0 }));
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });

  it("test_apply_credit_invalid_reason", () => {
    const resp = call(
      baseKnowledgeDb(),
      "apply_statement_credit_8472",
      creditArgs({ reason: "because_i_want_to" }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid reason");
  });

  it("test_apply_credit_account_not_found", () => {
    const resp = call(
      baseKnowledgeDb(),
      "apply_statement_credit_8472",
      creditArgs({ credit_card_account_id: "cc_nonexistent" }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });
});

describe("TestPayCreditCardFromChecking", () => {
  it("test_pay_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "pay_credit_card_from_checking_9182", {
      user_id: "user_001",
      checking_account_id: "chk_001",
      credit_card_account_id: "cc_001",
      amount: 500.0,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Payment processed successfully");
    expect((db.get("accounts", "chk_001") as PyDict).current_holdings).toBe("4500.00");
    // The fixture's float balance 1500.0 is read through str(): "$1000.00" after the payment.
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).current_balance).toBe("$1000.00");
    expect(resp.content).toBe(
      "Payment processed successfully!\n" +
        "  - Payment Amount: $500.00\n" +
        "  - From Checking Account: chk_001\n" +
        "  - To Credit Card Account: cc_001\n" +
        "  - New Checking Balance: $4500.00\n" +
        "  - New Credit Card Balance: $1000.00\n" +
        "The payment has been applied immediately.",
    );
  });

  it("test_pay_insufficient_funds", () => {
    const resp = call(baseKnowledgeDb(), "pay_credit_card_from_checking_9182", {
      user_id: "user_002",
      checking_account_id: "chk_002",
      credit_card_account_id: "cc_002",
      amount: 10000.0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Insufficient funds");
    expect(resp.content).toBe(
      "Error: Insufficient funds in checking account. Available balance: $200.00, requested payment: $10000.00.",
    );
  });

  it("test_pay_checking_not_found", () => {
    const resp = call(baseKnowledgeDb(), "pay_credit_card_from_checking_9182", {
      user_id: "user_001",
      checking_account_id: "chk_nonexistent",
      credit_card_account_id: "cc_001",
      amount: 100.0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_pay_zero_amount", () => {
    const resp = call(baseKnowledgeDb(), "pay_credit_card_from_checking_9182", {
      user_id: "user_001",
      checking_account_id: "chk_001",
      credit_card_account_id: "cc_001",
      amount: 0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
    expect(resp.content).toBe("Error: Payment amount must be a positive number.");
  });
});

describe("TestCreditLimitIncrease", () => {
  it("test_submit_request_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "submit_credit_limit_increase_request_7392", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      requested_increase_amount: 2500,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("submitted successfully");
    expect(db.keys("credit_limit_increase_requests").length).toBe(1);
    expect(resp.content).toBe(
      "Credit limit increase request submitted successfully.\n\n" +
        "Executed: submit_credit_limit_increase_request_7392\n" +
        "  - Request ID: cli_674ed0bd61e8\n" +
        "  - Account: cc_001\n" +
        "  - Requested Increase: $2,500\n" +
        "  - Status: PENDING",
    );
    // Stored as the documented int, not the float JSON gave.
    expect(
      typed(
        (db.get("credit_limit_increase_requests", "cli_674ed0bd61e8") as PyDict).requested_increase_amount,
      ),
    ).toBe(2500);
  });

  it("test_submit_request_zero_amount", () => {
    const resp = call(baseKnowledgeDb(), "submit_credit_limit_increase_request_7392", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      requested_increase_amount: 0,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });

  it("test_approve_increase_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "approve_credit_limit_increase_5847", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      new_credit_limit: 7500,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Credit limit increase approved");
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).credit_limit).toBe("$7500.00");
    expect(resp.content).toBe(
      "Credit limit increase approved!\n" +
        "  - Account: cc_001\n" +
        "  - Previous Limit: $5000.00\n" +
        "  - New Limit: $7500.00\n" +
        "  - Increase: $2500.00\n" +
        "  - Effective Date: 11/14/2025\n" +
        "The customer will receive a confirmation email.",
    );
    expect(typed(db.get("credit_limit_increase_requests", "cli_674ed0bd61e8"))).toEqual({
      request_id: "cli_674ed0bd61e8",
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      previous_limit: "$5000.00",
      new_limit: "$7500.00",
      increase_amount: "$2500.00",
      decision_date: "11/14/2025",
      status: "APPROVED",
    });
  });

  it("test_approve_increase_account_not_found", () => {
    const resp = call(baseKnowledgeDb(), "approve_credit_limit_increase_5847", {
      credit_card_account_id: "cc_nonexistent",
      user_id: "user_001",
      new_credit_limit: 7500,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_deny_increase_success", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "deny_credit_limit_increase_5848", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      denial_reason: "insufficient_account_age",
    });
    expect(resp.error).toBe(false);
    expect(resp.content.toLowerCase()).toContain("denied");
    expect(db.keys("credit_limit_increase_requests")).toEqual(["cli_70dfa5230d23"]);
  });

  it("test_deny_increase_invalid_reason", () => {
    const resp = call(baseKnowledgeDb(), "deny_credit_limit_increase_5848", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      denial_reason: "bad_vibes",
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid denial_reason");
    expect(resp.content).toBe(
      "Error: Invalid denial_reason. Must be one of: insufficient_account_age, cooldown_period_active, " +
        "pending_disputes, pending_replacement_card, past_due_balance, high_utilization, " +
        "insufficient_payment_history, requested_amount_exceeds_limit, other",
    );
  });
});

describe("TestCompleteDisputeFlow", () => {
  // Only step 5 (the agent's rewards update) uses a tool of this part; steps 1-4 are the core and
  // user parts' (log_verification, give/call of submit_cash_back_dispute_0589, unlock).
  it("test_full_dispute_flow_auto_resolve", () => {
    const db = baseKnowledgeDb();
    const resp = call(db, "update_transaction_rewards_3847", {
      transaction_id: "txn_001",
      new_rewards_earned: "500 points",
    });
    expect(resp.error).toBe(false);
    expect((db.get("credit_card_transaction_history", "txn_001") as PyDict).rewards_earned).toBe(
      "500 points",
    );
  });
});

describe("TestReadOnlyDiscoverableAgentTools", () => {
  it("test_get_user_dispute_history", () => {
    const resp = call(baseKnowledgeDb(), "get_user_dispute_history_7291", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toBe(
      "User transaction dispute history retrieved successfully.\n\n" +
        "Executed: get_user_dispute_history_7291\n" +
        "Transaction dispute history for user user_001:\n\n" +
        "No transaction disputes found for this user.",
    );
  });

  it("test_get_debit_dispute_status", () => {
    const resp = call(baseKnowledgeDb(), "get_debit_dispute_status_7483", { user_id: "user_001" });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("No debit card disputes found for this user.");
  });

  it("test_get_closure_reason_history", () => {
    const resp = call(baseKnowledgeDb(), "get_closure_reason_history_8293", {
      credit_card_account_id: "cc_001",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("No closure reason records found for this credit card account.");
  });

  it("test_get_credit_limit_increase_history", () => {
    const resp = call(baseKnowledgeDb(), "get_credit_limit_increase_history_4829", {
      credit_card_account_id: "cc_001",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("No credit limit increase requests found for this account.");
  });

  it("test_get_payment_history", () => {
    const resp = call(baseKnowledgeDb(), "get_payment_history_6183", {
      credit_card_account_id: "cc_001",
      months: 6,
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toBe("No payment history found for account 'cc_001'.");
  });
});

describe("TestSetDebitCardRecurringBlockParity", () => {
  it("test_block_on_non_active_card_rejected", () => {
    const resp = call(baseKnowledgeDb(), "set_debit_card_recurring_block_7382", {
      card_id: "dbc_001",
      block_recurring: true,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content.includes("ACTIVE") || resp.content.toLowerCase().includes("status")).toBe(true);
    expect(resp.content).toBe(
      "Error: Cannot update recurring block settings for a card with status 'PENDING'. Card must be ACTIVE.",
    );
  });
});

describe("TestGetPaymentHistoryParity", () => {
  it("test_zero_months_rejected", () => {
    const resp = call(baseKnowledgeDb(), "get_payment_history_6183", {
      credit_card_account_id: "cc_001",
      months: 0,
    });
    expect(resp.content).toContain("Error");
    const lower = resp.content.toLowerCase();
    expect(lower.includes("positive") || lower.includes("must be")).toBe(true);
  });

  it("test_negative_months_rejected", () => {
    const resp = call(baseKnowledgeDb(), "get_payment_history_6183", {
      credit_card_account_id: "cc_001",
      months: -3,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toBe("Error: months must be a positive integer.");
  });
});

describe("TestFileDebitCardDisputeParity", () => {
  it("test_invalid_dispute_category_rejected", () => {
    const db = baseKnowledgeDb();
    db.put("bank_account_transaction_history", "dtxn_001", {
      transaction_id: "dtxn_001",
      account_id: "chk_001",
      date: "11/01/2025",
      description: "ATM Withdrawal",
      amount: -200.0,
      type: "atm_withdrawal",
    });
    const resp = call(db, "file_debit_card_transaction_dispute_6281", {
      transaction_id: "dtxn_001",
      account_id: "chk_001",
      card_id: "dbc_002",
      user_id: "user_001",
      dispute_category: "INVALID_CATEGORY",
      transaction_type: "atm_withdrawal",
      disputed_amount: 200.0,
      customer_max_liability_amount: 50.0,
      card_in_possession: true,
      contacted_merchant: false,
      police_report_filed: false,
      written_statement_provided: true,
      pin_compromised: "no",
      card_action: "freeze",
      description: "Unauthorized ATM withdrawal",
    });
    expect(resp.content).toContain("Error");
    // tau2 rejects the call at binding (unexpected 'description'); the dispatcher prefixes
    // "Invalid arguments: ", which is what the Python assertion's "Invalid" matches.
    expect(resp.content).toBe(
      "Error: KnowledgeTools.file_debit_card_transaction_dispute_6281() got an unexpected keyword argument 'description'",
    );
    expect(db.keys("debit_card_disputes")).toEqual([]);
  });

  it("test_negative_disputed_amount_rejected", () => {
    const resp = call(
      baseKnowledgeDb(),
      "file_debit_card_transaction_dispute_6281",
      debitDisputeArgs({
        transaction_id: "dtxn_001",
        disputed_amount: -50.0,
        customer_max_liability_amount: 0.0,
        contacted_merchant: false,
        provisional_credit_eligible: false,
      }),
    );
    expect(resp.content).toContain("Error");
    const lower = resp.content.toLowerCase();
    expect(lower.includes("positive") || lower.includes("amount")).toBe(true);
    expect(resp.content).toBe("Error: disputed_amount must be a positive number.");
  });
});

describe("TestApplyCreditCardAccountFlagParity", () => {
  it("test_nonexistent_cc_account_rejected", () => {
    const resp = call(
      baseKnowledgeDb(),
      "apply_credit_card_account_flag_6147",
      flagArgs({ credit_card_account_id: "cc_nonexistent", expiration_date: "12/31/2025" }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content.toLowerCase()).toContain("not found");
    expect(resp.content).toBe("Error: Credit card account 'cc_nonexistent' not found.");
  });
});
