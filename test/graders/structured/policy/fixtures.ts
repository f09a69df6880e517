/** Tiny hand-built trajectories and toolkits, independent of the real domains. */
import { transferToHumanAgents } from "../../../../src/domains/shared-tools.ts";
import { makeToolkit, type ToolDef } from "../../../../src/domains/toolkit.ts";
import type { Action, Message, Task, ToolCall } from "../../../../src/formats/model.ts";
import type { PolicyDomain, PolicyInput } from "../../../../src/graders/structured/policy/index.ts";
import type { PyDict, PyValue } from "../../../../src/py/value.ts";

const tool = (name: string, kind: ToolDef["kind"]): ToolDef => ({ name, kind, params: [], run: () => "ok" });

export const agentTools = makeToolkit("FakeTools", [
  tool("cancel_order", "write"),
  tool("update_address", "write"),
  tool("get_order", "read"),
  tool("find_user_id_by_email", "read"),
  tool("find_user_id_by_name_zip", "read"),
  tool("think", "think"),
  transferToHumanAgents,
]);
export const userTools = makeToolkit("FakeUserTools", [tool("toggle_airplane_mode", "write")]);

export const domain = (name = "fake"): PolicyDomain => ({ name, agentTools, userTools });

export const call = (id: string, name: string, args: PyValue = {}): ToolCall => ({
  id,
  name,
  arguments: args,
  requestor: "assistant",
});

export const user = (content: string | null, turn_idx: number | null = null): Message => ({
  role: "user",
  content,
  tool_calls: null,
  turn_idx,
});

export const agent = (
  content: string | null,
  calls: ToolCall[] | null = null,
  turn_idx: number | null = null,
): Message => ({
  role: "assistant",
  content,
  tool_calls: calls,
  turn_idx,
});

export const result = (id: string, content: string, error = false): Message => ({
  role: "tool",
  id,
  content,
  requestor: "assistant",
  error,
  turn_idx: null,
});

export const action = (name: string, args: PyDict, compare_args: string[] | null = null): Action => ({
  action_id: `gold_${name}`,
  requestor: "assistant",
  name,
  arguments: args,
  info: null,
  compare_args,
});

export const task = (actions: Action[] | null = []): Task => ({
  id: "t1",
  user_scenario: { persona: null, instructions: "test" },
  ticket: null,
  initial_state: null,
  evaluation_criteria: {
    actions,
    env_assertions: null,
    communicate_info: null,
    nl_assertions: null,
    reward_basis: ["DB"],
  },
});

export const input = (messages: Message[], over: Partial<PolicyInput> = {}): PolicyInput => ({
  domain: domain(),
  task: task(),
  messages,
  terminationReason: "user_stop",
  ...over,
});
