/**
 * An NL-assertion judge over any OpenAI-compatible chat endpoint. Same input and output contract
 * as tau2's judge (the conversation as `role: content` lines, the assertions as a Python list
 * literal, a JSON reply `{"results": [{expectedOutcome, reasoning, metExpectation}]}`); the system
 * prompt is our own wording. Any transport or format failure makes the judgement `unknown`.
 */
import type { Message, Simulation, Task } from "../../formats/model.ts";
import { pyListRepr } from "../../py/repr.ts";
import type { NlJudge, NlJudgement } from "./nl.ts";

export interface HttpJudgeConfig {
  /** e.g. `https://api.openai.com/v1` or a local server; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | null;
  readonly timeoutMs?: number;
}

export const DEFAULT_JUDGE_MODEL = "gpt-4.1-2025-04-14";

const SYSTEM_PROMPT = [
  "You grade a customer-service conversation between an agent and a customer against a list of expected outcomes.",
  "Judge every expected outcome on its own, using only what the conversation shows.",
  'Answer with one JSON object: {"results": [{"expectedOutcome": "<the outcome, repeated>", "reasoning": "<short reason>", "metExpectation": true or false}]}.',
].join("\n");

/** tau2 renders every message, tool messages included, as `role: content` (`None` when empty). */
export function renderConversation(messages: readonly Message[]): string {
  return messages.map((m) => `${m.role}: ${m.content ?? "None"}`).join("\n");
}

export function judgeUserPrompt(messages: readonly Message[], assertions: readonly string[]): string {
  return `conversation:\n${renderConversation(messages)}\n\nexpectedOutcomes:\n${pyListRepr(assertions)}\n`;
}

export function httpJudge(config: HttpJudgeConfig, fetchImpl: typeof fetch = fetch): NlJudge {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    mode: "http",
    async judge(_task: Task, sim: Simulation, assertions: readonly string[]): Promise<NlJudgement> {
      const body = {
        model: config.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: judgeUserPrompt(sim.messages, assertions) },
        ],
      };
      let payload: unknown;
      try {
        const res = await fetchImpl(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(config.apiKey === null ? {} : { authorization: `Bearer ${config.apiKey}` }),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(config.timeoutMs ?? 120_000),
        });
        if (!res.ok) return { status: "unknown", reason: `judge HTTP ${res.status} from ${url}` };
        payload = await res.json();
      } catch (e) {
        return { status: "unknown", reason: `judge request failed: ${(e as Error).message}` };
      }
      return parseJudgeReply(payload, config.model);
    },
  };
}

/** Reads the chat completion; every shape problem is an `unknown` judgement with its reason. */
export function parseJudgeReply(payload: unknown, model: string): NlJudgement {
  const content = (payload as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message
    ?.content;
  if (typeof content !== "string") return { status: "unknown", reason: "judge reply has no message content" };
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { status: "unknown", reason: "judge reply is not JSON" };
  }
  const results = (data as { results?: unknown })?.results ?? [];
  if (!Array.isArray(results)) return { status: "unknown", reason: "judge reply `results` is not a list" };
  const out = [];
  for (const r of results) {
    const { expectedOutcome, metExpectation, reasoning } = (r ?? {}) as Record<string, unknown>;
    if (typeof metExpectation !== "boolean")
      return { status: "unknown", reason: "judge result without a boolean metExpectation" };
    out.push({
      assertion: typeof expectedOutcome === "string" ? expectedOutcome : "",
      met: metExpectation,
      justification: typeof reasoning === "string" ? reasoning : null,
    });
  }
  return { status: "judged", source: `http:${model}`, results: out };
}
