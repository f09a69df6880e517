/**
 * Behaviours of the credit/dispute tools that tau2's own tests do not reach, with results derived by
 * hand from tau2's source and CPython's semantics: raw argument types (a str where a number was
 * expected raises TypeError inside the body, which the dispatcher reports as "Invalid arguments",
 * while ValueError/AttributeError/OverflowError propagate), writes before a late exception, sort
 * order, and tau2's silent no-ops.
 */
import { describe, expect, it } from "vitest";
import type { DbState } from "../../../src/domains/db-state.ts";
import { bindArguments } from "../../../src/domains/toolkit.ts";
import { PyException, PyTypeError } from "../../../src/py/errors.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { baseKnowledgeDb } from "./fixtures.ts";
import { callAgentTool as call, discoverableTool, floatNumbers, newEnv, typed } from "./helpers.ts";

/** Runs a tool body and returns the Python exception it raised (class and message). */
function raised(db: DbState, name: string, args: PyDict): { type: string; message: string } {
  const tool = discoverableTool(name);
  try {
    tool.run(db, bindArguments("KnowledgeTools", tool, floatNumbers(args)), newEnv());
  } catch (e) {
    if (e instanceof PyTypeError) return { type: "TypeError", message: e.message };
    if (e instanceof PyException) return { type: "other", message: e.message };
    throw e;
  }
  throw new Error(`${name} did not raise`);
}

const text = (db: DbState, name: string, args: PyDict): string => call(db, name, args).content;

describe("scripted tools", () => {
  it("return their fixed texts", () => {
    const db = baseKnowledgeDb();
    expect(text(db, "example_agent_tool_0000", {})).toBe("Example tool executed successfully.");
    expect(text(db, "initial_transfer_to_human_agent_0218", {})).toBe(
      "Initial Transfer Initiated, Inform the user that the lines are busy.\n\n" +
        "Executed: initial_transfer_to_human_agent_0218\nArguments: (no arguments)",
    );
    expect(text(db, "emergency_credit_bureau_incident_transfer_1114", {})).toMatch(
      /^Emergency escalation logged\. .*transfer\.\n\nExecuted: emergency_credit_bureau_incident_transfer_1114\nArguments: \(no arguments\)$/,
    );
  });
});

describe("update_transaction_rewards_3847", () => {
  it("stores a number as the float JSON gave and dumps it with json.dumps(indent=2)", () => {
    const db = baseKnowledgeDb();
    const out = text(db, "update_transaction_rewards_3847", {
      transaction_id: "txn_002",
      new_rewards_earned: 6300,
    });
    expect(out).toContain(
      'Arguments: {\n  "transaction_id": "txn_002",\n  "new_rewards_earned": 6300.0\n}\n',
    );
    expect(out.endsWith("  - New Rewards: 6300.0")).toBe(true);
    expect(typed((db.get("credit_card_transaction_history", "txn_002") as PyDict).rewards_earned)).toEqual({
      float: 6300,
    });
  });

  it("treats a non-str id as absent and an unhashable one as a TypeError", () => {
    const db = baseKnowledgeDb();
    expect(text(db, "update_transaction_rewards_3847", { transaction_id: 1, new_rewards_earned: "1" })).toBe(
      "Error: Transaction '1.0' not found.",
    );
    expect(
      raised(db, "update_transaction_rewards_3847", { transaction_id: ["txn_001"], new_rewards_earned: "1" }),
    ).toEqual({ type: "TypeError", message: "unhashable type: 'list'" });
    expect(
      text(db, "update_transaction_rewards_3847", { transaction_id: "txn_001", new_rewards_earned: "" }),
    ).toBe("Error: Missing required parameters.");
  });
});

