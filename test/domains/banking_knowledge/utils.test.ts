/**
 * banking `utils.py` ports: the fixed clock, `_deterministic_id`, every `generate_*_id` seed, and the
 * balance helpers. Expected ids were computed with hashlib on the seeds utils.py builds (Python 3.11).
 */
import { describe, expect, it } from "vitest";
import {
  checkEncodable,
  deterministicId,
  generateAccountFlagId,
  generateAgentDiscoverableToolCallId,
  generateAgentDiscoverableToolId,
  generateApplicationId,
  generateBankAccountTransactionId,
  generateClosureReasonId,
  generateCreditCardOrderId,
  generateCreditLimitIncreaseRequestId,
  generateDebitCardId,
  generateDebitCardOrderId,
  generateDisputeId,
  generateReferralId,
  generateReferralLinkId,
  generateTransactionId,
  generateUserDiscoverableToolCallId,
  generateUserDiscoverableToolId,
  generateVerificationId,
  getAccountBalance,
  getNow,
  getNowIso,
  getToday,
  getTodayStr,
  parseBalance,
} from "../../../src/domains/banking_knowledge/utils.ts";
import { isoformat } from "../../../src/py/datetime.ts";
import { PyTypeError } from "../../../src/py/errors.ts";
import { PyValueError } from "../../../src/py/format.ts";
import { PyFloat } from "../../../src/py/value.ts";

const f = (x: number) => new PyFloat(x);

describe("fixed clock", () => {
  it("is 2025-11-14 03:40:00", () => {
    expect(getToday()).toEqual({ year: 2025, month: 11, day: 14 });
    expect(getTodayStr()).toBe("11/14/2025");
    expect(getNow()).toEqual({ year: 2025, month: 11, day: 14, hour: 3, minute: 40, second: 0 });
    expect(getNowIso()).toBe("2025-11-14T03:40:00");
    expect(isoformat({ year: 5, month: 1, day: 2, hour: 0, minute: 0, second: 9 })).toBe(
      "0005-01-02T00:00:09",
    );
  });
});

describe("deterministicId", () => {
  it("is the hex of the first length // 2 bytes of sha256(utf-8 seed)", () => {
    expect(deterministicId("hello")).toBe("2cf24dba5fb0a30e");
    expect(deterministicId("hello", 12)).toBe("2cf24dba5fb0");
    expect(deterministicId("hello", 15)).toBe("2cf24dba5fb0a3");
    expect(deterministicId("hello", -40)).toBe("2cf24dba5fb0a30e26e83b2a"); // [: -20] of 32 bytes
    expect(deterministicId("caf\u00e9 \u{1F600}")).toBe("043764df773ac7ce");
  });
  it("fails like str.encode() on a lone surrogate", () => {
    expect(() => deterministicId("\ud800x")).toThrow(PyValueError);
    expect(() => checkEncodable("ab\ud800")).toThrow(
      "'utf-8' codec can't encode character '\\ud800' in position 2: surrogates not allowed",
    );
  });
});

