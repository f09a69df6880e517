import { describe, expect, it } from "vitest";
import type { Message } from "../../../../src/formats/model.ts";
import type { Evidence } from "../../../../src/graders/evidence.ts";
import { findFormatErrors } from "../../../../src/graders/structured/policy/index.ts";
import { agent, call, input, result, user } from "./fixtures.ts";

const codes = (es: Evidence[]) => es.map((e) => [e.code, e.messageIndex, e.toolCallId]);
const errorsOf = (messages: Message[], terminationReason = "user_stop") =>
  findFormatErrors(input(messages, { terminationReason }));

describe("format.unparsed_tool_call", () => {
  it.each([
    ['<tool_call>\n{"name": "get_order", "arguments": {"order_id": "#1"}}\n</tool_call>', "<tool_call> tag"],
    ["<function=get_order>\n<parameter=order_id>#1</parameter>\n</function>", "<function=...> tag"],
    ['[TOOL_CALLS][{"name": "get_order", "arguments": {}}]', "[TOOL_CALLS] marker"],
    ["<|tool_call|>get_order", "tool-call special token"],
    ["<\uff5ctool\u2581calls\u2581begin\uff5c>", "tool-call special token"],
    ['Checking now. {"name": "get_order", "arguments": {"order_id": "#1"}}', "JSON tool call"],
    ["{'arguments': {'order_id': '#1'}, 'name': 'get_order'}", "JSON tool call"],
    ["functions.get_order(order_id='#1')", "functions.<name>( call"],
    ["<|start|>assistant to=functions.get_order", "to=functions.<name> recipient"],
  ])("flags %j", (text, label) => {
    const found = errorsOf([user("hi"), agent(text, null, 2)]).filter(
      (e) => e.code === "format.unparsed_tool_call",
    );
    expect(found).toEqual([
      {
        code: "format.unparsed_tool_call",
        message: `Agent text to the user contains tool-call markup (${label}).`,
        messageIndex: 1,
        turnIdx: 2,
        excerpt: expect.any(String),
      },
    ]);
  });

  it.each([
    "I will look up your order now.",
    'Your profile shows {"name": "John Doe", "zip": "12345"}.',
    "The function of this fee is to cover handling. Call us anytime.",
    "Which functions (features) of the app do you use?",
    "Options: economy | business | first.",
    "Use <b>bold</b> text or a <br> break.",
    "I called the tool rental desk.",
  ])("does not flag %j", (text) => {
    expect(errorsOf([agent(text)])).toEqual([]);
  });

  it("reads only agent text, not user text", () => {
    expect(errorsOf([user("<tool_call>"), agent("ok")])).toEqual([]);
  });
});

describe("format.unknown_tool", () => {
  it("flags an agent call to a tool in neither toolkit", () => {
    const messages = [
      user("hi"),
      agent(null, [call("c1", "drop_tables", { x: 1 })]),
      result("c1", "Error: Tool 'drop_tables' not found"),
    ];
    expect(errorsOf(messages)).toEqual([
      {
        code: "format.unknown_tool",
        message: "Tool drop_tables exists in no toolkit.",
        messageIndex: 1,
        toolCallId: "c1",
        toolName: "drop_tables",
        arguments: { x: 1 },
        excerpt: "hi",
      },
    ]);
  });

  it("accepts tools of the agent and of the user toolkit", () => {
    const messages = [
      agent(null, [call("c1", "get_order")]),
      agent(null, [call("c2", "toggle_airplane_mode")]),
    ];
    expect(errorsOf(messages)).toEqual([]);
  });
});

