/**
 * Reads a judge reply as strictly as the format allows. tau2 raises on a reply without content, on
 * content that is not a JSON object, and on results missing a key; each of these is an `unknown`
 * judgement here, never a pass. Replies tau2 accepts although they judge less than was asked (`{}`,
 * `{"results": []}`, fewer results than assertions) keep tau2's score and are flagged degenerate.
 */
import type { NlAssertionResult } from "../nl.ts";

export type ParsedReply =
  | {
      readonly ok: true;
      readonly results: readonly NlAssertionResult[];
      /** Why tau2 scored a reply that judged less than it was asked, or null. */
      readonly degenerate: string | null;
    }
  | { readonly ok: false; readonly reason: string };

const fail = (reason: string): ParsedReply => ({ ok: false, reason });

const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v);

/** The message content of an OpenAI-compatible chat completion, or why there is none. */
export function replyContent(payload: unknown): { content: string } | { reason: string } {
  const choices = (payload as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return { reason: "the reply has no choices" };
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content !== "string") return { reason: `the reply's message content is ${typeName(content)}` };
  return { content };
}

export function parseJudgeContent(content: string, assertions: readonly string[]): ParsedReply {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (e) {
    return fail(`the reply is not JSON (${(e as Error).message})`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    return fail(`the reply is JSON ${typeName(data)}, not an object with \`results\``);
  const hasResults = Object.hasOwn(data, "results");
  const results = hasResults ? (data as { results: unknown }).results : [];
  if (!Array.isArray(results)) return fail(`the reply's \`results\` is ${typeName(results)}, not a list`);
  const out: NlAssertionResult[] = [];
  for (const [i, r] of results.entries()) {
    if (r === null || typeof r !== "object" || Array.isArray(r))
      return fail(`results[${i}] is ${typeName(r)}, not an object`);
    const item = r as Record<string, unknown>;
    for (const key of ["expectedOutcome", "metExpectation", "reasoning"])
      if (!Object.hasOwn(item, key)) return fail(`results[${i}] has no \`${key}\``);
    if (typeof item.metExpectation !== "boolean")
      return fail(`results[${i}].metExpectation is ${typeName(item.metExpectation)}, not a boolean`);
    if (typeof item.expectedOutcome !== "string")
      return fail(`results[${i}].expectedOutcome is ${typeName(item.expectedOutcome)}, not a string`);
    if (typeof item.reasoning !== "string")
      return fail(`results[${i}].reasoning is ${typeName(item.reasoning)}, not a string`);
    out.push({ assertion: item.expectedOutcome, met: item.metExpectation, justification: item.reasoning });
  }
  const degenerate = !hasResults
    ? "the reply has no `results` (tau2 scores it 1)"
    : out.length < assertions.length
      ? `the reply judged ${out.length} of ${assertions.length} assertions (tau2 scores the ones returned)`
      : null;
  return { ok: true, results: out, degenerate };
}
