/** `order_debit_card_5739`: a debit card order, its fee transaction, and the PENDING card record. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pyFloatOrNull, pyFormatFixed } from "../../../py/format.ts";
import { floatRepr } from "../../../py/number.ts";
import { pyListRepr } from "../../../py/repr.ts";
import { upperMethod } from "../../../py/str-methods.ts";
import { type PyDict, PyFloat, type PyValue, pyEquals } from "../../../py/value.ts";
import type { DbState } from "../../db-state.ts";
import { addToDb } from "../db-query.ts";
import { field, getRecord, inStrs, money } from "../records.ts";
import { deterministicId, generateDebitCardId, generateDebitCardOrderId, getTodayStr } from "../utils.ts";
import { agentTool } from "./agent-tool.ts";

const DELIVERY_OPTIONS = ["STANDARD", "EXPEDITED", "RUSH"] as const;
const CARD_DESIGNS = ["CLASSIC", "PREMIUM", "CUSTOM"] as const;
const DELIVERY_TIMES: Readonly<Record<string, string>> = {
  STANDARD: "7-10 business days",
  EXPEDITED: "3-5 business days",
  RUSH: "1-2 business days",
};
const REPLACED_FOR = ["lost", "stolen", "fraud", "fraud_suspected"];

/** A fee after `float(fee) if fee is not None else None`; "error" when float() rejects it. */
function fee(v: PyValue): number | null | "error" {
  if (v === null) return null;
  return pyFloatOrNull(v) ?? "error";
}

/** `"".join(c for c in h if c.isdigit())[:n].zfill(n)` over a hex digest (left-padded, unlike last-4's `ljust`). */
const digitsOf = (hex: string, n: number): string => hex.replace(/\D/g, "").slice(0, n).padStart(n, "0");

/** The card's expiration: the order month, four years on, on the month's last day (Feb: 28th). */
function expirationOf(orderDate: string): string {
  const parts = orderDate.split("/");
  const month = parts[0] as string;
  const year = Number.parseInt(parts[2] as string, 10) + 4;
  const day = ["01", "03", "05", "07", "08", "10", "12"].includes(month)
    ? "31"
    : month === "02"
      ? "28"
      : "30";
  return `${month}/${day}/${year}`;
}

/** Why the new card is issued: the reason an earlier CLOSED card on the account was closed for. */
function issueReasonFor(db: DbState, accountId: string): string {
  const existing = db
    .values("debit_cards")
    .filter((c) => pyEquals(field(c as PyDict, "account_id"), accountId));
  const closed = existing.find((c) => pyEquals(field(c as PyDict, "status"), "CLOSED")) as PyDict | undefined;
  if (closed !== undefined) {
    const reason = field(closed, "closure_reason", "first_card");
    if (typeof reason === "string" && REPLACED_FOR.includes(reason)) {
      return reason === "fraud_suspected" ? "fraud" : reason;
    }
    return "first_card";
  }
  return existing.length > 0 ? "first_card" : "new_account";
}

