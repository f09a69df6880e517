/**
 * tau2's own tests of the debit-card tools (test_tools_knowledge.py: TestOrderDebitCard,
 * TestActivateDebitCard, TestCloseDebitCard, TestFreezeUnfreezeDebitCard, TestClearDebitCardFraudAlert,
 * TestDebitCardPin, TestRequestTemporaryLimitIncrease, the debit tools of
 * TestReadOnlyDiscoverableAgentTools, TestGetDebitCardsByAccountIdParity and the debit-limit case of
 * TestNumericArgumentNormalization), one vitest case per Python test, same fixture and assertions.
 */
import { describe, expect, it } from "vitest";
import { baseKnowledgeDb } from "./fixtures.ts";
import { callAgent, dispatchJson, rec, setField } from "./helpers.ts";

const contains = (content: string, ...parts: string[]) => {
  for (const p of parts) expect(content).toContain(p);
};

describe("TestOrderDebitCard", () => {
  const order = (fields: Record<string, unknown>) => ({
    account_id: "chk_001",
    user_id: "user_001",
    delivery_option: "STANDARD",
    delivery_fee: 0.0,
    card_design: "CLASSIC",
    design_fee: 0.0,
    shipping_address: "123 Main St",
    ...fields,
  });

  it("test_order_card_success", () => {
    const resp = callAgent(
      baseKnowledgeDb(),
      "order_debit_card_5739",
      order({
        account_id: "chk_002",
        user_id: "user_002",
        shipping_address: "1923 Oak Park Boulevard, Detroit, MI 48226",
      }),
    );
    expect(resp.error).toBe(false);
    contains(resp.content, "Debit Card Order Confirmed");
  });

  it("test_order_card_expedited", () => {
    const db = baseKnowledgeDb();
    // Deactivate the existing active card so the order can proceed.
    setField(db, "debit_cards", "dbc_002", "status", "CLOSED");
    const resp = callAgent(
      db,
      "order_debit_card_5739",
      order({
        delivery_option: "RUSH",
        delivery_fee: 25.0,
        card_design: "PREMIUM",
        design_fee: 10.0,
        shipping_address: "305 Magnolia Street, Houston, TX 77002",
      }),
    );
    expect(resp.error).toBe(false);
    contains(resp.content, "Debit Card Order Confirmed", "$35");
  });

  it("test_order_card_invalid_delivery", () => {
    const resp = callAgent(
      baseKnowledgeDb(),
      "order_debit_card_5739",
      order({ delivery_option: "TELEPORT" }),
    );
    contains(resp.content, "Error", "Invalid delivery_option");
  });

  it("test_order_card_invalid_design", () => {
    const resp = callAgent(baseKnowledgeDb(), "order_debit_card_5739", order({ card_design: "DIAMOND" }));
    contains(resp.content, "Error", "Invalid card_design");
  });
});

describe("TestActivateDebitCard", () => {
  const activate = (toolName: string, args: Record<string, string>, db = baseKnowledgeDb()) => ({
    db,
    resp: callAgent(db, toolName, { expiration_date: "11/27", ...args }),
  });

  it("test_activate_new_card_success", () => {
    const { db, resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_001",
      last_4_digits: "4321",
      cvv: "123",
      pin: "5823",
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Activation Successful");
    expect(rec(db, "debit_cards", "dbc_001").status).toBe("ACTIVE");
  });

  it("test_activate_wrong_tool_for_issue_reason", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_003",
      last_4_digits: "1111",
      cvv: "456",
      pin: "7890",
    });
    contains(resp.content, "Error", "Wrong activation tool");
  });

  it("test_activate_replacement_card_success", () => {
    const { resp } = activate("activate_debit_card_8292", {
      card_id: "dbc_003",
      last_4_digits: "1111",
      cvv: "789",
      pin: "7290",
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Activation Successful");
  });

  it("test_activate_reissued_card_success", () => {
    const { resp } = activate("activate_debit_card_8293", {
      card_id: "dbc_expired",
      last_4_digits: "5555",
      cvv: "321",
      pin: "9876",
    });
    // pin 9876 is sequential descending, should fail
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("sequential");
  });

  it("test_activate_with_valid_pin_reissued", () => {
    const { resp } = activate("activate_debit_card_8293", {
      card_id: "dbc_expired",
      last_4_digits: "5555",
      cvv: "321",
      pin: "5823",
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Activation Successful");
  });

  it("test_activate_already_active", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_002",
      last_4_digits: "8765",
      expiration_date: "12/26",
      cvv: "456",
      pin: "5823",
    });
    contains(resp.content, "Error", "already active");
  });

  it("test_activate_wrong_last_4", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_001",
      last_4_digits: "0000",
      cvv: "123",
      pin: "5823",
    });
    contains(resp.content, "Error", "do not match");
  });

  it("test_activate_sequential_pin_rejected", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_001",
      last_4_digits: "4321",
      cvv: "123",
      pin: "1234",
    });
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("sequential");
  });

  it("test_activate_repeating_pin_rejected", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_001",
      last_4_digits: "4321",
      cvv: "123",
      pin: "5555",
    });
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("same digit");
  });

  it("test_activate_invalid_cvv", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_001",
      last_4_digits: "4321",
      cvv: "12",
      pin: "5823",
    });
    contains(resp.content, "Error", "CVV");
  });

  it("test_activate_nonexistent_card", () => {
    const { resp } = activate("activate_debit_card_8291", {
      card_id: "dbc_nonexistent",
      last_4_digits: "0000",
      cvv: "123",
      pin: "5823",
    });
    contains(resp.content, "Error", "not found");
  });
});

