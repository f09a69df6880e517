/**
 * Text patterns of a model's tool-call syntax that leaked into its reply, and of a reply cut off
 * mid-generation. Tuned for few false positives: each pattern is syntax no customer-service reply
 * would write on its own.
 */

export interface MarkupHit {
  readonly label: string;
  readonly index: number;
}

/** Tool-call markup of the common chat templates (Hermes/Qwen, Llama, Mistral, DeepSeek, harmony, XML). */
const TOOL_CALL_MARKUP: readonly { readonly label: string; readonly pattern: RegExp }[] = [
  { label: "<tool_call> tag", pattern: /<\/?tool_call>/i },
  { label: "<function=...> tag", pattern: /<function=|<\/function>/i },
  { label: "[TOOL_CALLS] marker", pattern: /\[TOOL_CALLS\]/ },
  // Special tokens such as <|tool_call|>, <|python_tag|>, <｜tool▁calls▁begin｜>.
  {
    label: "tool-call special token",
    pattern: /<[|\uff5c][^<>|\uff5c\s]*(?:tool|call|function|python_tag)[^<>|\uff5c\s]*[|\uff5c]>/i,
  },
  { label: "<function_calls> block", pattern: /<\/?function_calls>|<invoke\s+name=/i },
  {
    label: "JSON tool call",
    pattern:
      /\{\s*["']name["']\s*:\s*["'][^"'\n]{1,80}["']\s*,\s*["'](?:arguments|parameters)["']\s*:|\{\s*["'](?:arguments|parameters)["']\s*:\s*\{[^{}]*\}\s*,\s*["']name["']\s*:/,
  },
  { label: "functions.<name>( call", pattern: /\bfunctions\.[A-Za-z_]\w*\s*\(/ },
  { label: "to=functions.<name> recipient", pattern: /\bto=functions\.[A-Za-z_]\w*/ },
];

const MARKUP_PREFILTER = /[<{[\uff5c]|functions\./;

/** The earliest tool-call markup in the text, or null. */
export function findToolCallMarkup(text: string): MarkupHit | null {
  // Every pattern needs one of these; most replies have none, so one scan rules them all out.
  if (!MARKUP_PREFILTER.test(text)) return null;
  let best: MarkupHit | null = null;
  for (const { label, pattern } of TOOL_CALL_MARKUP) {
    const m = pattern.exec(text);
    if (m !== null && (best === null || m.index < best.index)) best = { label, index: m.index };
  }
  return best;
}

/** Opening/closing tag pairs whose opening without a later closing means the text stops inside a call. */
const CALL_TAGS: readonly { readonly label: string; readonly open: RegExp; readonly close: string }[] = [
  { label: "<tool_call>", open: /<tool_call>/gi, close: "</tool_call>" },
  { label: "<function=...>", open: /<function=/gi, close: "</function>" },
  { label: "<function_calls>", open: /<function_calls>/gi, close: "</function_calls>" },
];

const lastIndex = (text: string, re: RegExp): number => {
  let at = -1;
  for (const m of text.matchAll(re)) at = m.index;
  return at;
};

/**
 * Why the text looks cut off, or null. Conservative by design: only an unclosed code fence or an
 * unclosed tool-call tag counts. Without `finish_reason` (not kept in trajectories) a reply that
 * simply stops mid-sentence cannot be told from a terse one.
 */
export function truncationSign(text: string): string | null {
  const fences = text.includes("```") ? (text.match(/```/g)?.length ?? 0) : 0;
  if (fences % 2 === 1) return "an unclosed code fence";
  if (!text.includes("<")) return null; // every call tag opens with one; most replies have none
  const lower = text.toLowerCase();
  for (const { label, open, close } of CALL_TAGS) {
    const opened = lastIndex(text, open);
    if (opened >= 0 && lower.lastIndexOf(close) < opened) return `an unclosed ${label} tag`;
  }
  return null;
}

/** Python's texts for a call its arguments could not bind to, or that pydantic rejected. */
const ARGUMENT_REJECTION =
  /got an unexpected keyword argument|missing \d+ required (?:positional |keyword-only )?arguments?|validation errors? for|argument after \*\* must be a mapping/;

export const isArgumentRejection = (resultText: string): boolean => ARGUMENT_REJECTION.test(resultText);
