/**
 * tau2's own gold replays of every banking_knowledge task (`tasks/task_*.json`, 97 tasks): the hash
 * after initialization, each gold action's result, exact output and the agent hash right after it,
 * the gold target, and the read-log allow-list tau2's `evaluate-trajs` derives per task.
 */
import { describe, expect, it } from "vitest";
import { agentDiscoverableTools, bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { readLogAllowlist } from "../../../src/domains/banking_knowledge/session.ts";
import { userDiscoverableTools } from "../../../src/domains/banking_knowledge/user-discoverable.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { mutatesState } from "../../../src/domains/toolkit.ts";
import type { Task } from "../../../src/formats/model.ts";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import { taskHashes } from "../../../src/pipeline/hash-report.ts";
import { replayMessages } from "../../../src/replay/replay.ts";
import { buildTaskSetup } from "../../../src/replay/setup.ts";
import {
  type BankingGoldVector,
  bankingContext,
  bankingData,
  bankingTasks,
  bankingVectors,
  FLAT_TASKS_PATH,
} from "./helpers.ts";

const vectors = bankingVectors();
const key = (task: Task) => `head/banking_knowledge/${task.id}`;

/** Replays one task's gold actions step by step, as the vectors were computed. */
function replayTask(task: Task, shared: Map<string, unknown>): string[] {
  const expected = vectors.gold[key(task)] as BankingGoldVector;
  const actions = task.evaluation_criteria?.actions ?? null;
  const setup = buildTaskSetup(bankingData(), task.initial_state, TAU2_QUIRKS, shared, actions);
  const bad: string[] = [];
  const check = (what: string, got: unknown, want: unknown) => {
    if (got !== want)
      bad.push(`${task.id} ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  check("after_init.agent", setup.agentHash(), expected.after_init.agent);
  check("after_init.user", setup.userHash(), expected.after_init.user);
  const env = setup.fork(false);
  replayMessages(env, task.initial_state?.message_history ?? [], { strict: false });
  (actions ?? []).forEach((a, i) => {
    const out = env.makeToolCall(a.name, a.requestor, a.arguments, true);
    check(`action ${i} ${a.name} result`, out.error ? out.content : "ok", expected.gold_action_results[i]);
    check(`action ${i} ${a.name} output`, out.content, expected.gold_action_outputs[i]);
    check(`action ${i} ${a.name} hash after`, env.agentHash(), expected.gold_action_agent_hash_after[i]);
    check(`action ${i} requestor`, a.requestor, expected.gold_action_requestors[i]);
  });
  check("gold_target.agent", env.agentHash(), expected.gold_target.agent);
  check("gold_target.user", env.userHash(), expected.gold_target.user);
  return bad;
}

describe("banking_knowledge gold vectors", () => {
  it("hashes the freshly loaded DB as tau2 does (agent and user are one DB)", () => {
    const data = bankingData();
    expect(data.userBase).toBe(data.agentBase);
    expect(DbState.of(data.agentBase).hash()).toBe(vectors.initial_db_hashes.banking_knowledge?.agent);
    expect(DbState.of(data.agentBase).hash()).toBe(vectors.initial_db_hashes.banking_knowledge?.user);
  });

  it("loads the 97 tasks of tasks/task_*.json, in tau2's sorted order", () => {
    const ids = bankingTasks().map((t) => t.id);
    expect(ids.length).toBe(97);
    expect(ids.map((id) => `head/banking_knowledge/${id}`)).toEqual(Object.keys(vectors.gold).sort());
    expect([...ids].sort()).toEqual(ids);
  });

  it("derives each task's read-log allow-list from its gold call_discoverable_agent_tool actions", () => {
    const got = bankingTasks().map((t) => [
      t.id,
      [...readLogAllowlist(t.evaluation_criteria?.actions ?? null)].sort(),
    ]);
    const want = bankingTasks().map((t) => [
      t.id,
      [...(vectors.gold[key(t)]?.read_log_allowlist ?? [])].sort(),
    ]);
    expect(got).toEqual(want);
  });

  it("gives every gold action's tool tau2's type, mutates flag and (non-)discoverable status", () => {
    const discoverable = new Set([...agentDiscoverableTools, ...userDiscoverableTools].map((t) => t.name));
    const got = bankingTasks().flatMap((t) =>
      (t.evaluation_criteria?.actions ?? []).map((a) => {
        const kit = a.requestor === "user" ? bankingDomain.userTools : bankingDomain.agentTools;
        const tool = kit?.tools.get(a.name);
        return tool === undefined
          ? { missing: a.name }
          : {
              tool_type: tool.kind,
              mutates_state: mutatesState(tool),
              discoverable: discoverable.has(a.name),
            };
      }),
    );
    expect(got).toEqual(bankingTasks().flatMap((t) => vectors.gold[key(t)]?.gold_action_tool_meta ?? []));
  });

  it("exposes every discoverable method as a tool of its own toolkit only (tau2's has_tool sees them)", () => {
    for (const t of agentDiscoverableTools) {
      expect(bankingDomain.agentTools.tools.get(t.name)).toBe(t);
      expect(bankingDomain.userTools?.tools.has(t.name)).toBe(false);
    }
    for (const t of userDiscoverableTools) {
      expect(bankingDomain.userTools?.tools.get(t.name)).toBe(t);
      expect(bankingDomain.agentTools.tools.has(t.name)).toBe(false);
    }
    expect(agentDiscoverableTools.length + userDiscoverableTools.length).toBe(48);
  });

  it("reproduces every gold action's result, output and hash, and every after-init and gold-target hash", () => {
    const shared = new Map<string, unknown>();
    const bad = bankingTasks().flatMap((t) => replayTask(t, shared));
    expect(bad.slice(0, 20)).toEqual([]);
    const actions = bankingTasks().reduce((n, t) => n + (t.evaluation_criteria?.actions?.length ?? 0), 0);
    expect(actions).toBe(955);
  });

  it("gives `tau-rescore hash --gold` rows equal to the vectors (grading context, allow-list and all)", () => {
    const ctx = bankingContext();
    const got = bankingTasks().map((t) => taskHashes(ctx, t, true));
    const want = bankingTasks().map((t) => {
      const v = vectors.gold[key(t)] as BankingGoldVector;
      return {
        task_id: t.id,
        after_init: v.after_init,
        gold_target: v.gold_target,
        gold_action_results: v.gold_action_results,
      };
    });
    expect(got).toEqual(want);
  });

  it("reproduces the gold targets of the flat tasks.json variants that differ from tasks/", () => {
    const flat = new Map(loadTaskFile(FLAT_TASKS_PATH).map((t) => [t.id, t]));
    const ctx = bankingContext();
    const entries = Object.entries(vectors.gold_tasks_json_variants);
    expect(entries.length).toBe(4);
    for (const [k, v] of entries) {
      const task = flat.get(k.split("/").pop() as string) as Task;
      expect(taskHashes(ctx, task, true)).toEqual({
        task_id: task.id,
        after_init: v.after_init,
        gold_target: v.gold_target,
        gold_action_results: v.gold_action_results,
      });
    }
  });
});
