/**
 * τ-bench v1 trajectories: a list of `{task_id, reward, info{task, reward_info, ...}, traj, trial}` with
 * OpenAI-style messages. Each record becomes a tau2 simulation, and each embedded v1 task a tau2 task.
 *
 * Conversion choices (v1 records lack these tau2 fields):
 * - the system prompt (the policy) is dropped; `turn_idx` is the position among the kept messages;
 * - tool calls: `function.arguments` is a JSON string, parsed with Python number types;
 * - a tool message is an error when its content starts with `Error` (v1 returns exceptions as text);
 * - termination: `user_stop` when the last user message contains `###STOP###`, `agent_stop` when the run
 *   ended in `transfer_to_human_agents`, else `max_steps` (v1 ended runs only these three ways);
 * - simulation id `v1-<index>`; task id `String(task_id)`; gold action ids are their list index;
 * - the task's `user_id` is not kept: the v1 instruction already names the user.
 * - agent model: from a `<model>-<domain>.json` file name (tau-bench's own naming), else unknown.
 */
import { basename } from "node:path";
import { JsonSyntaxError, parsePyJson } from "../../py/parse.ts";
import type { PyValue } from "../../py/value.ts";
import { EXIT_INTERNAL, RescoreError } from "../../util/errors.ts";
import { z } from "../../util/zod.ts";
import { joinPath } from "../json-path.ts";
import type { Message, Simulation, Task, TerminationReason, ToolCall, TrajectoryFile } from "../model.ts";
import { deepestPath, nestingReason } from "../nesting.ts";
import { pyDictSchema } from "../py-schemas.ts";
import { EMPTY_RUN_INFO, inferDomain } from "../run-info.ts";
import type { Rejection } from "../simulation.ts";
import { DEFAULT_REWARD_BASIS } from "../tasks.ts";
import { firstIssue } from "../zod-issues.ts";
import { isRecord } from "./raw.ts";

/** v1 gold actions use `kwargs`, so that key is parsed with Python number types too. */
export const V1_TYPED_KEYS = ["arguments", "kwargs"];

const nullableText = z.string().nullable().default(null);

const v1ToolCallSchema = z.object({
  id: z.string().default(""),
  function: z.object({ name: z.string(), arguments: z.union([z.string(), pyDictSchema]) }),
});

const v1MessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: nullableText }),
  z.object({ role: z.literal("user"), content: nullableText }),
  z.object({
    role: z.literal("assistant"),
    content: nullableText,
    tool_calls: z.array(v1ToolCallSchema).nullable().default(null),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: nullableText }),
]);

const v1TaskSchema = z.object({
  instruction: z.string(),
  actions: z.array(z.object({ name: z.string(), kwargs: pyDictSchema })),
  outputs: z.array(z.string()).default([]),
});

const v1RecordSchema = z.object({
  task_id: z.union([z.number().int(), z.string()]),
  reward: z.number(),
  info: z.object({ task: v1TaskSchema, reward_info: z.unknown().optional() }),
  traj: z.array(v1MessageSchema),
  trial: z.number().int().nullable().default(null),
});

type V1Record = z.infer<typeof v1RecordSchema>;
type V1Message = V1Record["traj"][number];

/** Thrown inside a conversion to reject one record with a path. */
class RecordRejection extends RescoreError {
  override readonly code = "record_rejected";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(
    readonly segments: PropertyKey[],
    reason: string,
  ) {
    super(reason);
  }
}

function convertToolCall(call: z.infer<typeof v1ToolCallSchema>, at: PropertyKey[]): ToolCall {
  const raw = call.function.arguments;
  let args: PyValue = raw;
  if (typeof raw === "string") {
    try {
      args = parsePyJson(raw);
    } catch (err) {
      if (err instanceof JsonSyntaxError) {
        throw new RecordRejection(
          [...at, "function", "arguments"],
          `arguments are not valid JSON: ${err.message}`,
        );
      }
      throw err;
    }
  }
  return { id: call.id, name: call.function.name, arguments: args, requestor: "assistant" };
}