export const orderDebitCard = agentTool(
  "order_debit_card_5739",
  "write",
  [
    "account_id",
    "user_id",
    "delivery_option",
    "delivery_fee",
    "card_design",
    "design_fee",
    "shipping_address",
    ["excess_replacement_fee", null],
  ],
  (db, args) => {
    const { account_id, user_id, shipping_address } = args;
    const deliveryFee = fee(args.delivery_fee);
    if (deliveryFee === "error") return "Error: delivery_fee must be a number.";
    const designFee = fee(args.design_fee);
    if (designFee === "error") return "Error: design_fee must be a number.";
    // `fee or 0`, then float() with any failure back to the int 0: the stored type follows.
    const rawExcess = pyTruthy(args.excess_replacement_fee) ? (args.excess_replacement_fee as PyValue) : 0;
    const excessFloat = pyFloatOrNull(rawExcess);
    const excess: PyFloat | number = excessFloat === null ? 0 : new PyFloat(excessFloat);
    const excessValue = excess instanceof PyFloat ? excess.v : excess;

    const present = [account_id, user_id, args.delivery_option, args.card_design, shipping_address];
    if (!present.every(pyTruthy) || deliveryFee === null || designFee === null) {
      return "Error: Missing required parameters. Required: account_id, user_id, delivery_option, delivery_fee, card_design, design_fee, shipping_address.";
    }
    const deliveryOption = upperMethod(args.delivery_option);
    if (!inStrs(deliveryOption, DELIVERY_OPTIONS)) {
      return `Error: Invalid delivery_option. Must be one of: ${pyListRepr(DELIVERY_OPTIONS)}`;
    }
    const cardDesign = upperMethod(args.card_design);
    if (!inStrs(cardDesign, CARD_DESIGNS)) {
      return `Error: Invalid card_design. Must be one of: ${pyListRepr(CARD_DESIGNS)}`;
    }

    const account = getRecord(db, "accounts", account_id);
    if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
    const accountId = account_id as string;
    if (!pyEquals(field(account, "class"), "checking")) {
      return `Error: Debit cards can only be ordered for checking accounts. Account '${accountId}' is a ${pyStr(field(account, "class"))} account.`;
    }
    if (!pyEquals(field(account, "status"), "OPEN")) {
      return `Error: Account must be OPEN. Account '${accountId}' has status: ${pyStr(field(account, "status"))}`;
    }
    if (!pyEquals(field(account, "user_id"), user_id)) {
      return `Error: Account '${accountId}' does not belong to user '${pyStr(user_id)}'.`;
    }
    // tau2 quirk: only "," is stripped, so a "$"-prefixed balance (as transfers write) reads as 0.0.
    const holdings = pyFloatOrNull(pyStr(field(account, "current_holdings", "0")).replaceAll(",", "")) ?? 0;
    if (holdings < 25) {
      return `Error: Account must have a minimum balance of $25. Current balance: $${money(holdings)}`;
    }
    for (const order of db.values("debit_card_orders") as PyDict[]) {
      if (pyEquals(field(order, "account_id"), accountId) && pyEquals(field(order, "status"), "PENDING")) {
        return `Error: There is already a pending debit card order for account '${accountId}'.`;
      }
    }
    const activeCards = (db.values("debit_cards") as PyDict[]).filter(
      (c) => pyEquals(field(c, "account_id"), accountId) && pyEquals(field(c, "status"), "ACTIVE"),
    );
    if (activeCards.length >= 1) {
      return `Error: Account '${accountId}' already has an active debit card. Maximum 1 active card per checking account.`;
    }
    const totalFee = deliveryFee + designFee + excessValue;
    if (totalFee > 0 && holdings < totalFee) {
      return `Error: Insufficient funds for fees. Total fees: $${money(totalFee)}. Current balance: $${money(holdings)}`;
    }

    const expectedDelivery = DELIVERY_TIMES[deliveryOption] as string;
    const orderDate = getTodayStr();
    const userId = user_id as string;
    const orderId = generateDebitCardOrderId(accountId, userId, deliveryOption);
    const order: PyDict = {
      order_id: orderId,
      account_id: accountId,
      user_id: userId,
      delivery_option: deliveryOption,
      card_design: cardDesign,
      shipping_address: shipping_address as PyValue,
      delivery_fee: new PyFloat(deliveryFee),
      design_fee: new PyFloat(designFee),
      excess_replacement_fee: excess,
      total_fee: new PyFloat(totalFee),
      order_date: orderDate,
      expected_delivery: expectedDelivery,
      status: "PENDING",
    };
    if (!addToDb("debit_card_orders", orderId, order, db)) {
      return "Error: Failed to create debit card order. Order may already exist.";
    }

    // Fee pieces: delivery and design print as str(float), the excess fee as :.0f.
    const feeParts = (sep: string): string[] => {
      const out: string[] = [];
      if (deliveryFee > 0) out.push(`Delivery${sep}$${floatRepr(deliveryFee)}`);
      if (designFee > 0) out.push(`Design${sep}$${floatRepr(designFee)}`);
      if (excessValue > 0) out.push(`Excess Replacement${sep}$${pyFormatFixed(excess, 0)}`);
      return out;
    };
    if (totalFee > 0) {
      db.mut("accounts", accountId).current_holdings = money(holdings - totalFee);
      const txnId = `btxn_dcfee_${orderId.slice(-8)}`;
      addToDb(
        "bank_account_transaction_history",
        txnId,
        {
          transaction_id: txnId,
          account_id: accountId,
          date: orderDate,
          description: `DEBIT CARD ORDER FEE - ${feeParts(" ").join(", ")}`,
          amount: new PyFloat(-totalFee),
          type: "debit_card_fee",
          status: "posted",
        },
        db,
      );
    }

    const cardId = generateDebitCardId(accountId, userId, orderDate);
    const seed = `card_details:${cardId}`;
    const last4 = digitsOf(deterministicId(`${seed}:last4`, 8), 4);
    const cvv = digitsOf(deterministicId(`${seed}:cvv`, 6), 3);
    const user = getRecord(db, "users", userId);
    const cardholder = user === undefined ? "CARDHOLDER" : upperMethod(field(user, "name", "CARDHOLDER"));
    const issueReason = issueReasonFor(db, accountId);
    // Added only if new: a second order the same day finds the card id taken and keeps the old card.
    addToDb(
      "debit_cards",
      cardId,
      {
        card_id: cardId,
        account_id: accountId,
        user_id: userId,
        cardholder_name: cardholder,
        last_4_digits: last4,
        cvv,
        status: "PENDING",
        issue_date: orderDate,
        expiration_date: expirationOf(orderDate),
        card_design: cardDesign,
        issue_reason: issueReason,
      },
      db,
    );

    const lines = [
      "Debit Card Order Confirmed",
      `Order ID: ${orderId}`,
      `Card ID: ${cardId}`,
      `Linked Account: ${accountId}`,
      `Delivery Option: ${deliveryOption}`,
      `Card Design: ${cardDesign}`,
      `Shipping Address: ${pyStr(shipping_address)}`,
      `Expected Delivery: ${expectedDelivery}`,
      "",
      "Note: Card will arrive with status PENDING. Customer must call to activate after receiving the card.",
    ];
    if (totalFee > 0) {
      lines.push(
        `Total Fees: $${money(totalFee)} (${feeParts(": ").join(", ")}) - CHARGED to account ${accountId}`,
        `New Account Balance: $${money(holdings - totalFee)}`,
      );
    } else {
      lines.push("Total Fees: $0 (No additional charges)");
    }
    return lines.join("\n");
  },
);