describe("file_credit_card_transaction_dispute_4829", () => {
  const args = (over: PyDict): PyDict => ({
    transaction_id: "txn_001",
    card_action: "keep_active",
    card_last_4_digits: "1234",
    full_name: "Amara Okonkwo",
    user_id: "user_001",
    phone: "713-555-0963",
    email: "amara@icloud.com",
    address: "305 Magnolia Street",
    contacted_merchant: true,
    purchase_date: "10/01/2025",
    issue_noticed_date: "10/15/2025",
    dispute_reason: "duplicate_charge",
    resolution_requested: "full_refund",
    eligible_for_provisional_credit: false,
    ...over,
  });

  it("stores the dispute before formatting a non-number refund amount raises", () => {
    const db = baseKnowledgeDb();
    expect(
      raised(db, "file_credit_card_transaction_dispute_4829", args({ partial_refund_amount: "100" })),
    ).toEqual({
      type: "other",
      message: "Unknown format code 'f' for object of type 'str'",
    });
    expect((db.get("transaction_disputes", "dsp_44fede7d6bc1") as PyDict).partial_refund_amount).toBe("100");
    const db2 = baseKnowledgeDb();
    expect(
      raised(db2, "file_credit_card_transaction_dispute_4829", args({ partial_refund_amount: [1] })),
    ).toEqual({
      type: "TypeError",
      message: "unsupported format string passed to list.__format__",
    });
    expect(db2.keys("transaction_disputes")).toEqual(["dsp_44fede7d6bc1"]);
  });

  it("refuses a second dispute of the same transaction by the same user", () => {
    const db = baseKnowledgeDb();
    expect(text(db, "file_credit_card_transaction_dispute_4829", args({}))).toMatch(
      /Not eligible at this time\.$/,
    );
    expect(
      text(db, "file_credit_card_transaction_dispute_4829", args({ dispute_reason: "incorrect_amount" })),
    ).toBe("Error: Dispute may have already been filed for this transaction.");
  });
});

describe("file_debit_card_transaction_dispute_6281", () => {
  const args = (over: PyDict): PyDict => ({
    transaction_id: "txn_debit_009",
    account_id: "chk_001",
    card_id: "dbc_002",
    user_id: "user_001",
    dispute_category: "card_not_present_fraud",
    transaction_date: "11/01/2025",
    discovery_date: "11/05/2025",
    disputed_amount: 600,
    transaction_type: "online_purchase",
    card_in_possession: true,
    pin_compromised: "yes_shared",
    contacted_merchant: false,
    police_report_filed: false,
    written_statement_provided: false,
    provisional_credit_eligible: false,
    customer_max_liability_amount: -1,
    card_action: "close_and_reissue",
    ...over,
  });

  it("adds the shared-PIN warning and the police report recommendation", () => {
    const db = baseKnowledgeDb();
    const out = text(db, "file_debit_card_transaction_dispute_6281", args({}));
    expect(out.split("\n").slice(3)).toEqual([
      "Category: Card Not Present Fraud",
      "Disputed Amount: $600.00",
      "Card Action: Close And Reissue",
      "Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines for details.",
      "WARNING: Customer indicated PIN was shared voluntarily. This may affect liability determination.",
      "RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended.",
    ]);
    const record = db.values("debit_card_disputes")[0] as PyDict;
    expect(typed(record)).toMatchObject({
      provisional_credit_issued: false,
      provisional_credit_amount: null,
      customer_max_liability_amount: { float: -1 },
      is_fraud_category: true,
      pin_shared_voluntarily: true,
    });
  });

  it("checks each required group in tau2's order", () => {
    const db = baseKnowledgeDb();
    expect(text(db, "file_debit_card_transaction_dispute_6281", args({ disputed_amount: 0 }))).toBe(
      "Error: Missing required parameters.",
    );
    expect(
      text(db, "file_debit_card_transaction_dispute_6281", args({ customer_max_liability_amount: null })),
    ).toBe("Error: customer_max_liability_amount is required.");
    expect(text(db, "file_debit_card_transaction_dispute_6281", args({ police_report_filed: null }))).toBe(
      "Error: card_in_possession, contacted_merchant, police_report_filed, and written_statement_provided are required boolean fields.",
    );
    expect(text(db, "file_debit_card_transaction_dispute_6281", args({ pin_compromised: "maybe" }))).toBe(
      "Error: Invalid pin_compromised. Must be one of: ['yes_shared', 'yes_observed', 'no', 'unknown']",
    );
    expect(raised(db, "file_debit_card_transaction_dispute_6281", args({ disputed_amount: "600" }))).toEqual({
      type: "TypeError",
      message: "'<=' not supported between instances of 'str' and 'int'",
    });
    expect(db.keys("debit_card_disputes")).toEqual([]);
  });
});

describe("set_debit_card_recurring_block_7382", () => {
  it("rejects a non-active card by its upper-cased status and stores the raw flag", () => {
    const db = baseKnowledgeDb();
    expect(
      text(db, "set_debit_card_recurring_block_7382", { card_id: "dbc_frozen", block_recurring: true }),
    ).toBe(
      "Error: Cannot update recurring block settings for a card with status 'FROZEN'. Card must be ACTIVE.",
    );
    db.mut("debit_cards", "dbc_frozen").status = "active";
    expect(
      text(db, "set_debit_card_recurring_block_7382", { card_id: "dbc_frozen", block_recurring: 0 }),
    ).toContain("UNBLOCKED");
    expect(typed((db.get("debit_cards", "dbc_frozen") as PyDict).recurring_blocked)).toEqual({ float: 0 });
  });
});

