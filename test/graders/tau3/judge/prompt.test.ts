/** The judge request is tau2's, byte for byte (tau2's prompt text from ../shared/vectors, never copied here). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  judgeMessages,
  judgeUserPrompt,
  TAU2_JUDGE_SYSTEM_PROMPT,
} from "../../../../src/graders/tau3/judge/prompt.ts";
import { SHARED_DIR } from "../../../helpers/data.ts";
import { calls, say } from "../../../helpers/messages.ts";

const tau2 = JSON.parse(readFileSync(join(SHARED_DIR, "vectors/tau2-nl-judge-prompt.json"), "utf8")) as {
  system_prompt: string;
  user_prompt_template: string;
};

/** Python's str.format of tau2's template: each field replaced once, as is. */
const pythonFormat = (template: string, fields: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => fields[name] ?? "");

describe("tau2's judge prompts", () => {
  it("the system prompt equals tau2's", () => {
    expect(TAU2_JUDGE_SYSTEM_PROMPT).toBe(tau2.system_prompt);
  });

  it("the user prompt is tau2's template with the conversation and Python's repr of the list", () => {
    const messages = [
      say("assistant", "Hi! How can I help?"),
      say("user", "It's about order #W1\nand a refund"),
      calls("assistant"),
      say("user", ""),
    ];
    const assertions = ["Agent says it's done", 'He said "no"', "back\\slash and 'both\" quotes"];
    const conversation = [
      "assistant: Hi! How can I help?",
      "user: It's about order #W1\nand a refund",
      "assistant: None",
      "user: ",
    ].join("\n");
    // Python: str(["Agent says it's done", 'He said "no"', 'back\\slash and \'both" quotes'])
    const repr = `["Agent says it's done", 'He said "no"', 'back\\\\slash and \\'both" quotes']`;
    expect(judgeUserPrompt(messages, assertions)).toBe(
      pythonFormat(tau2.user_prompt_template, { trajectory_str: conversation, nl_assertions: repr }),
    );
    expect(judgeMessages(messages, assertions).map((m) => m.role)).toEqual(["system", "user"]);
  });
});
