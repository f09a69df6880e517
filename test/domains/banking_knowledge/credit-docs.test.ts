/**
 * The credit/dispute tool table: tau2's source order, decorator types, `mutates_state`, parameters,
 * and docstrings (checked through the unlock outputs of tau2's gold replays, which quote the
 * description and parameter lines parsed from each `__doc__`).
 */
import { describe, expect, it } from "vitest";
import { creditDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/credit.ts";
import {
  formatDiscoverableToolForAgent,
  toolInfoOf,
} from "../../../src/domains/banking_knowledge/docstring.ts";
import type { PyDict } from "../../../src/py/value.ts";
import { goldTasks } from "./gold-replay.ts";

// From tools.py at a2c0247: name, @is_discoverable_tool(ToolType.X), parameters (defaults in brackets).
const EXPECTED: [string, string, string][] = [
  ["example_agent_tool_0000", "write", ""],
  ["update_transaction_rewards_3847", "write", "transaction_id new_rewards_earned"],
  ["initial_transfer_to_human_agent_0218", "generic", ""],
  ["initial_transfer_to_human_agent_1822", "generic", ""],
  ["emergency_credit_bureau_incident_transfer_1114", "generic", ""],
  [
    "file_credit_card_transaction_dispute_4829",
    "write",
    "transaction_id card_action card_last_4_digits full_name user_id phone email address contacted_merchant " +
      "purchase_date issue_noticed_date dispute_reason resolution_requested eligible_for_provisional_credit " +
      "partial_refund_amount[null]",
  ],
  [
    "file_debit_card_transaction_dispute_6281",
    "write",
    "transaction_id account_id card_id user_id dispute_category transaction_date discovery_date disputed_amount " +
      "transaction_type card_in_possession pin_compromised contacted_merchant police_report_filed " +
      "written_statement_provided provisional_credit_eligible customer_max_liability_amount card_action",
  ],
  ["set_debit_card_recurring_block_7382", "write", "card_id block_recurring"],
  ["get_debit_dispute_status_7483", "read", "user_id"],
  ["get_atm_deposit_images_8473", "read", "transaction_id"],
  [
    "order_replacement_credit_card_7291",
    "write",
    "credit_card_account_id user_id shipping_address reason expedited_shipping[false]",
  ],
  ["get_user_dispute_history_7291", "read", "user_id"],
  ["get_pending_replacement_orders_5765", "read", "credit_card_account_id"],
  ["log_credit_card_closure_reason_4521", "write", "credit_card_account_id user_id closure_reason"],
  ["get_closure_reason_history_8293", "read", "credit_card_account_id"],
  ["apply_statement_credit_8472", "write", "user_id credit_card_account_id amount reason"],
  [
    "apply_credit_card_account_flag_6147",
    "write",
    "credit_card_account_id user_id flag_type expiration_date reason",
  ],
  ["close_credit_card_account_7834", "write", "credit_card_account_id user_id"],
  [
    "pay_credit_card_from_checking_9182",
    "write",
    "user_id checking_account_id credit_card_account_id amount",
  ],
  [
    "submit_credit_limit_increase_request_7392",
    "write",
    "credit_card_account_id user_id requested_increase_amount",
  ],
  ["get_credit_limit_increase_history_4829", "read", "credit_card_account_id"],
  ["get_payment_history_6183", "read", "credit_card_account_id months"],
  ["approve_credit_limit_increase_5847", "write", "credit_card_account_id user_id new_credit_limit"],
  ["deny_credit_limit_increase_5848", "write", "credit_card_account_id user_id denial_reason"],
];

describe("creditDiscoverableTools", () => {
  it("lists tau2's tools in source order with their ToolType, mutates_state and parameters", () => {
    const actual = creditDiscoverableTools.map((t) => [
      t.name,
      t.kind,
      t.params.map((p) => ("default" in p ? `${p.name}[${JSON.stringify(p.default)}]` : p.name)).join(" "),
    ]);
    expect(actual).toEqual(EXPECTED);
    // is_discoverable_tool's default: mutates_state = (tool_type == ToolType.WRITE).
    for (const t of creditDiscoverableTools) expect(t.mutates, t.name).toBe(t.kind === "write");
  });

  it("have raw docstrings as Python's __doc__ holds them (first line unindented, body at 8 spaces)", () => {
    const doc = creditDiscoverableTools.find((t) => t.name === "example_agent_tool_0000")?.docstring;
    expect(doc).toBe(
      "An example agent discoverable tool placeholder.\n\n        Returns:\n            Example tool executed successfully.\n        ",
    );
  });

  it("quote the description and parameters tau2's gold unlock outputs show", () => {
    const byName = new Map(creditDiscoverableTools.map((t) => [t.name, t]));
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const { id, gold, actions } of goldTasks()) {
      const outputs = gold?.gold_action_outputs ?? [];
      actions.forEach((a, i) => {
        const tool =
          a.name === "unlock_discoverable_agent_tool"
            ? byName.get(((a.arguments as PyDict).agent_tool_name as string | undefined) ?? "")
            : undefined;
        if (tool === undefined) return;
        seen.add(tool.name);
        const info = toolInfoOf(tool);
        const out = outputs[i] ?? "";
        if (!out.includes(`Description: ${info.description}\n\n${formatDiscoverableToolForAgent(info)}\n\n`))
          problems.push(`${id}#${i} ${tool.name}:\n${out}`);
      });
    }
    expect(problems).toEqual([]);
    expect(seen.size).toBe(21);
  });
});
