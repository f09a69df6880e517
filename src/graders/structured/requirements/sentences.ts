/**
 * Splits task instructions into sentences with code-point offsets (what Python's `str.find` and the
 * fixtures' quote offsets use). Good enough for English scenario text: it ends a sentence at `.`,
 * `!` or `?` followed by whitespace, and at every line break, but not after common abbreviations.
 */

export interface Sentence {
  readonly text: string;
  /** Code-point offsets in the field, end exclusive. */
  readonly start: number;
  readonly end: number;
}

/** Words that end in a dot without ending a sentence (lower case, without the dot). */
const ABBREVIATIONS = new Set([
  "e.g",
  "i.e",
  "mr",
  "mrs",
  "ms",
  "dr",
  "st",
  "vs",
  "a.m",
  "p.m",
  "no",
  "approx",
]);

const CLOSERS = new Set(['"', "'", ")", "\u201d", "\u2019"]);

export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const push = (from: number, to: number): void => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body === "") return;
    const start = codePointLength(text.slice(0, from + lead));
    out.push({ text: body, start, end: start + codePointLength(body) });
  };
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\n") {
      push(from, i);
      from = i + 1;
      continue;
    }
    if (ch !== "." && ch !== "!" && ch !== "?") continue;
    let end = i + 1;
    while (end < text.length && CLOSERS.has(text[end] as string)) end++;
    const next = text[end];
    if (next !== undefined && !/\s/.test(next)) continue;
    if (ch === "." && ABBREVIATIONS.has(wordBefore(text, i))) continue;
    push(from, end);
    from = end;
    i = end - 1;
  }
  push(from, text.length);
  return out;
}

const codePointLength = (s: string): number => [...s].length;

/** The word (letters and inner dots) right before position `i`, lower-cased. */
function wordBefore(text: string, i: number): string {
  let j = i;
  while (j > 0 && /[A-Za-z.]/.test(text[j - 1] as string)) j--;
  return text.slice(j, i).toLowerCase();
}