function convertMessages(traj: readonly V1Message[], recordIndex: number): Message[] {
  const out: Message[] = [];
  traj.forEach((m, j) => {
    const turn_idx = out.length;
    switch (m.role) {
      case "system":
        return; // the policy prompt; tau2 trajectories do not store it
      case "user":
        out.push({ role: "user", content: m.content, tool_calls: null, turn_idx });
        return;
      case "assistant": {
        const calls = m.tool_calls?.map((c, k) =>
          convertToolCall(c, [recordIndex, "traj", j, "tool_calls", k]),
        );
        out.push({ role: "assistant", content: m.content, tool_calls: calls ?? null, turn_idx });
        return;
      }
      case "tool":
        out.push({
          role: "tool",
          id: m.tool_call_id,
          content: m.content,
          requestor: "assistant",
          error: m.content?.startsWith("Error") ?? false,
          turn_idx,
        });
        return;
    }
  });
  return out;
}

function terminationOf(messages: readonly Message[]): TerminationReason {
  const last = messages.at(-1);
  if (last?.role === "user" && last.content?.includes("###STOP###")) return "user_stop";
  const lastCaller = messages.findLast((m) => m.role === "assistant" && m.tool_calls !== null);
  const transferred =
    lastCaller?.role === "assistant" &&
    lastCaller.tool_calls?.some((c) => c.name === "transfer_to_human_agents");
  if (last?.role === "tool" && transferred) return "agent_stop";
  return "max_steps";
}

function convertTask(record: V1Record): Task {
  const task = record.info.task;
  return {
    id: String(record.task_id),
    user_scenario: { persona: null, instructions: task.instruction },
    ticket: null,
    initial_state: null,
    evaluation_criteria: {
      actions: task.actions.map((a, i) => ({
        action_id: String(i),
        requestor: "assistant",
        name: a.name,
        arguments: a.kwargs,
        info: null,
        compare_args: null,
      })),
      env_assertions: null,
      communicate_info: task.outputs,
      nl_assertions: null,
      reward_basis: [...DEFAULT_REWARD_BASIS],
    },
  };
}

/** v1 `reward_info.info.r_actions` is the data-hash match, tau2's `db_match`. */
function recordedReward(record: V1Record): Simulation["reward_info"] {
  const raw = record.info.reward_info;
  const rActions = isRecord(raw) && isRecord(raw.info) ? raw.info.r_actions : undefined;
  return {
    reward: record.reward,
    db_match: typeof rActions === "number" ? rActions === 1 : null,
    nl_assertions: null,
    raw: raw ?? null,
  };
}

function modelFromFileName(file: string, domain: string | null): string | null {
  const stem = basename(file).replace(/\.json$/i, "");
  return domain !== null && stem.endsWith(`-${domain}`) ? stem.slice(0, -domain.length - 1) || null : null;
}

export function loadTauBenchV1(file: string, list: readonly unknown[]): TrajectoryFile {
  const simulations: Simulation[] = [];
  const rejected: Rejection[] = [];
  const tasks = new Map<string, Task>();
  const policies: string[] = [];
  list.forEach((raw, index) => {
    const deep = deepestPath(raw);
    if (deep !== null) {
      rejected.push({ index, id: null, path: joinPath("$", [index, ...deep]), reason: nestingReason() });
      return;
    }
    const parsed = v1RecordSchema.safeParse(raw);
    if (!parsed.success) {
      rejected.push({ index, id: null, ...firstIssue(parsed.error, joinPath("$", [index])) });
      return;
    }
    const record = parsed.data;
    try {
      const messages = convertMessages(record.traj, index);
      const task = convertTask(record);
      if (!tasks.has(task.id)) tasks.set(task.id, task);
      const system = record.traj.find((m) => m.role === "system");
      if (system?.content && policies.length === 0) policies.push(system.content);
      simulations.push({
        id: `v1-${index}`,
        task_id: task.id,
        trial: record.trial,
        termination_reason: terminationOf(messages),
        messages,
        reward_info: recordedReward(record),
      });
    } catch (err) {
      if (!(err instanceof RecordRejection)) throw err;
      rejected.push({ index, id: null, path: joinPath("$", err.segments), reason: err.message });
    }
  });
  const tools = new Set(
    simulations
      .flatMap((s) => s.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : [])))
      .map((c) => c.name),
  );
  const domain = inferDomain(policies, tools, file);
  const trials = new Set(simulations.map((s) => s.trial).filter((t) => t !== null));
  return {
    path: file,
    variant: "tau-bench-v1",
    info: {
      ...EMPTY_RUN_INFO,
      domain,
      agent_model: modelFromFileName(file, domain),
      num_trials: trials.size > 0 ? trials.size : null,
    },
    tasks: [...tasks.values()],
    simulations,
    rejected,
  };
}
