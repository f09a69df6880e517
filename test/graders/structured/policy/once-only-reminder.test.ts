/**
 * `once_only_without_reminder`: retail's item modification and exchange can be called once per order, and
 * the policy asks the agent to remind the customer to confirm they have provided all the items first.
 * The positive case and the false-positive class come from reviewed conversations of the shared corpus
 * (`reviews/once-only-reminder.json`), read at test time.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadJsonFile } from "../../../../src/formats/load.ts";
import type { Message, Simulation } from "../../../../src/formats/model.ts";
import { POLICY_RULES } from "../../../../src/graders/structured/policy/index.ts";
import { CORPUS_DIR } from "../../../helpers/data.ts";
import { agent, call, domain, input, user } from "./fixtures.ts";

const rule = POLICY_RULES.once_only_without_reminder;
const retail = { domain: domain("retail") };

const GPT41_RETAIL = join(
  CORPUS_DIR,
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_retail_defautl_gpt-4.1_1trials.json",
);
const file = loadJsonFile(GPT41_RETAIL);
if (file.variant === "not-trajectories") throw new Error("not a trajectory file");
const simulation = (idPrefix: string): Simulation => {
  const s = file.simulations.find((x) => x.id.startsWith(idPrefix));
  if (s === undefined) throw new Error(`no simulation ${idPrefix}`);
  return s;
};
const findings = (messages: readonly Message[]) =>
  rule.check(input([...messages], retail)).map((e) => [e.messageIndex, e.toolName]);

describe("once_only_without_reminder", () => {
  it("flags a modification called with no reminder before it, quoting the policy (a572d1c5, #27)", () => {
    const found = rule.check(input([...simulation("a572d1c5").messages], retail));
    expect(found.map((e) => [e.messageIndex, e.toolName])).toEqual([[27, "modify_pending_order_items"]]);
    expect(found[0]?.quote).toBe(
      "In particular, remember to remind the customer to confirm they have provided all the items they want to modify.",
    );
  });

  it("flags an exchange with no reminder (ad6d0952, #16)", () => {
    expect(findings(simulation("ad6d0952").messages)).toEqual([[16, "exchange_delivered_order_items"]]);
  });

  it("takes 'confirm that this is the only item you want to modify' as the reminder (836083bb, #14)", () => {
    const messages = simulation("836083bb").messages;
    expect(messages[14]?.content).toContain("confirm that this is the only item you want to modify");
    expect(findings(messages)).toEqual([]);
  });

  it("takes a once-only statement or a question about all the items as the reminder", () => {
    const write = agent(null, [call("c1", "exchange_delivered_order_items")]);
    for (const said of [
      "Exchanges can only be requested once per delivered order, so please confirm these are all the items.",
      "Please note this can only be done once.",
      "Are there any other items you'd like to exchange?",
      "Is there anything else you would like to exchange in this order?",
    ])
      expect(findings([agent(said), user("yes"), write]), said).toEqual([]);
  });

  it("does not take a reminder in the calling message itself, or a general 'anything else'", () => {
    const remindingCall = agent("This can only be done once.", [call("c1", "modify_pending_order_items")]);
    expect(findings([user("change it"), remindingCall])).toEqual([[1, "modify_pending_order_items"]]);
    const generic = [agent("Is there anything else I can help you with?"), user("yes, swap it")];
    expect(findings([...generic, agent(null, [call("c2", "modify_pending_order_items")])])).toEqual([
      [2, "modify_pending_order_items"],
    ]);
  });

  it("reads only the domains whose policy has once-only writes", () => {
    const messages = [user("swap it"), agent(null, [call("c1", "modify_pending_order_items")])];
    expect(rule.check(input(messages, { domain: domain("airline") }))).toEqual([]);
  });
});