describe("TestCloseDebitCard", () => {
  it("test_close_card_success", () => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "close_debit_card_4721", { card_id: "dbc_002", reason: "no_longer_needed" });
    expect(resp.error).toBe(false);
    contains(resp.content, "Debit Card Closed Successfully");
    expect(rec(db, "debit_cards", "dbc_002").status).toBe("CLOSED");
  });

  it("test_close_card_invalid_reason", () => {
    const resp = callAgent(baseKnowledgeDb(), "close_debit_card_4721", {
      card_id: "dbc_002",
      reason: "just_because",
    });
    contains(resp.content, "Error", "Invalid reason");
  });

  it("test_close_card_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "close_debit_card_4721", {
      card_id: "dbc_nonexistent",
      reason: "lost",
    });
    contains(resp.content, "Error", "not found");
  });
});

describe("TestFreezeUnfreezeDebitCard", () => {
  it("test_freeze_card_success", () => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "freeze_debit_card_3892", { card_id: "dbc_002" });
    expect(resp.error).toBe(false);
    contains(resp.content, "Debit Card Frozen Successfully");
    expect(rec(db, "debit_cards", "dbc_002").status).toBe("FROZEN");
  });

  it("test_freeze_card_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "freeze_debit_card_3892", { card_id: "dbc_nonexistent" });
    contains(resp.content, "Error", "not found");
  });

  it("test_unfreeze_card_success", () => {
    const db = baseKnowledgeDb();
    const resp = callAgent(db, "unfreeze_debit_card_3893", { card_id: "dbc_frozen" });
    expect(resp.error).toBe(false);
    contains(resp.content, "Debit Card Unfrozen Successfully");
    expect(rec(db, "debit_cards", "dbc_frozen").status).toBe("ACTIVE");
  });

  it("test_unfreeze_card_not_frozen", () => {
    const resp = callAgent(baseKnowledgeDb(), "unfreeze_debit_card_3893", { card_id: "dbc_002" });
    contains(resp.content, "Error", "already active");
  });

  it("test_unfreeze_card_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "unfreeze_debit_card_3893", { card_id: "dbc_nonexistent" });
    contains(resp.content, "Error", "not found");
  });
});

describe("TestClearDebitCardFraudAlert", () => {
  it("test_clear_alert_success", () => {
    const db = baseKnowledgeDb();
    setField(db, "debit_cards", "dbc_002", "fraud_alert_active", true);
    setField(db, "debit_cards", "dbc_002", "fraud_alert_source", "customer");
    const resp = callAgent(db, "clear_debit_card_fraud_alert_4892", {
      card_id: "dbc_002",
      reason: "customer_verified",
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Fraud Alert Cleared");
  });

  it("test_clear_alert_invalid_reason", () => {
    const resp = callAgent(baseKnowledgeDb(), "clear_debit_card_fraud_alert_4892", {
      card_id: "dbc_002",
      reason: "felt_like_it",
    });
    contains(resp.content, "Error", "Invalid reason");
  });

  it("test_clear_alert_card_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "clear_debit_card_fraud_alert_4892", {
      card_id: "dbc_nonexistent",
      reason: "customer_verified",
    });
    contains(resp.content, "Error", "not found");
  });
});