describe("get_atm_deposit_images_8473", () => {
  const txn = (id: string, extra: PyDict): PyDict => ({
    transaction_id: id,
    account_id: "chk_001",
    ...extra,
  });
  const db = baseKnowledgeDb();
  db.put(
    "bank_account_transaction_history",
    "btxn_test_deposit_001",
    txn("btxn_test_deposit_001", {
      date: "11/05/2025",
      description: "RHO-BANK ATM #3921 DEPOSIT",
      type: "atm_deposit",
    }),
  );
  db.put(
    "bank_account_transaction_history",
    "btxn_other",
    txn("btxn_other", {
      description: "RhoBank ATM Main St",
      amount: new PyFloat(-385.5),
      type: "atm_deposit",
    }),
  );
  db.put(
    "bank_account_transaction_history",
    "btxn_3p",
    txn("btxn_3p", { description: "CHASE ATM", type: "atm_deposit" }),
  );
  db.put(
    "bank_account_transaction_history",
    "btxn_buy",
    txn("btxn_buy", { description: "RHO-BANK", type: "purchase" }),
  );
  db.put(
    "bank_account_transaction_history",
    "btxn_none",
    txn("btxn_none", { description: null, type: "atm_deposit" }),
  );
  const images = (id: PyValue) => text(db, "get_atm_deposit_images_8473", { transaction_id: id });

  it("shows the hard-coded envelope scan of a known deposit", () => {
    const out = images("btxn_test_deposit_001");
    expect(
      out.startsWith(
        "ATM Deposit Image Retrieval Results\n=====================================\n" +
          "Transaction ID: btxn_test_deposit_001\nATM: ATM #3921\nDeposit Date: 11/05/2025\n\n\n" +
          "=== ATM DEPOSIT ENVELOPE SCAN ===\nEnvelope ID: ENV-2025-3921-00847\nDeposit Time: 2:34 PM EST\n",
      ),
    ).toBe(true);
    expect(out).toContain(
      '  - Payee: Linda Patterson\n  - Amount: $875.00\n  - Memo: "October rent refund"\n',
    );
    expect(
      out.endsWith(
        "Cash image: CLEAR - bills visible and countable\n\n\n--- VERIFICATION NOTES ---\n" +
          "Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only $385.00. " +
          "Discrepancy of $750.00 confirmed via image review.\n",
      ),
    ).toBe(true);
  });

  it("reports missing images, third-party ATMs and non-deposits", () => {
    expect(images("btxn_other")).toBe(
      "ATM Deposit Image Retrieval Results\n=====================================\n" +
        "Transaction ID: btxn_other\nATM: RhoBank ATM Main St\nDeposit Date: Unknown\nAmount Recorded: $385.50\n\n" +
        "--- IMAGE STATUS ---\nStatus: IMAGES NOT AVAILABLE\n" +
        "Reason: Deposit images for this transaction have either expired (older than 90 days) or were not captured by the ATM system.\n\n" +
        "For deposits without available images, the dispute will proceed based on customer statement and ATM journal records only. Investigation timeline may be extended.\n",
    );
    expect(images("btxn_3p")).toBe(
      "Error: Transaction 'btxn_3p' is from a third-party ATM. Deposit images are only available for Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback request must be submitted to the ATM network.",
    );
    expect(images("btxn_buy")).toBe(
      "Error: Transaction 'btxn_buy' is not an ATM deposit. This tool only works for ATM deposit transactions.",
    );
    expect(images("btxn_missing")).toBe("Error: Transaction 'btxn_missing' not found.");
    expect(raised(db, "get_atm_deposit_images_8473", { transaction_id: "btxn_none" })).toEqual({
      type: "other",
      message: "'NoneType' object has no attribute 'upper'",
    });
  });
});

