/**
 * Both graders and the policy rules under fuzz, on typed trajectories against real tasks of every
 * domain: τ³ gives a verdict or aborts as tau2 would (`ReplayAbort`), the structured grader turns any
 * τ³ verdict into its own, and the rules never throw and always point at a message that exists.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Message, Simulation, TerminationReason } from "../../src/formats/model.ts";
import { TERMINATION_REASONS } from "../../src/formats/simulation.ts";
import { checkConsistency } from "../../src/graders/consistency.ts";
import { gradeStructured } from "../../src/graders/structured/grade.ts";
import { findFormatErrors, runPolicyRules } from "../../src/graders/structured/policy/index.ts";
import { gradeTau3 } from "../../src/graders/tau3/evaluate.ts";
import { ReplayAbort } from "../../src/replay/errors.ts";
import { CaseCounter, expectNoPrototypePollution, fuzzParams } from "./support/invariants.ts";
import { domainTasks, message, pairedMessages, pool } from "./support/typed.ts";

const counter = new CaseCounter("graders");
afterAll(() => counter.report());
const runs = (n: number) => fuzzParams(Math.round(n * Number(process.env.FUZZ_SCALE ?? 1)));

const all = domainTasks();
const pick = fc.record({
  d: fc.nat(),
  t: fc.nat(),
  solo: fc.boolean(),
  termination: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<TerminationReason>("user_stop", "agent_stop") },
    { weight: 1, arbitrary: fc.constantFrom(...TERMINATION_REASONS) },
  ),
  messages: fc.oneof(pairedMessages, fc.array(message, { maxLength: 10 })),
});

type Pick = typeof pick extends fc.Arbitrary<infer R> ? R : never;

function caseOf(p: Pick) {
  const { domain, tasks } = all[p.d % all.length] as (typeof all)[number];
  const task = tasks[p.t % tasks.length];
  if (task === undefined) throw new Error("a domain without tasks");
  const sim: Simulation = {
    id: "fuzz",
    task_id: task.id,
    trial: 0,
    termination_reason: p.termination,
    messages: p.messages as Message[],
    reward_info: null,
  };
  return { domain, task, sim, solo: p.solo && domain.supportsSolo };
}

const messageIndexInRange = (messages: readonly Message[], i: number | undefined) =>
  i === undefined || (Number.isInteger(i) && i >= 0 && i < messages.length);

describe("fuzz: graders", () => {
  it("τ³ gives a verdict or aborts; the structured grader always gives a verdict from it", () => {
    fc.assert(
      fc.property(pick, (p) => {
        counter.hit("gradeTau3+gradeStructured");
        const { domain, task, sim, solo } = caseOf(p);
        const ctx = pool.get(domain);
        try {
          const tau3 = gradeTau3(ctx, task, sim, { solo, nl: null });
          expect([0, 1, null]).toContain(tau3.reward);
          expect(tau3.notes.filter((n) => n.startsWith("internal fault"))).toEqual([]);
          const s = gradeStructured({ ctx, domain, task, taskVersions: ["head"], sim, solo, tau3 });
          expect([true, false, null]).toContain(s.pass);
          if (tau3.reward === 0) expect(s.pass).toBe(false);
        } catch (e) {
          if (!(e instanceof ReplayAbort)) {
            counter.crashes++;
            throw e;
          }
          expect(e.message).not.toBe("");
        }
        expectNoPrototypePollution();
      }),
      runs(2000),
    );
  });

  it("policy rules, format errors and the consistency check never throw and point at real messages", () => {
    fc.assert(
      fc.property(pick, (p) => {
        counter.hit("policy+format+consistency");
        const { domain, task, sim, solo } = caseOf(p);
        try {
          const input = {
            domain,
            task,
            messages: sim.messages,
            terminationReason: sim.termination_reason,
            solo,
          };
          const hits = [...Object.values(runPolicyRules(input)).flat(), ...findFormatErrors(input)];
          for (const e of hits) {
            expect(e.message).not.toBe("");
            expect(messageIndexInRange(sim.messages, e.messageIndex)).toBe(true);
          }
          const c = checkConsistency({ data: pool.get(domain).data, task, messages: sim.messages });
          for (const e of c.evidence) expect(messageIndexInRange(sim.messages, e.messageIndex)).toBe(true);
        } catch (e) {
          counter.crashes++;
          throw e;
        }
        expectNoPrototypePollution();
      }),
      runs(2000),
    );
  });
});
