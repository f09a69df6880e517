/** Reading judge replies: what tau2 raises on is unknown here, what it accepts degenerately is flagged. */
import { describe, expect, it } from "vitest";
import { parseJudgeContent, replyContent } from "../../../../src/graders/tau3/judge/reply.ts";

const A = ["Agent refunds", "Agent apologises"];
const item = (o: string, met: unknown = true) => ({
  expectedOutcome: o,
  reasoning: "r",
  metExpectation: met,
});

describe("parseJudgeContent", () => {
  it("reads a complete reply", () => {
    const r = parseJudgeContent(JSON.stringify({ results: A.map((a) => item(a)) }), A);
    expect(r).toEqual({
      ok: true,
      degenerate: null,
      results: A.map((a) => ({ assertion: a, met: true, justification: "r" })),
    });
  });

  it.each([
    ["null", "the reply is JSON null, not an object with `results`"],
    ["[]", "the reply is JSON a list, not an object with `results`"],
    ['{"results": {}}', "the reply's `results` is object, not a list"],
    ['{"results": [{"reasoning": "x"}]}', "results[0] has no `expectedOutcome`"],
    ['{"results": [{"expectedOutcome": "a", "reasoning": "x"}]}', "results[0] has no `metExpectation`"],
    [
      '{"results": [{"expectedOutcome": "a", "metExpectation": "true", "reasoning": "x"}]}',
      "results[0].metExpectation is string, not a boolean",
    ],
    [
      '{"results": [{"expectedOutcome": "a", "metExpectation": true, "reasoning": null}]}',
      "results[0].reasoning is null, not a string",
    ],
    ['{"results": [1]}', "results[0] is number, not an object"],
  ])("%s is unknown, never a pass", (content, reason) => {
    expect(parseJudgeContent(content, A)).toEqual({ ok: false, reason });
  });

  it("truncated JSON is unknown with the parser's reason", () => {
    const r = parseJudgeContent('{"results": [{"expectedOutcome"', A);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^the reply is not JSON \(/);
  });

  it.each([
    ["{}", "the reply has no `results` (tau2 scores it 1)", 0],
    ['{"results": []}', "the reply judged 0 of 2 assertions (tau2 scores the ones returned)", 0],
    [
      JSON.stringify({ results: [item("Agent refunds", false)] }),
      "the reply judged 1 of 2 assertions (tau2 scores the ones returned)",
      1,
    ],
  ])("%s keeps tau2's score and is flagged degenerate", (content, degenerate, n) => {
    const r = parseJudgeContent(content, A);
    expect(r.ok && r.degenerate).toBe(degenerate);
    expect(r.ok && r.results.length).toBe(n);
  });
});

describe("replyContent", () => {
  it.each([
    [{ choices: [{ message: { content: null } }] }, "the reply's message content is null"],
    [{ choices: [] }, "the reply has no choices"],
    [{}, "the reply has no choices"],
    [null, "the reply has no choices"],
    [{ choices: [{ message: { content: ["x"] } }] }, "the reply's message content is a list"],
  ])("%j has no content", (payload, reason) => {
    expect(replyContent(payload)).toEqual({ reason });
  });
});