describe("credit card lifecycle", () => {
  it("order_replacement_credit_card_7291 stores the order, closes the card, and lists under pending orders", () => {
    const db = baseKnowledgeDb();
    const order = {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      shipping_address: "123 Main St",
      reason: "lost",
      expedited_shipping: true,
    };
    expect(text(db, "order_replacement_credit_card_7291", order)).toBe(
      [
        "Order ID: ccord_31e94191d72a",
        "Card Account: cc_001",
        "Reason: Lost",
        "Shipping Address: 123 Main St",
        "Shipping Method: Expedited",
        "Expected Delivery: 2-3 business days",
        "",
        "The old card has been cancelled for security. The new card will have the same account number but a new card number and CVV.",
      ].join("\n"),
    );
    const account = db.get("credit_card_accounts", "cc_001") as PyDict;
    expect(Object.keys(account).slice(-2)).toEqual(["status", "closed_date"]);
    expect([account.status, account.closed_date]).toEqual(["CLOSED", "11/14/2025"]);
    expect(text(db, "order_replacement_credit_card_7291", order)).toBe(
      "Error: Order may have already been placed for this card replacement.",
    );
    expect(text(db, "get_pending_replacement_orders_5765", { credit_card_account_id: "cc_001" })).toBe(
      "Pending replacement orders check completed.\n\nExecuted: get_pending_replacement_orders_5765\n" +
        "Replacement orders for credit card account cc_001:\n" +
        "Found 1 record(s) in 'credit_card_orders':\n\n" +
        "1. Record ID: ccord_31e94191d72a\n   order_id: ccord_31e94191d72a\n   credit_card_account_id: cc_001\n" +
        "   user_id: user_001\n   shipping_address: 123 Main St\n   reason: lost\n   expedited_shipping: True\n" +
        "   order_date: 11/14/2025\n   status: ORDERED\n   old_card_cancelled: True\n",
    );
  });

  it("log_credit_card_closure_reason_4521 reports a second reason as logged but keeps the first (tau2 quirk)", () => {
    const db = baseKnowledgeDb();
    const log = (reason: string) =>
      text(db, "log_credit_card_closure_reason_4521", {
        credit_card_account_id: "cc_001",
        user_id: "user_001",
        closure_reason: reason,
      });
    log("annual_fee");
    expect(log("other")).toMatch(/Closure reason 'other' logged for account cc_001\.$/);
    expect(db.keys("credit_card_closure_reasons")).toEqual(["clsr_728dbbd298d3"]);
    expect((db.get("credit_card_closure_reasons", "clsr_728dbbd298d3") as PyDict).closure_reason).toBe(
      "annual_fee",
    );
  });

  it("close_credit_card_account_7834 finds by account_id but updates by key", () => {
    const db = baseKnowledgeDb();
    db.put("credit_card_accounts", "cc_key", { account_id: "cc_alias", user_id: "user_001" });
    expect(
      text(db, "close_credit_card_account_7834", { credit_card_account_id: "cc_alias", user_id: "user_001" }),
    ).toBe("Error: Failed to close credit card account 'cc_alias'.");
    expect(
      text(db, "close_credit_card_account_7834", { credit_card_account_id: "cc_002", user_id: "user_002" }),
    ).toBe(
      "Credit card account closed successfully.\n\nExecuted: close_credit_card_account_7834\n" +
        'Arguments: {\n  "credit_card_account_id": "cc_002",\n  "user_id": "user_002"\n}\n' +
        "Account cc_002 has been closed.",
    );
  });

  it("history reads build their query JSON by interpolation (a quote breaks it)", () => {
    expect(text(baseKnowledgeDb(), "get_user_dispute_history_7291", { user_id: 'a"b' })).toBe(
      "User transaction dispute history retrieved successfully.\n\nExecuted: get_user_dispute_history_7291\n" +
        'Transaction dispute history for user a"b:\n' +
        "Error: Invalid JSON: Expecting ',' delimiter: line 1 column 16 (char 15)",
    );
  });
});

describe("pay_credit_card_from_checking_9182", () => {
  const pay = (db: DbState, over: PyDict) =>
    text(db, "pay_credit_card_from_checking_9182", {
      user_id: "user_001",
      checking_account_id: "chk_001",
      credit_card_account_id: "cc_001",
      amount: 100,
      ...over,
    });

  it("converts the amount with float() and checks accounts in tau2's order", () => {
    const db = baseKnowledgeDb();
    expect(pay(db, { amount: "100" })).toContain("  - New Checking Balance: $4900.00\n");
    expect(pay(db, { amount: "abc" })).toBe("Error: Invalid payment amount. Must be a positive number.");
    expect(pay(db, { amount: ["1"] })).toBe("Error: Invalid payment amount. Must be a positive number.");
    expect(pay(db, { checking_account_id: "sav_001" })).toBe(
      "Error: Account 'sav_001' is not a checking account.",
    );
    expect(pay(db, { checking_account_id: "chk_002" })).toBe(
      "Error: Checking account 'chk_002' does not belong to user 'user_001'.",
    );
    expect(pay(db, { credit_card_account_id: "cc_002" })).toBe(
      "Error: Credit card account 'cc_002' does not belong to user 'user_001'.",
    );
    expect(pay(db, { amount: 2000 })).toBe(
      "Error: Payment amount ($2000.00) exceeds credit card balance ($1400.00). Please specify an amount up to the outstanding balance.",
    );
    expect(
      raised(db, "pay_credit_card_from_checking_9182", {
        user_id: "user_001",
        checking_account_id: ["chk_001"],
        credit_card_account_id: "cc_001",
        amount: 1,
      }),
    ).toEqual({ type: "TypeError", message: "unhashable type: 'list'" });
  });
});

