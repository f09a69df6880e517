/** Debit card dispute support: the recurring-payment block, the dispute history, ATM deposit images. */
import { attributeError } from "../../../py/builtins.ts";
import { PyTypeError } from "../../../py/errors.ts";
import { pyFormatFixed } from "../../../py/format.ts";
import { pyAbs } from "../../../py/number.ts";
import { isPyDict, PyFloat, type PyValue, pyTypeName } from "../../../py/value.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { field, getOr, hashKey, pyStr, pyTruthy, pyUpper } from "./credit-py.ts";
import { discoverable, historyReport } from "./credit-report.ts";
import { ATM_DEPOSIT_IMAGES } from "./dispute-atm-images.ts";

const setRecurringBlock = discoverable(
  "set_debit_card_recurring_block_7382",
  "write",
  ["card_id", "block_recurring"],
  (db, a) => {
    if (!pyTruthy(a.card_id)) return "Error: Missing required parameter: card_id";
    const key = hashKey(a.card_id);
    const card = key === null ? undefined : db.get("debit_cards", key);
    if (key === null || !pyTruthy(card)) return `Error: Debit card '${pyStr(a.card_id)}' not found.`;
    const status = pyUpper(getOr(card, "status", ""));
    if (status !== "ACTIVE")
      return `Error: Cannot update recurring block settings for a card with status '${status}'. Card must be ACTIVE.`;
    db.mut("debit_cards", key).recurring_blocked = a.block_recurring;
    if (pyTruthy(a.block_recurring)) {
      return (
        `Recurring payments BLOCKED for debit card ${pyStr(a.card_id)}.\n` +
        "All recurring/subscription charges will be declined.\n" +
        "One-time purchases are not affected.\n" +
        "This change takes effect within 24 hours."
      );
    }
    return (
      `Recurring payments UNBLOCKED for debit card ${pyStr(a.card_id)}.\n` +
      "Recurring/subscription charges will now be allowed.\n" +
      "This change takes effect within 24 hours."
    );
  },
);

const debitDisputeStatus = discoverable("get_debit_dispute_status_7483", "read", ["user_id"], (db, a) => {
  if (!pyTruthy(a.user_id)) return "Error: Missing required parameter: user_id";
  return historyReport(db, {
    table: "debit_card_disputes",
    field: "user_id",
    value: a.user_id,
    header: [
      "Debit card dispute history retrieved successfully.",
      "",
      "Executed: get_debit_dispute_status_7483",
      `Debit card dispute history for user ${pyStr(a.user_id)}:`,
    ],
    empty: "No debit card disputes found for this user.",
  });
});

/** Python `abs(x)` on a raw DB value. */
function pyAbsValue(v: PyValue): PyValue {
  if (typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat) return pyAbs(v);
  if (typeof v === "bigint") return v < 0n ? -v : v;
  throw new PyTypeError(`bad operand type for abs(): '${pyTypeName(v)}'`);
}

const atmDepositImages = discoverable("get_atm_deposit_images_8473", "read", ["transaction_id"], (db, a) => {
  if (!pyTruthy(a.transaction_id)) return "Error: Missing required parameter: transaction_id";
  const id = pyStr(a.transaction_id);
  const key = hashKey(a.transaction_id);
  const txn = key === null ? undefined : db.get("bank_account_transaction_history", key);
  if (key === null || txn === undefined) return `Error: Transaction '${id}' not found.`;
  if (!isPyDict(txn)) throw attributeError(txn, "get");
  if (field(txn, "type") !== "atm_deposit")
    return `Error: Transaction '${id}' is not an ATM deposit. This tool only works for ATM deposit transactions.`;
  const description = getOr(txn, "description", "");
  const shout = pyUpper(description);
  if (!shout.includes("RHO-BANK") && !shout.includes("RHOBANK"))
    return `Error: Transaction '${id}' is from a third-party ATM. Deposit images are only available for Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback request must be submitted to the ATM network.`;

  const date = pyStr(getOr(txn, "date", "Unknown"));
  const header = `ATM Deposit Image Retrieval Results\n=====================================\nTransaction ID: ${id}\n`;
  const images = Object.hasOwn(ATM_DEPOSIT_IMAGES, key)
    ? ATM_DEPOSIT_IMAGES[key as keyof typeof ATM_DEPOSIT_IMAGES]
    : undefined;
  if (images !== undefined) {
    return (
      `${header}ATM: ${images.atmId}\nDeposit Date: ${date}\n\n${images.envelopeContents}\n\n` +
      `--- VERIFICATION NOTES ---\n${images.verificationNotes}\n`
    );
  }
  const amount = pyFormatFixed(pyAbsValue(getOr(txn, "amount", 0)), 2);
  return (
    `${header}ATM: ${pyStr(description)}\nDeposit Date: ${date}\nAmount Recorded: $${amount}\n\n` +
    "--- IMAGE STATUS ---\n" +
    "Status: IMAGES NOT AVAILABLE\n" +
    "Reason: Deposit images for this transaction have either expired (older than 90 days) or were not captured by the ATM system.\n\n" +
    "For deposits without available images, the dispute will proceed based on customer statement and ATM journal records only. Investigation timeline may be extended.\n"
  );
});

export const debitDisputeTools: DiscoverableTool[] = [
  setRecurringBlock,
  debitDisputeStatus,
  atmDepositImages,
];
