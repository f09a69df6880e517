/**
 * banking `KnowledgeUserTools`: tau2's own test classes for the user side (same fixture, same
 * assertions), exact texts hand-derived from tools.py, the dispatcher's checks, and every user gold
 * action of the reference vectors whose DB state we can reproduce without the agent toolkit.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bankingDbFromPlain, loadBankingDb } from "../../../src/domains/banking_knowledge/schema.ts";
import { userDiscoverableTools } from "../../../src/domains/banking_knowledge/user-discoverable.ts";
import { bankingUserTools } from "../../../src/domains/banking_knowledge/user-tools.ts";
import {
  generateApplicationId,
  generateUserDiscoverableToolCallId,
} from "../../../src/domains/banking_knowledge/utils.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { invoke, mutatesState } from "../../../src/domains/toolkit.ts";
import { pyDumps } from "../../../src/py/json.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { type PyDict, PyFloat, type PyValue } from "../../../src/py/value.ts";
import { deepMergePy } from "../../../src/replay/setup.ts";
import { DATA_DIR, SHARED_DIR } from "../../helpers/data.ts";
import { baseKnowledgeDb, noAutoResolveDb } from "./fixtures.ts";
import { callDiscoverableUser, callUser, give, newEnv } from "./helpers.ts";

const json = (v: PyValue) => pyDumps(v);
const records = (db: DbState, table: string) => db.values(table) as PyDict[];

describe("TestCallDiscoverableUserTool", () => {
  it("test_call_without_giving_fails", () => {
    const resp = callUser(baseKnowledgeDb(), "call_discoverable_user_tool", {
      discoverable_tool_name: "submit_cash_back_dispute_0589",
      arguments: json({ user_id: "user_001", transaction_id: "txn_001" }),
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("has not been given");
  });

  it("test_call_unknown_user_tool", () => {
    const resp = callUser(baseKnowledgeDb(), "call_discoverable_user_tool", {
      discoverable_tool_name: "totally_fake_tool",
      arguments: "{}",
    });
    expect(resp.content).toContain("Error");
  });
});

describe("TestSubmitCashBackDispute", () => {
  it("test_submit_auto_resolve", () => {
    const db = baseKnowledgeDb();
    const resp = callDiscoverableUser(
      db,
      "submit_cash_back_dispute_0589",
      json({ user_id: "user_001", transaction_id: "txn_001" }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("submitted successfully");
    expect(resp.content).toContain("RESOLVED");
    expect(records(db, "cash_back_disputes").length).toBe(1);
    expect(records(db, "cash_back_disputes")[0]?.status).toBe("RESOLVED");
  });

  it("test_submit_no_auto_resolve", () => {
    const db = noAutoResolveDb();
    const resp = callDiscoverableUser(
      db,
      "submit_cash_back_dispute_0589",
      json({ user_id: "user_001", transaction_id: "txn_001" }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("SUBMITTED");
    const dispute = records(db, "cash_back_disputes")[0] as PyDict;
    expect(dispute.status).toBe("SUBMITTED");
    expect(Object.hasOwn(dispute, "resolution")).toBe(false);
  });
});

describe("TestGetReferralLink", () => {
  it("test_get_referral_link_success", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "get_referral_link",
      json({ user_id: "user_001", card_name: "Gold Rewards Card" }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Referral link generated successfully");
    expect(resp.content).toContain("rhobank.com/refer/");
  });

  it("test_get_referral_link_without_giving", () => {
    const resp = callUser(baseKnowledgeDb(), "call_discoverable_user_tool", {
      discoverable_tool_name: "get_referral_link",
      arguments: json({ user_id: "user_001", card_name: "Gold Rewards Card" }),
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("has not been given");
  });
});

describe("TestGetCardLast4Digits", () => {
  it("test_get_card_digits_success", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "get_card_last_4_digits",
      json({ credit_card_account_id: "cc_001" }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Card information retrieved");
    expect(resp.content).toContain("Last 4 digits");
  });

  it("test_get_card_digits_not_found", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "get_card_last_4_digits",
      json({ credit_card_account_id: "cc_nonexistent" }),
    );
    expect(resp.content.includes("Error") || resp.content.includes("not found")).toBe(true);
  });
});

describe("TestDepositCheck", () => {
  it("test_deposit_check_success", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "deposit_check_3847",
      json({ account_id: "chk_001", check_amount: new PyFloat(500) }),
    );
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("deposited successfully");
    expect(resp.content).toContain("$500.00");
  });

  it("test_deposit_check_account_not_found", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "deposit_check_3847",
      json({ account_id: "acct_nonexistent", check_amount: new PyFloat(100) }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("not found");
  });

  it("test_deposit_check_negative_amount", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "deposit_check_3847",
      json({ account_id: "chk_001", check_amount: new PyFloat(-100) }),
    );
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("positive");
  });
});

describe("TestApplyForCreditCard", () => {
  it("test_apply_success", () => {
    const db = baseKnowledgeDb();
    const resp = callUser(db, "apply_for_credit_card", {
      card_type: "Gold Rewards Card",
      customer_name: "Test User",
      annual_income: new PyFloat(75000),
      rho_bank_subscription: false,
    });
    expect(resp.error).toBe(false);
    expect(resp.content.toLowerCase()).toContain("application submitted");
    expect(records(db, "credit_card_applications").length).toBe(1);
  });

  it("test_apply_with_subscription", () => {
    const resp = callUser(baseKnowledgeDb(), "apply_for_credit_card", {
      card_type: "Platinum Rewards Card",
      customer_name: "Premium User",
      annual_income: new PyFloat(150000),
      rho_bank_subscription: true,
    });
    expect(resp.error).toBe(false);
    expect(resp.content.toLowerCase()).toContain("submitted");
  });

  it("test_apply_invalid_card_type", () => {
    const db = baseKnowledgeDb();
    const resp = callUser(db, "apply_for_credit_card", {
      card_type: "EcoCard (Sustainable Rewards Credit Card)",
      customer_name: "Test User",
      annual_income: new PyFloat(75000),
      rho_bank_subscription: false,
    });
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Invalid card_type");
    expect(resp.content).toContain("EcoCard");
    expect(records(db, "credit_card_applications").length).toBe(0);
  });
});

describe("TestSubmitReferral", () => {
  it("test_submit_referral_success", () => {
    const resp = callUser(baseKnowledgeDb(), "submit_referral", {
      user_id: "user_001",
      account_type: "Savings Account",
    });
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Referral request submitted successfully");
    expect(resp.content).toContain("NO_PROGRESS");
  });
});

describe("TestRequestHumanAgentTransfer", () => {
  it("test_request_transfer_success", () => {
    const db = baseKnowledgeDb();
    const resp = callUser(db, "request_human_agent_transfer", {});
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("Transfer request");
    expect(records(db, "human_transfer_requests").length).toBe(1);
  });

  it("test_multiple_transfer_requests", () => {
    const db = baseKnowledgeDb();
    callUser(db, "request_human_agent_transfer", {});
    const resp = callUser(db, "request_human_agent_transfer", {});
    expect(resp.error).toBe(false);
    expect(records(db, "human_transfer_requests").length).toBe(2);
  });
});

describe("TestSubmitTransaction", () => {
  const submit = (userId: string, cardType: string, merchant: string, amount: number, category: string) =>
    callUser(baseKnowledgeDb(), "submit_transaction", {
      user_id: userId,
      credit_card_type: cardType,
      merchant_name: merchant,
      amount: new PyFloat(amount),
      category,
    });

  it("test_gold_card_default_rate", () => {
    const resp = submit("user_001", "Gold Rewards Card", "Target", 100, "Shopping");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("250 points");
    expect(resp.content).toContain("2.5%");
  });

  it("test_silver_card_travel_rate", () => {
    const resp = submit("user_001", "Silver Rewards Card", "United Airlines", 200, "Travel");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("800 points");
    expect(resp.content).toContain("4.0%");
  });

  it("test_silver_card_default_rate", () => {
    const resp = submit("user_001", "Silver Rewards Card", "Grocery Store", 50, "Groceries");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("50 points");
  });

  it("test_business_silver_travel_rate", () => {
    const resp = submit("user_001", "Business Silver Rewards Card", "Delta Airlines", 315, "Travel");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("3150 points");
  });

  it("test_platinum_card_rate", () => {
    const resp = submit("user_001", "Platinum Rewards Card", "Luxury Store", 1000, "Shopping");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("10000 points");
  });

  it("test_crypto_cash_back_rate", () => {
    const resp = submit("user_002", "Crypto-Cash Back", "Trader Joe's", 47.83, "Groceries");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("95 points");
  });

  it("test_bronze_card_rate", () => {
    const resp = submit("user_001", "Bronze Rewards Card", "Coffee Shop", 5, "Dining");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("5 points");
  });

  it("test_diamond_elite_card_rate", () => {
    const resp = submit("user_001", "Diamond Elite Card", "High End Store", 500, "Shopping");
    expect(resp.error).toBe(false);
    expect(resp.content).toContain("2500 points");
  });

  it("test_unknown_card_type", () => {
    const resp = submit("user_001", "Nonexistent Card", "Store", 100, "Shopping");
    expect(resp.content).toContain("Error");
    expect(resp.content).toContain("Unknown credit card type");
  });
});

describe("TestNumericArgumentNormalization (user side)", () => {
  const afterUserCall = (toolName: string, argumentsJson: string): DbState => {
    const db = baseKnowledgeDb();
    give(db, toolName);
    const resp = callUser(db, "call_discoverable_user_tool", {
      discoverable_tool_name: toolName,
      arguments: argumentsJson,
    });
    expect(resp.error || resp.content.includes("Error")).toBe(false);
    return db;
  };

  it("test_user_check_deposit_amount_spelling", () => {
    const int = afterUserCall("deposit_check_3847", '{"account_id": "chk_001", "check_amount": 1500}');
    const float = afterUserCall("deposit_check_3847", '{"account_id": "chk_001", "check_amount": 1500.0}');
    expect(int.hash()).toBe(float.hash());
  });

  it("test_credit_card_application_income_spelling", () => {
    const hashes = [1e5, new PyFloat(1e5)].map((income) => {
      const db = baseKnowledgeDb();
      const resp = callUser(db, "apply_for_credit_card", {
        card_type: "Gold Rewards Card",
        customer_name: "Amara Okonkwo",
        annual_income: income,
        rho_bank_subscription: false,
      });
      expect(resp.error || resp.content.includes("Error")).toBe(false);
      return db.hash();
    });
    expect(hashes[0]).toBe(hashes[1]);
  });
});

describe("exact texts and records (hand-derived from tools.py)", () => {
  it("deposit_check_3847 logs the raw arguments and stores the new balance as a $ string", () => {
    const db = baseKnowledgeDb();
    const resp = callDiscoverableUser(
      db,
      "deposit_check_3847",
      '{"account_id": "chk_001", "check_amount": 500}',
    );
    expect(resp.content).toBe(
      "Check deposited successfully. Funds will be available according to your account's deposit policy.\n\n" +
        'Executed: deposit_check_3847\nArguments: {\n  "account_id": "chk_001",\n  "check_amount": 500.0\n}\n' +
        "Check deposit processed!\n  - Account: chk_001\n  - Check Amount: $500.00\n" +
        "  - Previous Balance: $5000.00\n  - New Balance: $5500.00",
    );
    expect((db.get("accounts", "chk_001") as PyDict).current_holdings).toBe("$5500.00");
    const args = { account_id: "chk_001", check_amount: new PyFloat(500) };
    expect(
      db.get("user_discoverable_tool_calls", generateUserDiscoverableToolCallId("deposit_check_3847", args)),
    ).toEqual({
      tool_name: "deposit_check_3847",
      arguments: args,
      called_at: "11/14/2025",
      status: "CALLED",
    });
  });

  it("deposit_check_3847 refuses a closed account and a non-number", () => {
    const db = baseKnowledgeDb();
    expect(
      callDiscoverableUser(db, "deposit_check_3847", '{"account_id": "chk_closed", "check_amount": 5}')
        .content,
    ).toBe("Error: Account 'chk_closed' is not active.");
    expect(
      callDiscoverableUser(db, "deposit_check_3847", '{"account_id": "chk_001", "check_amount": "x"}')
        .content,
    ).toBe("Error: Invalid check amount 'x'. Must be a number.");
    // A Python TypeError inside the tool body is reported by the dispatcher.
    expect(
      callDiscoverableUser(db, "deposit_check_3847", '{"account_id": ["a"], "check_amount": 5}').content,
    ).toBe("Error: Invalid arguments for tool 'deposit_check_3847': unhashable type: 'list'");
  });

  it("get_card_last_4_digits derives the digits from sha256('card_last4:<id>')", () => {
    const resp = callDiscoverableUser(
      baseKnowledgeDb(),
      "get_card_last_4_digits",
      '{"credit_card_account_id": "cc_001"}',
    );
    // sha256("card_last4:cc_001") = d36f407390ff...: its first four decimal digits are 3, 6, 4, 0.
    expect(resp.content).toBe(
      'Card information retrieved successfully.\n\nExecuted: get_card_last_4_digits\nArguments: {\n  "credit_card_account_id": "cc_001"\n}\nLast 4 digits of card: 3640',
    );
    expect(
      callDiscoverableUser(baseKnowledgeDb(), "get_card_last_4_digits", '{"credit_card_account_id": "cc_x"}')
        .content,
    ).toBe("Error: Credit card account 'cc_x' not found.");
  });

  it("a repeated dispute is not stored twice", () => {
    const db = noAutoResolveDb();
    const args = '{"user_id": "user_001", "transaction_id": "txn_001"}';
    const first = callDiscoverableUser(db, "submit_cash_back_dispute_0589", args).content;
    expect(first).toMatch(
      /\nDispute ID: dsp_[0-9a-f]{12}\nStatus: SUBMITTED - Your dispute has been queued for review\.$/,
    );
    const again = callDiscoverableUser(db, "submit_cash_back_dispute_0589", args).content;
    expect(again.endsWith("}\nNote: Dispute may have already been submitted for this transaction.")).toBe(
      true,
    );
    expect(records(db, "cash_back_disputes").length).toBe(1);
    expect(records(db, "user_discoverable_tool_calls").length).toBe(1);
  });

  it("apply_for_credit_card stores annual_income as a float and lists the valid types on error", () => {
    const db = baseKnowledgeDb();
    callUser(db, "apply_for_credit_card", {
      card_type: "Gold Rewards Card",
      customer_name: "A",
      annual_income: 100000,
      rho_bank_subscription: true,
    });
    const id = generateApplicationId("Gold Rewards Card", "A", new PyFloat(100000), true);
    expect(db.get("credit_card_applications", id)).toEqual({
      application_id: id,
      card_type: "Gold Rewards Card",
      customer_name: "A",
      annual_income: new PyFloat(100000),
      rho_bank_subscription: true,
      status: "PENDING",
      date: "11/14/2025",
    });
    const dup = callUser(db, "apply_for_credit_card", {
      card_type: "Gold Rewards Card",
      customer_name: "A",
      annual_income: new PyFloat(100000),
      rho_bank_subscription: true,
    });
    expect(dup.content).toBe(`Failed to submit application: Record ID '${id}' may already exist.`);
    expect(
      callUser(db, "apply_for_credit_card", { card_type: "X", customer_name: "A", annual_income: 1 }).content,
    ).toBe(
      "Error: Invalid card_type 'X'. Must be one of: ['Bronze Rewards Card', 'Business Bronze Rewards Card', " +
        "'Business Gold Rewards Card', 'Business Platinum Rewards Card', 'Business Silver Rewards Card', " +
        "'Crypto-Cash Back', 'Diamond Elite Card', 'EcoCard', 'Gold Rewards Card', 'Green Rewards Card', " +
        "'Platinum Rewards Card', 'Silver Rewards Card', 'Silver Zoom Card']",
    );
    expect(
      callUser(db, "apply_for_credit_card", {
        card_type: "EcoCard",
        customer_name: "A",
        annual_income: "lots",
      }).content,
    ).toBe("Error: Invalid annual_income. Must be a number.");
  });

  it("submit_transaction truncates points and rejects bad arguments with Python's errors", () => {
    const db = baseKnowledgeDb();
    const ok = callUser(db, "submit_transaction", {
      user_id: "u",
      credit_card_type: "Silver Rewards Card",
      merchant_name: "Best Buy",
      amount: 750,
      category: "Shopping",
    });
    expect(ok.content).toContain("  - Amount: $750.00\n");
    expect(ok.content.endsWith("  - Rewards Earned: 750 points (1.0% cashback rate)\n")).toBe(true);
    const bad = (args: PyDict) => callUser(baseKnowledgeDb(), "submit_transaction", args);
    const base = { user_id: "u", credit_card_type: "EcoCard", merchant_name: "m", amount: 1, category: "c" };
    expect(bad({ ...base, amount: "12" })).toEqual({
      content: "Error: Unknown format code 'f' for object of type 'str'",
      error: true,
    });
    expect(bad({ ...base, user_id: 7 }).content).toBe(
      "Error: sequence item 1: expected str instance, int found",
    );
    expect(bad({ ...base, credit_card_type: ["EcoCard"] }).content).toBe("Error: unhashable type: 'list'");
    expect(bad({ ...base, amount: new PyFloat(Number.NaN) }).content).toBe(
      "Error: cannot convert float NaN to integer",
    );
    expect(bad({ ...base, credit_card_type: 5 }).content).toMatch(
      /^Error: Unknown credit card type '5'\. Available types: \['Bronze Rewards Card', 'Silver Rewards Card', /,
    );
  });

  it("request_human_agent_transfer numbers requests by counting 'request_id' in the listing", () => {
    const db = baseKnowledgeDb();
    expect(callUser(db, "request_human_agent_transfer", {}).content).toBe(
      "Transfer request #1 submitted.\nThe agent will process your request.",
    );
    expect(callUser(db, "request_human_agent_transfer", {}).content).toContain("#2 submitted");
    expect(db.get("human_transfer_requests", "transfer_request_2")).toEqual({
      request_id: "transfer_request_2",
      request_number: 2,
      requested_at: "11/14/2025",
      status: "PENDING",
    });
  });

  it("list_discoverable_user_tools never says 'No tools have been given' (tau2 checks the wrong phrase)", () => {
    const db = baseKnowledgeDb();
    expect(callUser(db, "list_discoverable_user_tools", {}).content).toBe(
      "Tools given to you by the agent:\nNo records found in 'user_discoverable_tools'.",
    );
    give(db, "get_referral_link");
    expect(callUser(db, "list_discoverable_user_tools", {}).content).toMatch(
      /^Tools given to you by the agent:\nFound 1 record\(s\) in 'user_discoverable_tools':\n\n1\. Record ID: [0-9a-f]{16}\n {3}tool_name: get_referral_link\n {3}status: GIVEN\n$/,
    );
  });

  it("query_database is a function, not a tool", () => {
    expect(bankingUserTools.tools.has("query_database")).toBe(false);
    const fn = bankingUserTools.functions.get("query_database");
    expect(fn).toBeDefined();
    const out = invoke(
      bankingUserTools.className,
      fn!,
      baseKnowledgeDb(),
      { database_name: "users" },
      newEnv(),
    );
    expect(out.content).toContain("Found 2 record(s) in 'users':");
  });
});

describe("call_discoverable_user_tool checks", () => {
  const dispatch = (db: DbState, name: PyValue, args: PyValue) =>
    callUser(db, "call_discoverable_user_tool", { discoverable_tool_name: name, arguments: args });
  const given = () => {
    const db = baseKnowledgeDb();
    give(db, "submit_cash_back_dispute_0589");
    return db;
  };

  it("checks names, JSON, missing and unexpected parameters with tau2's texts", () => {
    const db = given();
    expect(dispatch(db, "nope", "{}").content).toBe("Error: Unknown discoverable tool 'nope'.");
    expect(dispatch(db, "apply_for_credit_card", "{}").content).toBe(
      "Error: Unknown discoverable tool 'apply_for_credit_card'.",
    );
    expect(dispatch(db, "submit_cash_back_dispute_0589", "").content).toBe(
      "Error: Invalid JSON in arguments: Expecting value: line 1 column 1 (char 0)",
    );
    expect(dispatch(db, "submit_cash_back_dispute_0589", '{"user_id": "u"}').content).toBe(
      "Error: Missing required parameter: transaction_id",
    );
    expect(
      dispatch(db, "submit_cash_back_dispute_0589", '{"user_id": "u", "transaction_id": "t", "x": 1}')
        .content,
    ).toBe("Error: Unexpected parameter: x");
    // The first unexpected key in document order, integer-like or not.
    const ordered = '{"user_id": "u", "transaction_id": "t", "x": 1, "7": 2}';
    expect(dispatch(db, "submit_cash_back_dispute_0589", ordered).content).toBe(
      "Error: Unexpected parameter: x",
    );
  });

  it("reproduces Python's behaviour for JSON that is not an object", () => {
    const db = given();
    const name = "submit_cash_back_dispute_0589";
    expect(dispatch(db, name, '["user_id", "transaction_id"]').content).toBe(
      `Error: Invalid arguments for tool '${name}': tau2.domains.banking_knowledge.tools.KnowledgeUserTools.${name}() argument after ** must be a mapping, not list`,
    );
    expect(dispatch(db, name, '"user_id transaction_id"').content).toBe("Error: Unexpected parameter: u");
    expect(dispatch(db, name, '"x"').content).toBe("Error: Missing required parameter: user_id");
    expect(dispatch(db, name, "5")).toEqual({
      content: "Error: argument of type 'float' is not iterable",
      error: true,
    });
    expect(dispatch(db, name, "null").content).toBe("Error: argument of type 'NoneType' is not iterable");
    expect(dispatch(db, name, { user_id: "u" })).toEqual({
      content: "Error: the JSON object must be str, bytes or bytearray, not dict",
      error: true,
    });
    expect(dispatch(db, ["x"], "{}")).toEqual({ content: "Error: unhashable type: 'list'", error: true });
  });

  it("parses every JSON number as a float", () => {
    const db = baseKnowledgeDb();
    give(db, "get_referral_link");
    const resp = dispatch(db, "get_referral_link", '{"user_id": 7, "card_name": "Gold Rewards Card"}');
    expect(resp.content).toContain('Arguments: {\n  "user_id": 7.0,\n  "card_name": "Gold Rewards Card"\n}');
    expect(resp.content).toContain("Referral ID: ");
  });
});

describe("discoverable user tools are tools of the toolkit (tau2's ToolKitBase.tools)", () => {
  it("lists them first, in class order, with their exact docstrings", () => {
    expect([...bankingUserTools.tools.keys()]).toEqual([
      "submit_cash_back_dispute_0589",
      "get_referral_link",
      "get_card_last_4_digits",
      "deposit_check_3847",
      "apply_for_credit_card",
      "submit_referral",
      "call_discoverable_user_tool",
      "list_discoverable_user_tools",
      "request_human_agent_transfer",
      "submit_transaction",
    ]);
    expect(userDiscoverableTools.map((t) => [t.name, t.kind])).toEqual([
      ["submit_cash_back_dispute_0589", "write"],
      ["get_referral_link", "write"],
      ["get_card_last_4_digits", "read"],
      ["deposit_check_3847", "write"],
    ]);
    expect(userDiscoverableTools[2]?.docstring).toBe(
      "Look up the last 4 digits of a credit card number.\n\n        Args:\n            credit_card_account_id (string): The credit card account ID to look up (e.g., 'cc_76ad9cc60e_gold')\n\n        Returns:\n            Card information retrieved successfully.\n        ",
    );
    expect(mutatesState(bankingUserTools.tools.get("get_card_last_4_digits")!)).toBe(false);
    expect(mutatesState(bankingUserTools.tools.get("call_discoverable_user_tool")!)).toBe(true);
  });

  it("a direct call runs the tool body: given-check, logging, and Python's binding errors", () => {
    const db = baseKnowledgeDb();
    expect(
      callUser(db, "get_referral_link", { user_id: "user_001", card_name: "Gold Rewards Card" }).content,
    ).toContain("has not been given to you by the agent");
    give(db, "get_referral_link");
    expect(
      callUser(db, "get_referral_link", { user_id: "user_001", card_name: "Gold Rewards Card" }).content,
    ).toContain("Referral link generated successfully.");
    expect(callUser(db, "get_referral_link", { user_id: "user_001" }).content).toBe(
      "Error: KnowledgeUserTools.get_referral_link() missing 1 required positional argument: 'card_name'",
    );
  });
});

// ---- the reference vectors ----

interface BankingVector {
  after_init: { agent: string };
  gold_action_outputs: string[];
  gold_action_results: string[];
  gold_action_requestors: string[];
  gold_action_agent_hash_after: string[];
}
const VECTORS = JSON.parse(readFileSync(join(SHARED_DIR, "vectors/tau2-banking-vectors.json"), "utf8")) as {
  gold: Record<string, BankingVector>;
};
const TASKS_DIR = join(DATA_DIR, "domains/banking_knowledge/tasks");
const base = loadBankingDb(DATA_DIR);

/** The task's start state: `initialization_data.agent_data` deep-merged into db.json, as tau2 does. */
function startState(task: PyDict): DbState {
  const init = ((task.initial_state as PyDict | null)?.initialization_data ?? null) as PyDict | null;
  const agentData = init?.agent_data ?? null;
  if (agentData === null) return DbState.of(base);
  return DbState.of(bankingDbFromPlain(deepMergePy(DbState.of(base).dump(), agentData)));
}

