/** `get_debit_cards_by_account_id_7823`: the cards of a checking account as `json.dumps(..., indent=2)`. */
import { lowerMethod, pyStr, pyTruthy } from "../../../py/builtins.ts";
import { pySortedDesc } from "../../../py/compare.ts";
import { pyDumpsIndent } from "../../../py/format.ts";
import { type PyDict, type PyValue, setKey } from "../../../py/value.ts";
import { field, getRecord } from "../records.ts";
import { agentTool } from "./agent-tool.ts";

/** Moves `from` to the end of the dict under the name `to` (`d[to] = d.pop(from)`). */
function rename(d: PyDict, from: string, to: string): void {
  const value = d[from] as PyValue;
  delete d[from];
  setKey(d, to, value);
}

/** A card as the tool lists it: `card_id` first, then the record, with two fields renamed. */
function cardInfo(cardId: string, card: PyDict): PyDict {
  const info: PyDict = { card_id: cardId };
  for (const k of Object.keys(card)) setKey(info, k, card[k] as PyValue);
  const has = (k: string) => Object.hasOwn(info, k);
  if (has("last_4_digits") && !has("card_number_last_4")) rename(info, "last_4_digits", "card_number_last_4");
  if (has("issue_date") && !has("date_issued")) rename(info, "issue_date", "date_issued");
  else if (has("created_date") && !has("date_issued")) rename(info, "created_date", "date_issued");
  return info;
}

/** `x.get("date_issued") or ""`, the sort key (tau2's data only has str dates). */
const issuedKey = (info: PyDict): PyValue => {
  const v = field(info, "date_issued");
  return pyTruthy(v) ? v : "";
};

export const getDebitCardsByAccountId = agentTool(
  "get_debit_cards_by_account_id_7823",
  "read",
  ["account_id"],
  (db, { account_id }) => {
    if (!pyTruthy(account_id)) return "Error: Missing required parameter 'account_id'.";
    const account = getRecord(db, "accounts", account_id);
    if (account === undefined) return `Error: Account '${pyStr(account_id)}' not found.`;
    const id = account_id as string;
    const cls = lowerMethod(field(account, "class", ""));
    if (cls !== "checking" && cls !== "business_checking") {
      return `Error: Account '${id}' is not a checking account. Debit cards are only available for checking accounts.`;
    }
    const cards: PyDict[] = [];
    for (const cardId of db.keys("debit_cards")) {
      const card = db.get("debit_cards", cardId) as PyDict;
      if (field(card, "account_id") === id) cards.push(cardInfo(cardId, card));
    }
    if (cards.length === 0) return `No debit cards found for account '${id}'.`;
    // Most recent first, equal dates in table order.
    return pyDumpsIndent(pySortedDesc(cards, issuedKey), 2);
  },
);
