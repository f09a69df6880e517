/**
 * The delta gate and its attribution on banking's DB: 23 dict tables in one DB the agent and user
 * toolkits share. A field names the call that wrote it as the tool that ran (a dispatcher's call by the
 * discoverable tool) at the dispatcher's own call id and turn. Every banking field is a bank record,
 * the user's writes included: none is the user's own device or state, so none is `user_state`.
 */
import { describe, expect, it } from "vitest";
import { causeLabel } from "../../../src/graders/causes.ts";
import { goldSteps, type ProbeStep } from "../../../src/probes/gold.ts";
import type { PyDict } from "../../../src/py/value.ts";
import { contextOf, gradeCalls, step, taskOf } from "./clauses/harness.ts";

const grade = (taskId: string, steps: readonly ProbeStep[]) =>
  gradeCalls("banking_knowledge", "head", taskId, steps);
const gold = (taskId: string) =>
  goldSteps(contextOf("banking_knowledge"), taskOf("banking_knowledge", "head", taskId));
const agent = (tool: string, args: PyDict): ProbeStep[] => [
  step("unlock_discoverable_agent_tool", { agent_tool_name: tool }),
  step("call_discoverable_agent_tool", { agent_tool_name: tool, arguments: JSON.stringify(args) }),
];
const fieldCauses = (g: ReturnType<typeof grade>) =>
  g.structured.causes.filter((c) => ["unlicensed_write", "licensed_write", "user_state"].includes(c.kind));

describe("banking delta gate", () => {
  it("gold passes with nothing off the footprint", () => {
    const g = grade("task_077", gold("task_077"));
    expect(g.tau3.reward).toBe(1);
    expect(g.structured.delta_gate).toMatchObject({ ran: true, pass: true, fields: [] });
    expect(g.structured.pass).toBe(true);
  });

  it("an extra dispatched write: its fields and its call log name the tool, the call id and the turn", () => {
    // task_072's gold freezes no card, so the dispatcher's call log gets a record of its own too.
    const steps = [
      ...gold("task_072"),
      ...agent("freeze_debit_card_3892", { card_id: "dbc_kj93a7b2e1_blue" }),
    ];
    const g = grade("task_072", steps);
    expect(g.tau3.reward).toBe(0); // DB in the basis
    const refs = fieldCauses(g).map(causeLabel);
    expect(refs).toEqual(
      expect.arrayContaining([
        "unlicensed_write:debit_cards.dbc_kj93a7b2e1_blue.status",
        "unlicensed_write:debit_cards.dbc_kj93a7b2e1_blue.frozen_date",
      ]),
    );
    // The dispatcher also logs the call (agent_discoverable_tools): the same call wrote that record.
    expect(refs.some((r) => r.startsWith("unlicensed_write:agent_discoverable_tools."))).toBe(true);
    const status = fieldCauses(g).find((c) => c.reference === "debit_cards.dbc_kj93a7b2e1_blue.status");
    const last = `probe_${steps.length - 1}`;
    expect(status).toMatchObject({ toolName: "freeze_debit_card_3892", toolCallId: last, actor: "agent" });
    expect(status?.turnIdx).not.toBeNull();
    expect(status?.message).toContain(
      "written by freeze_debit_card_3892 via call_discoverable_agent_tool (turn",
    );
    expect(status?.evidence[0]?.values).toEqual({ initial: "ACTIVE", gold: "ACTIVE", predicted: "FROZEN" });
  });

  it("under [ACTION] τ³ passes an extra write the structured grader fails", () => {
    const g = grade("task_004", [
      ...gold("task_004"),
      ...agent("freeze_debit_card_3892", { card_id: "dbc_kj93a7b2e1_blue" }),
    ]);
    expect(g.tau3.reward).toBe(1);
    expect(g.tau3.db_match).toBe(false);
    expect(g.structured.pass).toBe(false);
    expect(g.structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual(
      expect.arrayContaining(["unlicensed_write:debit_cards.dbc_kj93a7b2e1_blue.status"]),
    );
  });

  it("a user's extra write to the shared DB is a bank record, not the user's own state", () => {
    const apply = step(
      "apply_for_credit_card",
      {
        card_type: "EcoCard",
        customer_name: "Sarah Bosch",
        annual_income: 100000,
        rho_bank_subscription: false,
      },
      "user",
    );
    const g = grade("task_001", [...gold("task_001"), apply]);
    const fields = fieldCauses(g);
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((c) => c.kind === "unlicensed_write" && c.actor === "user")).toBe(true);
    expect(fields.every((c) => c.reference.startsWith("credit_card_applications."))).toBe(true);
    expect(g.structured.causes.some((c) => c.kind === "user_state")).toBe(false);
  });
});