describe("user gold actions of the reference vectors", () => {
  it("give tau2's exact outputs and DB hashes wherever the DB state before them is tau2's", () => {
    let checked = 0;
    let firstActionChecks = 0;
    let approximate = 0;
    const mismatches: string[] = [];
    const approxMismatches: string[] = [];
    for (const [key, vec] of Object.entries(VECTORS.gold)) {
      const taskId = key.split("/").pop() as string;
      const task = parsePyJson(readFileSync(join(TASKS_DIR, `${taskId}.json`), "utf8")) as PyDict;
      const actions = ((task.evaluation_criteria as PyDict).actions ?? []) as PyDict[];
      const db = startState(task);
      expect(db.hash(), `${taskId} after init`).toBe(vec.after_init.agent);
      let expectedHash = vec.after_init.agent;
      let inSync = true;
      actions.forEach((a, i) => {
        const name = a.name as string;
        const args = a.arguments as PyDict;
        const after = vec.gold_action_agent_hash_after[i] as string;
        if (vec.gold_action_requestors[i] === "user") {
          const out = callUser(db, name, args);
          const tag = `${taskId}#${i} ${name}`;
          const sameOutput = out.content === vec.gold_action_outputs[i];
          if (inSync) {
            if (!sameOutput) mismatches.push(`${tag}: output ${JSON.stringify(out.content)}`);
            if ((out.error ? out.content : "ok") !== vec.gold_action_results[i])
              mismatches.push(`${tag}: result`);
            if (db.hash() !== after) mismatches.push(`${tag}: hash`);
            checked++;
            if (vec.gold_action_requestors.slice(0, i).every((r) => r === "user")) firstActionChecks++;
          } else {
            // Earlier agent writes are missing from our DB, so only the output can be compared.
            approximate++;
            if (!sameOutput) approxMismatches.push(`${tag}: output ${JSON.stringify(out.content)}`);
          }
          inSync = inSync && db.hash() === after;
        } else if (name === "give_discoverable_user_tool") {
          // The DB part of the agent's give (its output is the agent toolkit's business).
          const tool = args.discoverable_tool_name;
          if (typeof tool === "string" && userDiscoverableTools.some((t) => t.name === tool)) give(db, tool);
          inSync = inSync && db.hash() === after;
        } else {
          // An agent action we do not run keeps us in sync only if it left the DB unchanged.
          inSync = inSync && after === expectedHash;
        }
        expectedHash = after;
      });
    }
    expect(mismatches).toEqual([]);
    // Both deposit into an account the agent's open_bank_account_4821 created earlier in the task.
    expect(approxMismatches.map((m) => m.split(":")[0])).toEqual([
      "task_055#7 call_discoverable_user_tool",
      "task_057#6 call_discoverable_user_tool",
    ]);
    // 102 user gold actions in all; the others follow agent writes that only the agent toolkit can replay.
    expect(checked + approximate).toBe(102);
    // Tasks that open with user actions: 7 with one, task_034 with eight, task_081 with two.
    expect(firstActionChecks).toBe(17);
    expect(checked).toBe(18);
  });
});
