/** `get_debit_cards_by_account_id_7823`: the cards of a checking account as `json.dumps(..., indent=2)`. */
import { pyStr, pyTruthy } from "../../../py/builtins.ts";
import { PyTypeError } from "../../../py/errors.ts";
import { compareCodePoints, pyDumps, pyJsonString } from "../../../py/json.ts";
import { isPyDict, type PyDict, type PyValue, pyTypeName, setKey } from "../../../py/value.ts";
import type { DiscoverableTool } from "../discoverable.ts";
import { field, getRecord, lowerMethod } from "./account-python.ts";
import { DEBIT_DOCS } from "./debit-docs.ts";

/** Python `json.dumps(v, indent=n)`: one item per line, "," / ": " separators, empty containers inline. */
export function pyDumpsIndent(v: PyValue, indent: number, level = 0): string {
  const pad = (l: number) => `\n${" ".repeat(indent * l)}`;
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const items = v.map((x) => pyDumpsIndent(x, indent, level + 1));
    return `[${pad(level + 1)}${items.join(`,${pad(level + 1)}`)}${pad(level)}]`;
  }
  if (isPyDict(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return "{}";
    const items = keys.map((k) => `${pyJsonString(k)}: ${pyDumpsIndent(v[k] as PyValue, indent, level + 1)}`);
    return `{${pad(level + 1)}${items.join(`,${pad(level + 1)}`)}${pad(level)}}`;
  }
  return pyDumps(v);
}

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

/** `sort(key=..., reverse=True)` over str keys: most recent first, equal dates in table order. */
function sortByIssued(cards: PyDict[]): PyDict[] {
  const keyed = cards.map((info) => ({ info, key: issuedKey(info) }));
  if (keyed.length < 2) return cards;
  const odd = keyed.find((k) => typeof k.key !== "string");
  if (odd !== undefined) {
    // Python's sort compares it with a str and fails; only the operand order of the text is approximate.
    throw new PyTypeError(`'<' not supported between instances of 'str' and '${pyTypeName(odd.key)}'`);
  }
  keyed.sort((a, b) => compareCodePoints(b.key as string, a.key as string));
  return keyed.map((k) => k.info);
}

export const getDebitCardsByAccountId: DiscoverableTool = {
  name: "get_debit_cards_by_account_id_7823",
  kind: "read",
  mutates: false,
  docstring: DEBIT_DOCS.get_debit_cards_by_account_id_7823,
  params: [{ name: "account_id" }],
  run(db, { account_id }) {
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
    return pyDumpsIndent(sortByIssued(cards), 2);
  },
};
