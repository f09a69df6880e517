/** Acceptance of the structured grader on gold replays, injected writes, and the real task-47 trajectory. */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { DOMAINS, loadDomainData } from "../../../src/domains/registry.ts";
import { loadTrajectoryFile } from "../../../src/formats/load.ts";
import type { Simulation, Task } from "../../../src/formats/model.ts";
import { detectTaskVersion } from "../../../src/formats/task-version.ts";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import { causeLabel } from "../../../src/graders/causes.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { loadedStructured } from "../../../src/graders/structured/engine.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../../src/graders/structured/folders.ts";
import { DEFAULT_STRUCTURED_OPTIONS, gradeStructured } from "../../../src/graders/structured/grade.ts";
import { loadRequirements } from "../../../src/graders/structured/requirements/load.ts";
import { gradeTau3 } from "../../../src/graders/tau3/evaluate.ts";
import { recordedJudge } from "../../../src/graders/tau3/nl.ts";
import { ContextPool } from "../../../src/pipeline/contexts.ts";
import { gradeFile } from "../../../src/pipeline/grade.ts";
import { buildTrajectory, goldSteps } from "../../../src/probes/gold.ts";
import { CORPUS_DIR, DATA_DIR } from "../../helpers/data.ts";

const requirements = loadRequirements(BUILTIN_REQUIREMENTS_DIR);
const options = { ...DEFAULT_STRUCTURED_OPTIONS, requirements };

/** A finished simulation of `task` with these messages. */
const probeSim = (task: Task, messages: Simulation["messages"]): Simulation => ({
  id: "probe",
  task_id: task.id,
  trial: 0,
  termination_reason: "user_stop",
  messages,
  reward_info: null,
});

function both(ctx: GradingContext, task: Task, messages: Simulation["messages"], version: string) {
  const sim = probeSim(task, messages);
  const tau3 = gradeTau3(ctx, task, sim, { solo: false, nl: null });
  const structured = gradeStructured({
    ctx,
    domain: ctx.data.domain,
    task,
    taskVersions: [version],
    sim,
    solo: false,
    tau3,
    options,
  });
  return { tau3, structured };
}

describe("gold replays pass both graders", () => {
  it.each([
    ["airline", "versions/v0.2.0_f8de30c/domains/airline/tasks.json", "v0.2.0_f8de30c"],
    ["retail", "versions/v0.2.0_f8de30c/domains/retail/tasks.json", "v0.2.0_f8de30c"],
    ["telecom", "domains/telecom/tasks_small.json", "head/tasks_small"],
  ] as const)("%s", (domain, file, version) => {
    const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS[domain]), TAU2_QUIRKS);
    const failures: string[] = [];
    for (const task of loadTaskFile(join(DATA_DIR, file))) {
      const { tau3, structured } = both(ctx, task, buildTrajectory(ctx, task, goldSteps(ctx, task)), version);
      if (tau3.reward !== 1 || structured.pass !== true)
        failures.push(
          `${task.id}: tau3=${tau3.reward} structured=${structured.causes.map(causeLabel).join(",")}`,
        );
    }
    expect(failures).toEqual([]);
  });
});

