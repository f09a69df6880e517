/** The terminal view of a flip cause: the evidence turn marked, and no escape sequence from a trajectory. */
import { describe, expect, it } from "vitest";
import type { MessageRow, ReviewTarget } from "../../src/reviews/queries.ts";
import { printable, renderTarget } from "../../src/reviews/terminal.ts";

const ESC = "\u001b";
const target: ReviewTarget = {
  sim_key: "k",
  grader: "structured",
  seq: 0,
  kind: "requirement",
  reference: "airline.47.no_transfer",
  message: `transfer after refusal ${ESC}[2J`,
  message_index: 5,
  turn_idx: 5,
  domain: "airline",
  model: "m [agent]",
  task_id: "47",
  trial: 0,
  path: "dir/f.json",
  simulation_id: `sim${ESC}]0;title\u0007`,
  excluded: false,
  fingerprint: "f".repeat(64),
  verdict: null,
  flips: [
    {
      comparison: "tau3-vs-structured",
      baseline: "tau3",
      candidate: "structured",
      direction: "pass_to_fail",
    },
    {
      comparison: "structured-vs-lenient",
      baseline: "structured",
      candidate: "lenient",
      direction: "fail_to_pass",
    },
  ],
};
const messages: MessageRow[] = Array.from({ length: 20 }, (_, i) => ({
  message_index: i,
  role: i % 2 === 1 ? "assistant" : "user",
  content: i === 5 ? `I will transfer you now\r${ESC}[31mred` : `message ${i}`,
  tool_calls:
    i === 5
      ? JSON.stringify([{ id: "c1", name: "transfer_to_human_agents", arguments: { summary: "x" } }])
      : null,
  tool_call_id: null,
  tool_error: null,
  turn_idx: i,
}));

describe("renderTarget", () => {
  const text = renderTarget({
    target,
    position: { index: 2, total: 7 },
    evidence: [],
    task: {
      persona: null,
      instructions: JSON.stringify({ task_instructions: "Never transfer me." }),
      ticket: null,
      criteria: null,
    },
    messages,
    writes: [],
    context: 2,
  });

  it("marks the evidence turn and shows its neighbours, not the whole conversation", () => {
    expect(text).toContain(">> #5 [turn 5] assistant: I will transfer you now");
    expect(text).toContain('→ transfer_to_human_agents({"summary":"x"})');
    for (const shown of [3, 4, 6, 7]) expect(text).toContain(`   #${shown} [turn ${shown}]`);
    for (const hidden of [0, 2, 8, 19]) expect(text).not.toContain(`#${hidden} [turn`);
    expect(text).toContain("2 of 7");
    expect(text).toContain("task_instructions: Never transfer me.");
  });

  it("names each comparison the cause flips, and which side passed and which failed", () => {
    const lines = text.split("\n");
    const at = lines.indexOf("flip: tau3-vs-structured: tau3 passed, structured failed");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe("flip: structured-vs-lenient: lenient passed, structured failed");
    expect(lines[at + 2]).toBe("cause: requirement airline.47.no_transfer (structured)");
  });

  it("shows no control character from the trajectory", () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain("now\\x0d\\x1b[31mred");
    expect(text).toContain("sim\\x1b]0;title\\x07");
    expect(text).not.toContain("\uFFFD");
  });

  it("marks the writes when the cause has no turn of its own", () => {
    const db = renderTarget({
      target: { ...target, kind: "unlicensed_write", message_index: null, turn_idx: null },
      position: { index: 1, total: 1 },
      evidence: [],
      task: null,
      messages,
      writes: [12],
      context: 1,
    });
    expect(db).toContain(">> #12 [turn 12]");
    expect(db).toContain("wrote to the DB");
  });
});

describe("printable", () => {
  it("keeps newlines and tabs, and shows escape sequences, carriage returns and bidi overrides as \\xNN / \\uNNNN", () => {
    expect(printable(`a\tb\nc${ESC}[0m\r\u202Ed\u009b\u2066`)).toBe(
      "a\tb\nc\\x1b[0m\\x0d\\u202ed\\x9b\\u2066",
    );
  });
});