describe("TestDebitCardPin", () => {
  const reset = (cardId: string, last4: string, pin: string) =>
    callAgent(baseKnowledgeDb(), "reset_debit_card_pin_6284", {
      card_id: cardId,
      last_4_digits: last4,
      new_pin: pin,
    });
  const change = (cardId: string, current: string, pin: string) =>
    callAgent(baseKnowledgeDb(), "change_debit_card_pin_6285", {
      card_id: cardId,
      current_pin: current,
      new_pin: pin,
    });

  it("test_reset_pin_success", () => {
    const resp = reset("dbc_002", "8765", "5823");
    expect(resp.error).toBe(false);
    contains(resp.content, "PIN Reset Successfully");
  });

  it("test_reset_pin_wrong_last4", () =>
    contains(reset("dbc_002", "0000", "5823").content, "Error", "do not match"));

  it("test_reset_pin_sequential", () => {
    const resp = reset("dbc_002", "8765", "1234");
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("sequential");
  });

  it("test_reset_pin_card_not_found", () =>
    contains(reset("dbc_nonexistent", "0000", "5823").content, "Error", "not found"));

  it("test_change_pin_success", () => {
    const resp = change("dbc_002", "9999", "5823");
    expect(resp.error).toBe(false);
    contains(resp.content, "PIN Changed Successfully");
  });

  it("test_change_pin_invalid_new_pin", () => {
    const resp = change("dbc_002", "9999", "0000");
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("same digit");
  });

  it("test_change_pin_card_not_found", () =>
    contains(change("dbc_nonexistent", "1234", "5823").content, "Error", "not found"));
});

describe("TestRequestTemporaryLimitIncrease", () => {
  const request = (
    setup: (db: ReturnType<typeof baseKnowledgeDb>) => void,
    args: Record<string, unknown>,
  ) => {
    const db = baseKnowledgeDb();
    setup(db);
    return callAgent(db, "request_temporary_debit_card_limit_increase_8374", args);
  };

  it("test_request_atm_increase", () => {
    const resp = request((db) => setField(db, "debit_cards", "dbc_002", "daily_atm_limit", 500), {
      card_id: "dbc_002",
      limit_type: "atm",
      new_limit: 700, // Within 150% of $500 = $750 max
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Increase Granted Successfully", "24 hours");
  });

  it("test_request_purchase_increase", () => {
    const resp = request((db) => setField(db, "debit_cards", "dbc_002", "daily_purchase_limit", 5000), {
      card_id: "dbc_002",
      limit_type: "purchase",
      new_limit: 7000, // Within 150% of $5000 = $7500 max
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "Increase Granted Successfully");
  });

  it("test_request_invalid_limit_type", () => {
    const resp = request(() => {}, { card_id: "dbc_002", limit_type: "international", new_limit: 1000 });
    contains(resp.content, "Error", "Invalid limit_type");
  });

  it("test_request_card_not_found", () => {
    const resp = request(() => {}, { card_id: "dbc_nonexistent", limit_type: "atm", new_limit: 500 });
    contains(resp.content, "Error", "not found");
  });
});

describe("TestReadOnlyDiscoverableAgentTools (debit tools)", () => {
  it("test_get_debit_cards_by_account", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_debit_cards_by_account_id_7823", {
      account_id: "chk_001",
    });
    expect(resp.error).toBe(false);
    contains(resp.content, "card_id");
  });
});

describe("TestGetDebitCardsByAccountIdParity", () => {
  it("test_account_not_found", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_debit_cards_by_account_id_7823", {
      account_id: "acct_nonexistent",
    });
    expect(resp.content.includes("Error") || resp.content.toLowerCase().includes("not found")).toBe(true);
  });

  it("test_savings_account_rejected", () => {
    const resp = callAgent(baseKnowledgeDb(), "get_debit_cards_by_account_id_7823", {
      account_id: "sav_001",
    });
    contains(resp.content, "Error");
    expect(resp.content.toLowerCase()).toContain("checking");
  });
});

describe("TestNumericArgumentNormalization (debit tools)", () => {
  it("test_debit_limit_fractional_amount_rejected", () => {
    const db = baseKnowledgeDb();
    setField(db, "debit_cards", "dbc_002", "daily_atm_limit", 500);
    const name = "request_temporary_debit_card_limit_increase_8374";
    let resp = dispatchJson(name, db, '{"card_id": "dbc_002", "limit_type": "atm", "new_limit": 700.5}');
    contains(resp.content, "Error", "must be an integer");
    let card = rec(db, "debit_cards", "dbc_002");
    expect(card.daily_atm_limit).toBe(500);
    expect("temporary_atm_limit_increase" in card).toBe(false);

    // A whole-valued float is just an alternate spelling: it succeeds and stores the documented int.
    resp = dispatchJson(name, db, '{"card_id": "dbc_002", "limit_type": "atm", "new_limit": 700.0}');
    expect(resp.error || resp.content.includes("Error"), resp.content).toBe(false);
    card = rec(db, "debit_cards", "dbc_002");
    expect(card.daily_atm_limit).toBe(700);
  });
});
