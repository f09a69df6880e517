/**
 * What the structured grader needs to know about banking beyond its tools: dispatcher calls seen as the
 * discoverable tool they run, and the documents an agent works under besides the policy header.
 */
import { PyJsonDecodeError, pyJsonLoads } from "../../py/json-loads.ts";
import { isPyDict, type PyDict } from "../../py/value.ts";
import type { DomainDef, EffectiveCall } from "../domain.ts";
import type { DiscoverableTool } from "./discoverable.ts";

/** The dispatchers, and the tool-name argument each reads. */
const DISPATCHERS: Readonly<Record<string, { readonly nameArg: string; readonly side: "agent" | "user" }>> = {
  call_discoverable_agent_tool: { nameArg: "agent_tool_name", side: "agent" },
  call_discoverable_user_tool: { nameArg: "discoverable_tool_name", side: "user" },
};

/**
 * `call_discoverable_agent_tool(agent_tool_name, arguments)` runs that tool with `json.loads(arguments,
 * parse_int=float)`, and `call_discoverable_user_tool` likewise. A name that is no discoverable tool of
 * that toolkit, or arguments that are not a JSON object text, run nothing (the dispatcher answers with an
 * error): such a call stays what it names.
 */
export function makeEffectiveCall(
  agentTools: readonly DiscoverableTool[],
  userTools: readonly DiscoverableTool[],
): (name: string, args: PyDict) => EffectiveCall | null {
  const names = {
    agent: new Set(agentTools.map((t) => t.name)),
    user: new Set(userTools.map((t) => t.name)),
  };
  return (name, args) => {
    const d = Object.hasOwn(DISPATCHERS, name) ? DISPATCHERS[name] : undefined;
    if (d === undefined) return null;
    const tool = args[d.nameArg];
    if (typeof tool !== "string" || !names[d.side].has(tool)) return null;
    const text = Object.hasOwn(args, "arguments") ? args.arguments : "{}";
    if (typeof text !== "string") return null;
    let parsed: ReturnType<typeof pyJsonLoads>;
    try {
      parsed = pyJsonLoads(text, { parseIntAsFloat: true });
    } catch (e) {
      if (e instanceof PyJsonDecodeError) return null;
      throw e;
    }
    return isPyDict(parsed) ? { name: tool, args: parsed } : null;
  };
}

/** Every banking prompt variant includes these instructions (discoverable tools, identity verification). */
const ADDITIONAL_INSTRUCTIONS = "prompts/components/additional_instructions.md";

/** Fields no record of db.json has: the tools named write them, or tasks' initialization data adds them. */
const RECORD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // open_bank_account_4821 (account_type, account_class), close_bank_account_7392 (the rest)
  accounts: ["account_type", "account_class", "date_closed", "closure_reason", "early_closure_fee_waived"],
  // close_debit_card_4721, freeze/unfreeze_debit_card_3892/3893, activate_debit_card_829x
  debit_cards: ["closed_date", "closure_reason", "frozen_date", "unfrozen_date", "activated_date"],
  // submit_cash_back_dispute_0589 (the table is empty in db.json)
  cash_back_disputes: ["dispute_id", "user_id", "transaction_id", "submitted_at", "status", "resolution"],
  // tasks' credit card accounts (card_last_4_digits, credit_limit, …), close_credit_card_account_7834 (status, …)
  credit_card_accounts: [
    "card_last_4_digits",
    "credit_limit",
    "account_status",
    "past_due_amount",
    "status",
    "closed_date",
    "closed_by",
  ],
};

/** The banking `DomainDef` fields the structured grader reads. */
export const bankingGrading = (
  agentTools: readonly DiscoverableTool[],
  userTools: readonly DiscoverableTool[],
): Pick<DomainDef, "effectiveCall" | "policyIncludes" | "knowledgeBase" | "recordFields"> => ({
  effectiveCall: makeEffectiveCall(agentTools, userTools),
  policyIncludes: [ADDITIONAL_INSTRUCTIONS],
  knowledgeBase: "documents",
  recordFields: RECORD_FIELDS,
});
