/** Debit card dispute support: the recurring-payment block, the dispute history, ATM deposit images. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { PyTypeError } from "../../../py/errors.ts";
import { pyFormatFixed } from "../../../py/format.ts";
import { pyAbs } from "../../../py/number.ts";
import { upperMethod } from "../../../py/str-methods.ts";
import { PyFloat, type PyValue, pyTypeName } from "../../../py/value.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { field, getRecord } from "../records.ts";
import { agentTool, historyTool } from "./agent-tool.ts";
import { ATM_DEPOSIT_IMAGES } from "./dispute-atm-images.ts";

const setRecurringBlock = agentTool(
  "set_debit_card_recurring_block_7382",
  "write",
  ["card_id", "block_recurring"],
  (db, a) => {
    if (!pyTruthy(a.card_id)) return "Error: Missing required parameter: card_id";
    const card = getRecord(db, "debit_cards", a.card_id);
    if (!pyTruthy(card)) return `Error: Debit card '${pyStr(a.card_id)}' not found.`;
    const status = upperMethod(field(card, "status", ""));
    if (status !== "ACTIVE")
      return `Error: Cannot update recurring block settings for a card with status '${status}'. Card must be ACTIVE.`;
    db.mut("debit_cards", a.card_id as string).recurring_blocked = a.block_recurring;
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

const debitDisputeStatus = historyTool({
  name: "get_debit_dispute_status_7483",
  param: "user_id",
  table: "debit_card_disputes",
  title: "Debit card dispute history retrieved successfully.",
  label: "Debit card dispute history for user",
  empty: "No debit card disputes found for this user.",
});

/** Python `abs(x)` on a raw DB value. */
function pyAbsValue(v: PyValue): PyValue {
  if (typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat) return pyAbs(v);
  if (typeof v === "bigint") return v < 0n ? -v : v;
  throw new PyTypeError(`bad operand type for abs(): '${pyTypeName(v)}'`);
}

const atmDepositImages = agentTool("get_atm_deposit_images_8473", "read", ["transaction_id"], (db, a) => {
  if (!pyTruthy(a.transaction_id)) return "Error: Missing required parameter: transaction_id";
  const id = pyStr(a.transaction_id);
  const txn = getRecord(db, "bank_account_transaction_history", a.transaction_id);
  if (txn === undefined) return `Error: Transaction '${id}' not found.`;
  const key = a.transaction_id as string;
  if (field(txn, "type") !== "atm_deposit")
    return `Error: Transaction '${id}' is not an ATM deposit. This tool only works for ATM deposit transactions.`;
  const description = field(txn, "description", "");
  const shout = upperMethod(description);
  if (!shout.includes("RHO-BANK") && !shout.includes("RHOBANK"))
    return `Error: Transaction '${id}' is from a third-party ATM. Deposit images are only available for Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback request must be submitted to the ATM network.`;

  const date = pyStr(field(txn, "date", "Unknown"));
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
  const amount = pyFormatFixed(pyAbsValue(field(txn, "amount", 0)), 2);
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
