/**
 * tau2's banking_knowledge `TransactionalDB`: 23 `DatabaseTable`s of schema-less records
 * (`{data: {id: record}, notes}`). Records keep their Python types (an int is not a float: the
 * hash tells `-45` from `-45.0`), so db.json is parsed from its text, never with `JSON.parse`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PyException } from "../../py/errors.ts";
import { parsePyJson } from "../../py/parse.ts";
import { validationErrorText } from "../../py/pydantic-errors.ts";
import { isPyDict, type PyDict, type PyValue } from "../../py/value.ts";
import { EXIT_INTERNAL, RescoreError } from "../../util/errors.ts";
import { DbBase, type Layout } from "../db-state.ts";

/** The tables in `TransactionalDB` field order; db.json lacks some, which start empty. */
export const BANKING_TABLES = [
  "users",
  "accounts",
  "debit_cards",
  "referrals",
  "credit_card_applications",
  "user_discoverable_tools",
  "user_discoverable_tool_calls",
  "verification_history",
  "credit_card_transaction_history",
  "cash_back_disputes",
  "bank_account_transaction_history",
  "credit_card_accounts",
  "agent_discoverable_tools",
  "task_config",
  "human_transfer_requests",
  "transaction_disputes",
  "credit_card_orders",
  "debit_card_orders",
  "credit_card_closure_reasons",
  "credit_card_account_flags",
  "credit_limit_increase_requests",
  "payment_history",
  "debit_card_disputes",
] as const;

const LAYOUT: Layout = Object.fromEntries(BANKING_TABLES.map((t) => [t, "dict"]));

export class BankingDbError extends RescoreError {
  override readonly code = "banking_db";
  override readonly exitStatus = EXIT_INTERNAL;

  override readonly name = "BankingDbError";
}

/**
 * Validates a plain `TransactionalDB` dump (Python-typed values) as pydantic would: every table a
 * `{data: Dict[str, Dict[str, Any]], notes: str}`, missing tables and keys defaulted. A key that is no
 * table is pydantic's `extra_forbidden` (tau2's `DB` forbids extra fields), raised as Python would.
 */
export function bankingDbFromPlain(plain: PyValue, where = "TransactionalDB"): DbBase {
  if (!isPyDict(plain)) throw new BankingDbError(`${where}: expected an object`);
  const extra = Object.keys(plain).filter((k) => !(BANKING_TABLES as readonly string[]).includes(k));
  if (extra.length > 0)
    throw new PyException(
      validationErrorText(
        "TransactionalDB",
        extra.map((k) => ({
          loc: [k],
          type: "extra_forbidden",
          msg: "Extra inputs are not permitted",
          input: plain[k],
        })),
      ),
    );
  const root: PyDict = {};
  const notes: Record<string, string> = {};
  for (const table of BANKING_TABLES) {
    const raw = Object.hasOwn(plain, table) ? plain[table] : { data: {}, notes: "" };
    if (!isPyDict(raw)) throw new BankingDbError(`${where}.${table}: expected an object`);
    const data = raw.data ?? {};
    if (!isPyDict(data)) throw new BankingDbError(`${where}.${table}.data: expected an object`);
    for (const [id, record] of Object.entries(data)) {
      if (!isPyDict(record)) throw new BankingDbError(`${where}.${table}.data.${id}: expected an object`);
    }
    const n = raw.notes ?? "";
    if (typeof n !== "string") throw new BankingDbError(`${where}.${table}.notes: expected a string`);
    root[table] = data;
    notes[table] = n;
  }
  return new DbBase("TransactionalDB", LAYOUT, root, notes);
}

export function loadBankingDb(dataDir: string): DbBase {
  const path = join(dataDir, "domains", "banking_knowledge", "db.json");
  return bankingDbFromPlain(parsePyJson(readFileSync(path, "utf8")), path);
}