describe("credit limit increases", () => {
  const submit = (db: DbState, amount: PyValue, user = "user_001") =>
    text(db, "submit_credit_limit_increase_request_7392", {
      credit_card_account_id: "cc_001",
      user_id: user,
      requested_increase_amount: amount,
    });

  it("submit normalizes the amount to an int (float() first, whole numbers only)", () => {
    const db = baseKnowledgeDb();
    expect(submit(db, 2500.5)).toBe(
      "Error: Invalid requested_increase_amount. Must be a whole number of dollars.",
    );
    expect(submit(db, "abc")).toBe("Error: Invalid requested_increase_amount. Must be a whole number.");
    expect(submit(db, [1])).toBe("Error: Invalid requested_increase_amount. Must be a whole number.");
    expect(submit(db, -5)).toBe("Error: Requested increase amount must be positive.");
    expect(submit(db, 100, "user_002")).toBe(
      "Error: Credit card account 'cc_001' does not belong to user 'user_002'.",
    );
    expect(submit(db, "1234567")).toContain("  - Requested Increase: $1,234,567\n");
    expect(submit(db, 1234567)).toBe("Error: A similar request may already exist.");
  });

  it("test_cli_request_amount_spelling", () => {
    // 2500 and 2500.0 both arrive as the float 2500.0 (parse_int=float).
    const [a, b] = [baseKnowledgeDb(), baseKnowledgeDb()];
    const ra = submit(a, 2500);
    const rb = submit(b, new PyFloat(2500));
    expect(a.hash()).toBe(b.hash());
    expect(ra).toBe(rb);
    expect(ra.includes("$2,500") && !ra.includes("$2,500.0")).toBe(true);
  });

  it("test_cli_request_fractional_amount_rejected", () => {
    const db = baseKnowledgeDb();
    const before = db.hash();
    const resp = submit(db, 2500.5);
    expect(resp.includes("Error") && resp.includes("whole number")).toBe(true);
    expect(db.keys("credit_limit_increase_requests")).toEqual([]);
    expect(db.hash()).toBe(before);
  });

  const approve = (db: DbState, limit: PyValue = 7500) =>
    text(db, "approve_credit_limit_increase_5847", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      new_credit_limit: limit,
    });
  const REFUSED = "Error: Credit limit increase request cannot be approved at this time.";

  it("approve refuses while a dispute is open or a replacement is in flight", () => {
    const db = baseKnowledgeDb();
    db.put("transaction_disputes", "d1", { user_id: "user_001", status: "UNDER_REVIEW" });
    expect(approve(db)).toBe(REFUSED);
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).credit_limit).toBe(5000);
    const db2 = baseKnowledgeDb();
    db2.put("credit_card_orders", "o1", { credit_card_account_id: "cc_001", status: "SHIPPED" });
    expect(approve(db2)).toBe(REFUSED);
    const db3 = baseKnowledgeDb();
    db3.mut("credit_card_accounts", "cc_001").account_status = "past_due";
    expect(approve(db3)).toBe(REFUSED);
  });

  it("approve ignores ORDERED replacements and a CLOSED `status` (tau2 quirks)", () => {
    const db = baseKnowledgeDb();
    text(db, "order_replacement_credit_card_7291", {
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      shipping_address: "123 Main St",
      reason: "stolen",
    });
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).status).toBe("CLOSED");
    expect(approve(db)).toMatch(/^Credit limit increase approved!\n/);
  });

  it("approve reads the current limit through str() and raises float()'s ValueError late", () => {
    const db = baseKnowledgeDb();
    db.mut("credit_card_accounts", "cc_001").credit_limit = "$4,000.00";
    expect(
      raised(db, "approve_credit_limit_increase_5847", {
        credit_card_account_id: "cc_001",
        user_id: "user_001",
        new_credit_limit: "lots",
      }),
    ).toEqual({ type: "other", message: "could not convert string to float: 'lots'" });
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).credit_limit).toBe("$4,000.00");
    expect(approve(db, "6000")).toContain(
      "  - Previous Limit: $4000.00\n  - New Limit: $6000.00\n  - Increase: $2000.00\n",
    );
  });

  it("approve after a request of the same increase keeps the request record (shared id, tau2 quirk)", () => {
    const db = baseKnowledgeDb();
    submit(db, 2500);
    approve(db);
    expect(db.keys("credit_limit_increase_requests")).toEqual(["cli_674ed0bd61e8"]);
    expect((db.get("credit_limit_increase_requests", "cli_674ed0bd61e8") as PyDict).status).toBe("PENDING");
    expect((db.get("credit_card_accounts", "cc_001") as PyDict).credit_limit).toBe("$7500.00");
  });

  it("deny stores only the first denial of an account and user", () => {
    const db = baseKnowledgeDb();
    const deny = (reason: string) =>
      text(db, "deny_credit_limit_increase_5848", {
        credit_card_account_id: "cc_001",
        user_id: "user_001",
        denial_reason: reason,
      });
    expect(deny("high_utilization")).toBe(
      "Credit limit increase request denied.\n  - Account: cc_001\n  - Denial Reason: high_utilization\n" +
        "  - Date: 11/14/2025\nThe customer will receive a notification explaining the denial.",
    );
    deny("other");
    expect(typed(db.get("credit_limit_increase_requests", "cli_70dfa5230d23"))).toEqual({
      request_id: "cli_70dfa5230d23",
      credit_card_account_id: "cc_001",
      user_id: "user_001",
      denial_reason: "high_utilization",
      decision_date: "11/14/2025",
      status: "DENIED",
    });
  });
});

