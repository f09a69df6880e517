/** Builders for small synthetic trajectories in tests. */
import type { Message, Requestor, ToolCall } from "../../src/formats/model.ts";
import type { PyValue } from "../../src/py/value.ts";

export const say = (role: "assistant" | "user", content: string): Message => ({
  role,
  content,
  tool_calls: null,
  turn_idx: null,
});

export const call = (
  id: string,
  name: string,
  args: PyValue,
  requestor: Requestor = "assistant",
): ToolCall => ({
  id,
  name,
  arguments: args,
  requestor,
});

export const calls = (role: "assistant" | "user", ...tcs: ToolCall[]): Message => ({
  role,
  content: null,
  tool_calls: tcs,
  turn_idx: null,
});

export const result = (
  id: string,
  content: string,
  error = false,
  requestor: Requestor = "assistant",
): Message => ({
  role: "tool",
  id,
  content,
  requestor,
  error,
  turn_idx: null,
});
