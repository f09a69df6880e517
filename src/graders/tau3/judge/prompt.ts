/**
 * tau2's NL-assertion judge request, byte for byte (`evaluator_nl_assertions.py`): its prompts are
 * indented triple-quoted Python strings, and the conversation and the assertion list are interpolated
 * into the user prompt as they are, so only their first lines carry the template's indentation.
 */
import type { Message } from "../../../formats/model.ts";
import { pyListRepr } from "../../../py/repr.ts";

/** The model tau2 judges with (`DEFAULT_LLM_NL_ASSERTIONS`) and its temperature. */
export const DEFAULT_JUDGE_MODEL = "gpt-4.1-2025-04-14";
export const DEFAULT_JUDGE_TEMPERATURE = 0;

const I = "        "; // the eight spaces of the Python source's indentation

export const TAU2_JUDGE_SYSTEM_PROMPT = [
  "",
  `${I}TASK`,
  `${I}- You will be given a list of expected outcomes and a conversation that was collected during a test case run.`,
  `${I}- The conversation is between an agent and a customer.`,
  `${I}- Your job is to evaluate whether the agent satisfies each of the expected outcomes.`,
  `${I}- Grade each expected outcome individually.`,
  "",
  `${I}FORMAT`,
  `${I}- Your response should be a JSON object with the following fields:`,
  `${I}- \`reasoning\`: a short explanation for your classification`,
  `${I}- \`metExpectation\`: \`true\` if the agent satisfies the expected outcomes, \`false\` otherwise`,
  `${I}- \`expectedOutcome\`: repeat the expectation from the input that you are grading`,
  I,
  `${I}Example response structure:`,
  `${I}{`,
  `${I}    "results": [`,
  `${I}        {`,
  `${I}            "expectedOutcome": "<one of the expected outcomes from the input>",`,
  `${I}            "reasoning": "<reasoning trace>",`,
  `${I}            "metExpectation": <false or true>,`,
  `${I}        }`,
  `${I}    ]`,
  `${I}}`,
  I,
].join("\n");

/** Every message, tool messages included, as Python's `f"{role}: {content}"` (`None` when absent). */
export function renderConversation(messages: readonly Message[]): string {
  return messages.map((m) => `${m.role}: ${m.content ?? "None"}`).join("\n");
}

export function judgeUserPrompt(messages: readonly Message[], assertions: readonly string[]): string {
  return `\n${I}conversation:\n${I}${renderConversation(messages)}\n${I}\n${I}expectedOutcomes:\n${I}${pyListRepr(assertions)}\n${I}`;
}

export interface ChatMessage {
  readonly role: "system" | "user";
  readonly content: string;
}

/** The two messages tau2 sends: its system prompt, then the conversation and the assertions. */
export const judgeMessages = (messages: readonly Message[], assertions: readonly string[]): ChatMessage[] => [
  { role: "system", content: TAU2_JUDGE_SYSTEM_PROMPT },
  { role: "user", content: judgeUserPrompt(messages, assertions) },
];