describe("generate_* ids", () => {
  it("transaction ids format the amount with .2f and append a truthy date", () => {
    expect(generateTransactionId("user_001", "Gold Rewards Card", "Target", f(100), "Shopping")).toBe(
      "txn_0829ca75fc90",
    );
    expect(generateTransactionId("user_001", "Gold Rewards Card", "Target", 100, "Shopping")).toBe(
      "txn_0829ca75fc90",
    );
    expect(generateTransactionId("user_001", "Gold Rewards Card", "Target", 100, "Shopping", "")).toBe(
      "txn_0829ca75fc90",
    );
    expect(
      generateTransactionId("user_001", "Gold Rewards Card", "Target", 100, "Shopping", "11/14/2025"),
    ).toBe("txn_24eadcb870e4");
    expect(generateTransactionId("u", "c", "m", f(2.675), "x")).toBe("txn_711cc0765ec9");
  });
  it("join-built seeds raise str.join's TypeError for a non-str part", () => {
    expect(() => generateTransactionId("u", 5, "m", f(1), "x")).toThrow(PyTypeError);
    expect(() => generateTransactionId("u", 5, "m", f(1), "x")).toThrow(
      "sequence item 2: expected str instance, int found",
    );
    expect(() => generateReferralId(["u"], "x")).toThrow(
      "sequence item 1: expected str instance, list found",
    );
    // The amount is formatted before the join.
    expect(() => generateTransactionId(5, "c", "m", "1", "x")).toThrow(PyValueError);
  });
  it("referral ids", () => {
    expect(generateReferralId("user_001", "Savings Account")).toBe("e1723b7feaf4a2e5");
    expect(generateReferralId("user_001", "Savings Account", "11/14/2025")).toBe("efabb68959b25249");
  });
  it("application ids interpolate str(float) and str(bool)", () => {
    expect(generateApplicationId("Gold Rewards Card", "Test User", f(75000), false)).toBe("dae1d99e2bdc18fb");
    expect(generateApplicationId("Platinum Rewards Card", "Premium User", f(150000), true)).toBe(
      "14762176688b5aa0",
    );
    expect(generateApplicationId("X", "Y", f(1e16), null)).toBe("8abfae3da9759f8e");
  });
  it("verification ids strip spaces, colons and dashes from the time", () => {
    expect(generateVerificationId("u1", "2025-11-14 03:40:00")).toBe("u1_20251114_034000");
    expect(() => generateVerificationId("u1", 5)).toThrow("'int' object has no attribute 'replace'");
  });
  it("discoverable tool ids and call ids (json.dumps(sort_keys=True) in the seed)", () => {
    expect(generateUserDiscoverableToolId("deposit_check_3847")).toBe("23701c66454ebfa8");
    const args = {
      check_amount: f(1500),
      account_id: "chk_001",
      z: [1, { b: null, a: true }],
      "\u00e9": f(Number.NaN),
    };
    expect(generateUserDiscoverableToolCallId("deposit_check_3847", args)).toBe("878c98fb45f2ea40");
    expect(generateAgentDiscoverableToolId("apply_savings_account_credit_6831")).toBe("d613f8ddfc1c7e32");
    expect(generateAgentDiscoverableToolCallId("x", { b: 1, a: f(2.5) })).toBe("1dbfd9ab0f99d564");
  });
  it("the other prefixed ids", () => {
    expect(generateDisputeId("user_001", "txn_001")).toBe("dsp_44fede7d6bc1");
    expect(generateReferralLinkId("user_001", "Gold Rewards Card")).toBe("002649882a65f205");
    expect(generateCreditCardOrderId("cc_001", "user_001", "lost")).toBe("ccord_31e94191d72a");
    expect(generateClosureReasonId("cc_001", "user_001")).toBe("clsr_728dbbd298d3");
    expect(generateAccountFlagId("cc_001", "annual_fee_waiver", "12/31/2025")).toBe("ccflag_9e6bef213ce7");
    expect(generateCreditLimitIncreaseRequestId("cc_001", "user_001", 2500)).toBe("cli_674ed0bd61e8");
    expect(generateCreditLimitIncreaseRequestId("cc_001", "user_001", f(2500))).toBe("cli_674ed0bd61e8");
    expect(generateBankAccountTransactionId("chk_001", "11/14/2025", "ATM fee", f(-2.5), "atm_fee")).toBe(
      "btxn_779ace1aab13",
    );
    expect(generateDebitCardOrderId("chk_001", "user_001", "STANDARD")).toBe("dcord_af7661a948b5");
    expect(generateDebitCardId("chk_001", "user_001", "11/14/2025")).toBe("dbc_08b71a80c792");
  });
});

describe("balance helpers", () => {
  it("parseBalance: numbers as float, '$2,850.00' strings via float(), anything else 0.0", () => {
    expect(parseBalance(5)).toEqual(f(5));
    expect(parseBalance(f(2.5))).toEqual(f(2.5));
    expect(parseBalance(true)).toEqual(f(1));
    expect(parseBalance("$2,850.00")).toEqual(f(2850));
    expect(parseBalance(" 1_000 ")).toEqual(f(1000));
    expect(parseBalance(null)).toEqual(f(0));
    expect(parseBalance([1])).toEqual(f(0));
    expect(() => parseBalance("$abc")).toThrow("could not convert string to float: 'abc'");
  });
  it("getAccountBalance prefers current_holdings, then balance, then 0", () => {
    expect(getAccountBalance({ current_holdings: "$10.00", balance: 5 })).toEqual(f(10));
    expect(getAccountBalance({ balance: 5 })).toEqual(f(5));
    expect(getAccountBalance({})).toEqual(f(0));
    expect(getAccountBalance({ current_holdings: null, balance: 5 })).toEqual(f(0));
  });
});
