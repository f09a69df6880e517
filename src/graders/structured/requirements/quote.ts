/** Provenance of a requirement: where its quote sits in the task text, or the closest text there is. */
import type { Task } from "../../../formats/model.ts";
import type { SourceField } from "./schema.ts";

/** The text of one instructions field (`instructions` = the whole plain-string scenario). */
export function instructionField(task: Task, field: SourceField): string | null {
  if (field === "ticket") return task.ticket;
  const ins = task.user_scenario.instructions;
  if (typeof ins === "string") return field === "instructions" ? ins : null;
  return field === "instructions" ? null : (ins[field] ?? null);
}

/** A word with its points and commas: `1,200.00` is one word, and so are `A320` and `1e308`. */
const WORD = /[\w.,]+/g;
/** Plain digits or thousands grouped by commas, with an optional decimal part. */
const NUMBER_TOKEN = /^(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/;

/**
 * The numbers a text writes in digits, read with `$` and thousands commas left out: `$1,200`, `1200`
 * and `1,200.00` all read 1200; `2,000` reads 2000, not 2 or 0. A word with a letter in it (`A320`,
 * `1e308`) is no number. A sentence's closing `.` or `,` is not part of the number before it.
 */
export function numbersWrittenIn(text: string): number[] {
  const out: number[] = [];
  for (const [word] of text.matchAll(WORD)) {
    const token = word.replace(/[.,]+$/, "");
    if (NUMBER_TOKEN.test(token)) out.push(Number(token.replaceAll(",", "")));
  }
  return out;
}

export type QuoteLocation =
  | { readonly found: true; readonly start: number; readonly end: number }
  | { readonly found: false; readonly closest: string | null; readonly distance: number | null };

/** Offsets in Unicode code points (what Python's `str.find` reports), end exclusive. */
export function locateQuote(text: string | null, quote: string): QuoteLocation {
  if (text === null) return { found: false, closest: null, distance: null };
  const idx = text.indexOf(quote);
  if (idx >= 0) {
    const start = codePoints(text, 0, idx);
    return { found: true, start, end: start + codePoints(quote, 0, quote.length) };
  }
  const best = closestWindow(text, quote);
  return { found: false, closest: best.text, distance: best.distance };
}

/** Code points in `s[from, to)` (UTF-16 units less the low halves of surrogate pairs), without copying. */
function codePoints(s: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from + 1; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const h = s.charCodeAt(i - 1);
      if (h >= 0xd800 && h <= 0xdbff) n--;
    }
  }
  return n;
}

/** The window of the text (starting at a word boundary) with the least edit distance to the quote. */
function closestWindow(text: string, quote: string): { text: string; distance: number } {
  let best = { text: "", distance: Number.POSITIVE_INFINITY };
  const n = quote.length;
  for (let i = 0; i < text.length; i++) {
    if (i > 0 && /\w/.test(text[i - 1] as string) && /\w/.test(text[i] as string)) continue;
    const window = text.slice(i, i + n);
    const d = levenshtein(window, quote, best.distance);
    if (d < best.distance) best = { text: window, distance: d };
  }
  return best;
}

/** Edit distance, giving up (returning `cap`) once every cell of a row exceeds `cap`. */
function levenshtein(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length] as number;
}