describe("get_payment_history_6183", () => {
  const db = baseKnowledgeDb();
  const pay = (id: string, date: PyValue, amount: PyValue, status: string, account = "cc_001") => {
    const record: PyDict = { payment_id: id, credit_card_account_id: account, amount, status };
    if (date !== null) record.payment_date = date;
    db.put("payment_history", id, record);
  };
  pay("p1", "10/15/2025", "$100.00", "ON_TIME");
  pay("p2", "09/15/2025", "$90.00", "LATE");
  pay("p3", "11/15/2025", new PyFloat(55.5), "ON_TIME");
  pay("p4", null, "$10.00", "ON_TIME");
  pay("p5", "10/15/2025", "$101.00", "ON_TIME");
  pay("px", "12/01/2025", "$1.00", "ON_TIME", "cc_002");
  const history = (months: PyValue) =>
    text(db, "get_payment_history_6183", { credit_card_account_id: "cc_001", months });

  it("sorts by date descending (stable), truncates with int(months) and counts the on-time run", () => {
    expect(history(4.7)).toBe(
      "Payment history for account 'cc_001' (last 4 months):\nConsecutive on-time payments: 3\n" +
        "\n  - Payment Date: 11/15/2025\n    Amount: 55.5\n    Status: ON_TIME\n" +
        "\n  - Payment Date: 10/15/2025\n    Amount: $100.00\n    Status: ON_TIME\n" +
        "\n  - Payment Date: 10/15/2025\n    Amount: $101.00\n    Status: ON_TIME\n" +
        "\n  - Payment Date: 09/15/2025\n    Amount: $90.00\n    Status: LATE",
    );
    expect(history(10).endsWith("\n  - Payment Date: None\n    Amount: $10.00\n    Status: ON_TIME")).toBe(
      true,
    );
    expect(history("2")).toMatch(/^Payment history for account 'cc_001' \(last 2 months\):\n/);
  });

  it("rejects bad months with tau2's texts; infinity's OverflowError propagates", () => {
    expect(history("two")).toBe("Error: Invalid months value. Must be a positive integer.");
    expect(history(new PyFloat(Number.NaN))).toBe("Error: Invalid months value. Must be a positive integer.");
    expect(history(0.5)).toBe("Error: months must be a positive integer.");
    expect(history(null)).toBe("Error: Missing required parameters (credit_card_account_id, months).");
    expect(
      raised(db, "get_payment_history_6183", {
        credit_card_account_id: "cc_001",
        months: new PyFloat(Number.POSITIVE_INFINITY),
      }),
    ).toEqual({ type: "other", message: "cannot convert float infinity to integer" });
  });
});