describe("the delta gate", () => {
  const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.airline), TAU2_QUIRKS);
  const tasks = new Map(
    loadTaskFile(join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json")).map((t) => [t.id, t]),
  );
  it("fails a gold replay plus one write to an unrelated record, naming exactly the written fields", () => {
    const task = tasks.get("0")!; // gold writes nothing
    const extra = {
      action: {
        name: "update_reservation_baggages",
        requestor: "assistant" as const,
        arguments: {
          reservation_id: "4WQ150",
          total_baggages: 9,
          nonfree_baggages: 0,
          payment_id: "gift_card_3576581",
        },
      },
      confirm: true,
    };
    const { tau3, structured } = both(
      ctx,
      task,
      buildTrajectory(ctx, task, [...goldSteps(ctx, task), extra]),
      "v0.2.0_f8de30c",
    );
    expect(tau3.components.DB).toBe(0);
    expect(structured.delta_gate.ran && structured.delta_gate.fields.map((v) => v.path)).toEqual([
      "reservations.4WQ150.total_baggages",
    ]);
    // Off the reference solution and licensed by nothing (no permission, no clause allows it).
    const cause = structured.causes.find((c) => c.kind === "unlicensed_write");
    expect(cause).toMatchObject({ reference: "reservations.4WQ150.total_baggages", gates: true });
    expect(cause?.evidence[0]).toMatchObject({
      db: "agent",
      path: "reservations.4WQ150.total_baggages",
      values: { initial: 5, gold: 5, predicted: 9 },
    });
    expect(structured.delta_gate.ran && structured.delta_gate.fields[0]).toMatchObject({
      db: "agent",
      initial: 5,
      gold: 5,
      predicted: 9,
    });
  });
  it("does not forgive other fields of a record the gold itself touched", () => {
    const task = tasks.get("1")!; // gold cancels a reservation: its status and payments are the footprint
    const gold = goldSteps(ctx, task);
    const cancelled = gold.find((s) => s.action.name === "cancel_reservation")?.action.arguments
      .reservation_id as string;
    const extra = {
      action: {
        name: "update_reservation_baggages",
        requestor: "assistant" as const,
        arguments: { reservation_id: cancelled, total_baggages: 7, nonfree_baggages: 0, payment_id: "nope" },
      },
      confirm: true,
    };
    const { structured } = both(ctx, task, buildTrajectory(ctx, task, [...gold, extra]), "v0.2.0_f8de30c");
    // The payment lookup fails before any write: nothing changes, so nothing to report.
    expect(structured.delta_gate.ran && structured.delta_gate.fields).toEqual([]);
  });
});

describe("airline task 47: an unwanted transfer", () => {
  it("passes τ³ and fails the structured grader, naming the turn and the quote", async () => {
    const path = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");
    const file = loadTrajectoryFile(path);
    const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);
    let found = false;
    for await (const g of gradeFile(file, detectTaskVersion(file, DATA_DIR), pool, {
      judge: recordedJudge,
      fallbackTaskVersion: "head",
      graders: { structured: loadedStructured(options) },
    })) {
      if (g.row.task_id !== "47") continue;
      found = true;
      const s = g.verdicts.structured;
      expect(g.tau3?.reward).toBe(1);
      expect(s?.pass).toBe(false);
      expect(s?.causes.filter((c) => c.gates).map(causeLabel)).toEqual([
        "requirement:airline.47.no_transfer",
      ]);
      // Python: instructions["task_instructions"].find("you don't want to be transferred ...") == 116.
      expect(s?.requirements.checked).toEqual([
        { id: "airline.47.no_transfer", source_field: "task_instructions", quote_start: 116, quote_end: 165 },
      ]);
      const v = s?.requirements.violations[0];
      expect(v).toMatchObject({
        toolName: "transfer_to_human_agents",
        quote: "you don't want to be transferred to another agent",
        actor: "agent",
      });
      expect(g.sim?.messages[v!.messageIndex!]?.role).toBe("assistant");
      // The cause points at the same turn and tool call as its evidence.
      const cause = s?.causes[0];
      expect(cause).toMatchObject({
        messageIndex: v?.messageIndex,
        toolCallId: v?.toolCallId,
        actor: "agent",
      });
    }
    expect(found).toBe(true);
  });
});

describe("requirement fixtures follow the task versions a task is graded under", () => {
  it("looks the fixture up again when the same task object comes with other versions", () => {
    const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.airline), TAU2_QUIRKS);
    const file = join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json");
    const task = loadTaskFile(file).find((t) => t.id === "47")!;
    const sim = probeSim(task, buildTrajectory(ctx, task, goldSteps(ctx, task)));
    const tau3 = gradeTau3(ctx, task, sim, { solo: false, nl: null });
    const fixtureUnder = (taskVersions: readonly string[]) =>
      gradeStructured({ ctx, domain: ctx.data.domain, task, taskVersions, sim, solo: false, tau3, options })
        .requirements.fixture;
    const own = fixtureUnder(["v0.2.0_f8de30c"]);
    expect(own).toMatch(/requirements\/airline\/v0\.2\.0_f8de30c\//);
    // Under a set nothing is labelled with, the first fixture for the task whose quotes all stand in
    // its text applies: head's task 47 fixture quotes words the pre-τ³ task 47 also says.
    expect(fixtureUnder(["v9.9.9"])).toBe("requirements/airline/head/47.json");
    expect(fixtureUnder(["v9.9.9", "v0.2.0_f8de30c"])).toBe(own);
  });
});
