/**
 * Clause tests run the real path: a synthetic trajectory (the given calls, executed on the task's
 * setup), τ³, then the structured grader with the repo's requirement fixtures and policy clauses.
 */

import { join } from "node:path";
import { TAU2_QUIRKS } from "../../../../src/domains/quirks.ts";
import { DOMAINS, loadDomainData } from "../../../../src/domains/registry.ts";
import type { Action, Message, Simulation, Task } from "../../../../src/formats/model.ts";
import { loadTaskFile } from "../../../../src/formats/tasks.ts";
import { GradingContext } from "../../../../src/graders/context.ts";
import { loadClauses } from "../../../../src/graders/structured/clauses/load.ts";
import {
  BUILTIN_POLICIES_DIR,
  BUILTIN_REQUIREMENTS_DIR,
} from "../../../../src/graders/structured/folders.ts";
import type { StructuredGates } from "../../../../src/graders/structured/gates.ts";
import {
  DEFAULT_STRUCTURED_OPTIONS,
  gradeStructured,
  type StructuredVerdict,
} from "../../../../src/graders/structured/grade.ts";
import { loadRequirements } from "../../../../src/graders/structured/requirements/load.ts";
import { taskSet } from "../../../../src/graders/structured/requirements/task-sets.ts";
import { gradeTau3, type Tau3Verdict } from "../../../../src/graders/tau3/evaluate.ts";
import { buildTrajectory, type ProbeStep } from "../../../../src/probes/gold.ts";
import type { PyDict } from "../../../../src/py/value.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

const options = {
  ...DEFAULT_STRUCTURED_OPTIONS,
  requirements: loadRequirements(BUILTIN_REQUIREMENTS_DIR),
  clauses: loadClauses(BUILTIN_POLICIES_DIR),
};

const contexts = new Map<string, GradingContext>();
const tasks = new Map<string, Map<string, Task>>();

export const TASK_FILES = {
  "v0.2.0_f8de30c": (domain: string) => `versions/v0.2.0_f8de30c/domains/${domain}/tasks.json`,
  head: (domain: string) => `domains/${domain}/tasks.json`,
  "head/tasks_small": (domain: string) => `domains/${domain}/tasks_small.json`,
} as const;
export type TaskVersionName = keyof typeof TASK_FILES;

export function taskOf(domain: keyof typeof DOMAINS, version: TaskVersionName, id: string): Task {
  const file = TASK_FILES[version](domain);
  let byId = tasks.get(file);
  if (byId === undefined) {
    // banking's tasks are tau2's `tasks/task_*.json`, not the flat tasks.json beside them.
    const loaded =
      domain === "banking_knowledge"
        ? (taskSet(DATA_DIR, domain, version)?.tasks ?? [])
        : loadTaskFile(join(DATA_DIR, file));
    byId = new Map(loaded.map((t) => [t.id, t]));
    tasks.set(file, byId);
  }
  const t = byId.get(id);
  if (t === undefined) throw new Error(`no task ${id} in ${file}`);
  return t;
}

export function contextOf(domain: keyof typeof DOMAINS): GradingContext {
  let ctx = contexts.get(domain);
  if (ctx === undefined) {
    ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS[domain]), TAU2_QUIRKS);
    contexts.set(domain, ctx);
  }
  return ctx;
}

/** One call of a synthetic trajectory (a user "yes" precedes every agent call). */
export const step = (
  name: string,
  args: PyDict,
  requestor: Action["requestor"] = "assistant",
): ProbeStep => ({
  action: { name, arguments: args, requestor },
  confirm: requestor === "assistant",
});

export interface Graded {
  readonly tau3: Tau3Verdict;
  readonly structured: StructuredVerdict;
}

/**
 * Grades the calls as one simulation of the task (solo: the agent works alone, with the solo policy;
 * `gates`: gates beyond the defaults).
 */
export function gradeCalls(
  domain: keyof typeof DOMAINS,
  version: TaskVersionName,
  taskId: string,
  steps: readonly ProbeStep[],
  solo = false,
  gates: Partial<StructuredGates> = {},
): Graded {
  const ctx = contextOf(domain);
  const task = taskOf(domain, version, taskId);
  const messages = solo ? soloTrajectory(ctx, task, steps) : buildTrajectory(ctx, task, steps);
  const sim: Simulation = {
    id: "clause-test",
    task_id: task.id,
    trial: 0,
    termination_reason: solo ? "agent_stop" : "user_stop",
    messages,
    reward_info: null,
  };
  const tau3 = gradeTau3(ctx, task, sim, { solo, nl: null });
  const structured = gradeStructured({
    ctx,
    domain: DOMAINS[domain],
    task,
    taskVersions: [version],
    sim,
    solo,
    tau3,
    options: { ...options, gates: { ...options.gates, ...gates } },
  });
  return { tau3, structured };
}

/** A solo agent's trajectory: only its own calls (user tools included) and their results. */
function soloTrajectory(ctx: GradingContext, task: Task, steps: readonly ProbeStep[]): Message[] {
  const env = ctx.taskArtifacts(task).setup.fork(true);
  const messages: Message[] = [];
  steps.forEach((s, i) => {
    const id = `solo_${i}`;
    const { name, arguments: args } = s.action;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id, name, arguments: args, requestor: "assistant" }],
      turn_idx: i,
    });
    const out = env.respond(name, "assistant", args);
    messages.push({
      role: "tool",
      id,
      content: out.content,
      requestor: "assistant",
      error: out.error,
      turn_idx: i,
    });
  });
  messages.push({ role: "assistant", content: "Done. ###STOP###", tool_calls: null, turn_idx: steps.length });
  return messages;
}

/** What each clause said of the calls: `broken` or `licenses`, in call order. */
export const outcomes = (g: Graded, clauseId: string): string[] =>
  g.structured.clauses.filter((f) => f.clause.clause.id === clauseId).map((f) => f.outcome);

/** Clauses the policy clause files failed to verify for this domain (must be none). */
export const rejectedClauses = (g: Graded) => g.structured.rejected_clauses;
