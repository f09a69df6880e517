/**
 * The structured grader's delta gate where a task gives no reference solution (`actions` null, not `[]`)
 * and where acceptable outcomes give one: tasks of the shared data rewritten, graded on probe and corpus
 * trajectories.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { DOMAINS, loadDomainData } from "../../../src/domains/registry.ts";
import { loadTrajectoryFile } from "../../../src/formats/load.ts";
import type { AcceptableOutcome, Action, Simulation, Task } from "../../../src/formats/model.ts";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import { causeLabel } from "../../../src/graders/causes.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../../src/graders/structured/folders.ts";
import { DEFAULT_STRUCTURED_OPTIONS, gradeStructured } from "../../../src/graders/structured/grade.ts";
import { loadRequirements } from "../../../src/graders/structured/requirements/load.ts";
import { strictVerdict } from "../../../src/graders/structured/strict.ts";
import { gradeTau3 } from "../../../src/graders/tau3/evaluate.ts";
import { buildTrajectory, goldSteps, type ProbeStep } from "../../../src/probes/gold.ts";
import { CORPUS_DIR, DATA_DIR } from "../../helpers/data.ts";

const VERSION = "v0.2.0_f8de30c";
const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.airline), TAU2_QUIRKS);
const tasks = new Map(
  loadTaskFile(join(DATA_DIR, `versions/${VERSION}/domains/airline/tasks.json`)).map((t) => [t.id, t]),
);
const options = { ...DEFAULT_STRUCTURED_OPTIONS, requirements: loadRequirements(BUILTIN_REQUIREMENTS_DIR) };

const criteriaOf = (task: Task) => task.evaluation_criteria as NonNullable<Task["evaluation_criteria"]>;
const rewritten = (task: Task, criteria: Partial<NonNullable<Task["evaluation_criteria"]>>): Task => ({
  ...task,
  evaluation_criteria: { ...criteriaOf(task), ...criteria },
});

function grade(task: Task, sim: Simulation) {
  const tau3 = gradeTau3(ctx, task, sim, { solo: false, nl: null, recordWrites: true });
  const input = { ctx, domain: ctx.data.domain, task, taskVersions: [VERSION], sim, solo: false, tau3 };
  return { tau3, structured: gradeStructured({ ...input, options }) };
}

const probe = (task: Task, messages: Simulation["messages"]): Simulation => ({
  id: "probe",
  task_id: task.id,
  trial: 0,
  termination_reason: "user_stop",
  messages,
  reward_info: null,
});

/** A confirmed write to a reservation no airline task 0 reference touches. */
const baggageWrite: ProbeStep = {
  action: {
    name: "update_reservation_baggages",
    requestor: "assistant",
    arguments: {
      reservation_id: "4WQ150",
      total_baggages: 9,
      nonfree_baggages: 0,
      payment_id: "gift_card_3576581",
    },
  },
  confirm: true,
};

describe("no reference solution (evaluation_criteria.actions is null)", () => {
  const task0 = tasks.get("0") as Task; // its reference writes nothing: `actions: []`
  const messages = buildTrajectory(ctx, task0, [baggageWrite]);

  it("the delta gate cannot judge: a write passes, listed in one non-gating no_reference cause", () => {
    const { tau3, structured } = grade(rewritten(task0, { actions: null }), probe(task0, messages));
    expect(tau3.reward).toBe(1);
    expect(structured.pass).toBe(true);
    expect(structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual([]);
    const listed = structured.causes.filter((c) => c.kind === "no_reference");
    expect(listed.map(causeLabel)).toEqual(["no_reference:evaluation_criteria.actions"]);
    expect(structured.causes.map((c) => c.kind)).not.toContain("unlicensed_write");
    expect(listed[0]).toMatchObject({
      gates: false,
      toolName: "update_reservation_baggages",
      actor: "agent",
    });
    expect(listed[0]?.evidence).toHaveLength(1);
    expect(listed[0]?.evidence[0]).toMatchObject({
      code: "no_reference.write",
      db: "agent",
      path: "reservations.4WQ150.total_baggages",
      toolName: "update_reservation_baggages",
      values: { initial: 5, predicted: 9 },
    });
    expect(structured.delta_gate).toMatchObject({ ran: false, pass: true });
    // The strict gate has no footprint either.
    expect(strictVerdict(structured).pass).toBe(true);
  });

  it("`actions: []` is a reference that writes nothing: the same write still fails as unlicensed", () => {
    const { structured } = grade(task0, probe(task0, messages));
    expect(structured.pass).toBe(false);
    const labels = structured.causes.map(causeLabel);
    expect(labels).toContain("unlicensed_write:reservations.4WQ150.total_baggages");
    expect(labels).not.toContain("no_reference:evaluation_criteria.actions");
    expect(structured.causes.find((c) => c.kind === "unlicensed_write")?.gates).toBe(true);
  });

  it("requirements still apply: a prohibited transfer fails a task without reference", () => {
    const task47 = tasks.get("47") as Task;
    const transfer: ProbeStep = {
      action: {
        name: "transfer_to_human_agents",
        requestor: "assistant",
        arguments: { summary: "over to you" },
      },
      confirm: false,
    };
    const sim = probe(task47, buildTrajectory(ctx, task47, [...goldSteps(ctx, task47), transfer]));
    const { structured } = grade(rewritten(task47, { actions: null }), sim);
    expect(structured.pass).toBe(false);
    expect(structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual([
      "requirement:airline.47.no_transfer",
    ]);
  });
});

describe("acceptable outcomes give the footprint", () => {
  const task8 = tasks.get("8") as Task;
  const gold = criteriaOf(task8);
  const sim = loadTrajectoryFile(
    join(CORPUS_DIR, "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json"),
  ).simulations.find((s) => s.task_id === "8" && s.trial === 0) as Simulation;
  const outcome = (outcome_id: string, actions: readonly Action[]): AcceptableOutcome => ({
    ...gold,
    actions,
    outcome_id,
    description: null,
    reward: 1,
  });
  const basicEconomy = (gold.actions ?? []).map((a) =>
    a.name === "book_reservation" ? { ...a, arguments: { ...a.arguments, cabin: "basic_economy" } } : a,
  );
  const withOutcomes = (outcomes: readonly AcceptableOutcome[]) =>
    rewritten(task8, { actions: null, acceptable_outcomes: outcomes });

  it("the matched outcome's actions are the reference: its booking is no off-footprint write", () => {
    const { tau3, structured } = grade(
      withOutcomes([outcome("basic", basicEconomy), outcome("gold", gold.actions ?? [])]),
      sim,
    );
    expect(tau3.reward).toBe(1);
    expect(structured.delta_gate.ran).toBe(true);
    expect(structured.causes.filter((c) => c.gates).map(causeLabel)).toEqual([]);
    expect(structured.pass).toBe(true);
  });

  it("no outcome matched: τ³ fails it, and the gate, with no reference, lists the writes", () => {
    const { structured } = grade(withOutcomes([outcome("basic", basicEconomy)]), sim);
    expect(structured.pass).toBe(false);
    const labels = structured.causes.map(causeLabel);
    expect(labels[0]).toBe("tau3:none_matched");
    expect(labels).toContain("no_reference:evaluation_criteria.actions");
    expect(labels.filter((l) => l.startsWith("unlicensed_write:"))).toEqual([]);
  });
});