describe("format.invalid_arguments", () => {
  it("flags arguments that are not an object", () => {
    expect(codes(errorsOf([agent(null, [call("c1", "get_order", "order #1")])]))).toEqual([
      ["format.invalid_arguments", 0, "c1"],
    ]);
  });

  it.each([
    "Error: FakeTools.cancel_order() got an unexpected keyword argument 'why'",
    "Error: FakeTools.cancel_order() missing 1 required positional argument: 'order_id'",
    "Error: FakeTools.cancel_order() missing 2 required positional arguments: 'a' and 'b'",
    "Error: 1 validation error for Task\ntitle\n  Input should be a valid string",
    "Error: FakeTools.cancel_order() argument after ** must be a mapping, not list",
  ])("flags a call the tool rejected for its arguments: %j", (text) => {
    const messages = [agent(null, [call("c1", "cancel_order", { why: 1 })]), result("c1", text, true)];
    const found = errorsOf(messages);
    expect(codes(found)).toEqual([["format.invalid_arguments", 0, "c1"]]);
    expect(found[0]?.message).toBe("The tool rejected the arguments of cancel_order (result #1).");
  });

  it("also recognises a rejection by its Error: text when the error flag is missing", () => {
    const messages = [
      agent(null, [call("c1", "cancel_order")]),
      result("c1", "Error: x() got an unexpected keyword argument 'y'"),
    ];
    expect(codes(errorsOf(messages))).toEqual([["format.invalid_arguments", 0, "c1"]]);
  });

  it("does not treat business errors or successful results as format errors", () => {
    const messages = [
      user("cancel H8Q05L"),
      agent(null, [call("c1", "cancel_order", { order_id: "H8Q05L" })]),
      result("c1", "Error: Reservation H8Q05L not found", true),
      agent(null, [call("c2", "get_order")]),
      result("c2", "note: 1 validation error for Task was fixed"),
      agent("Sorry, I could not find that reservation."),
    ];
    expect(errorsOf(messages, "user_stop")).toEqual([]);
  });
});

describe("format.empty_message", () => {
  it("flags an agent message with no text and no tool calls", () => {
    const messages = [user("hi"), agent(null), agent(" \n", []), agent(null, [call("c1", "get_order")])];
    expect(codes(errorsOf(messages))).toEqual([
      ["format.empty_message", 1, undefined],
      ["format.empty_message", 2, undefined],
    ]);
  });
});

describe("format.truncated_generation", () => {
  it("flags an unclosed code fence", () => {
    const found = errorsOf([agent('Here is the summary:\n```json\n{"order": 1')]);
    expect(codes(found)).toEqual([["format.truncated_generation", 0, undefined]]);
    expect(found[0]?.message).toBe("Agent text ends with an unclosed code fence.");
  });

  it("flags an unclosed tool-call tag (and the markup itself)", () => {
    const found = errorsOf([agent('Checking.\n<tool_call>\n{"name": "get_order", "argu')]);
    expect(codes(found)).toEqual([
      ["format.unparsed_tool_call", 0, undefined],
      ["format.truncated_generation", 0, undefined],
    ]);
    expect(found[1]?.message).toBe("Agent text ends with an unclosed <tool_call> tag.");
  });

  it("passes closed fences and closed tags, and plain replies that stop mid-sentence", () => {
    expect(errorsOf([agent("Run:\n```\nreboot\n```\nthen wait.")])).toEqual([]);
    expect(codes(errorsOf([agent("<tool_call>{}</tool_call>")]))).toEqual([
      ["format.unparsed_tool_call", 0, undefined],
    ]);
    expect(errorsOf([agent("Your new flight departs at")])).toEqual([]);
  });
});

describe("format.protocol_error", () => {
  it("reports an agent_error ending that nothing else explains, at the last message", () => {
    const messages = [user("hi", 0), agent("Hello", null, 1)];
    expect(errorsOf(messages, "agent_error")).toEqual([
      {
        code: "format.protocol_error",
        message: "The episode ended with agent_error and no other format error explains it.",
        messageIndex: 1,
        turnIdx: 1,
        excerpt: "Hello",
      },
    ]);
  });

  it("is not reported when another format error explains the ending", () => {
    expect(codes(errorsOf([user("hi"), agent(null)], "agent_error"))).toEqual([
      ["format.empty_message", 1, undefined],
    ]);
  });

  it("is not reported for other endings, and has no location for an empty episode", () => {
    expect(errorsOf([user("hi"), agent("Hello")], "user_stop")).toEqual([]);
    expect(errorsOf([], "agent_error")).toEqual([
      {
        code: "format.protocol_error",
        message: "The episode ended with agent_error and no other format error explains it.",
      },
    ]);
  });
});
