/**
 * The one way to build HTML: the `html` tagged template escapes every interpolated value unless it is
 * already `SafeHtml` (made by `html` itself, or by `trustedSvg` for vega's own SVG output). Trajectory
 * text (agent and user messages, tool arguments, quotes, paths, model names) is untrusted and only ever
 * reaches the page through an interpolation. Markdown gets its own escaper for the same text.
 */

import { sanitizeSvg } from "../charts/svg-safety.ts";
import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";
import { visibleText } from "../util/visible-text.ts";

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/**
 * Text → HTML text or attribute value (attributes are always double-quoted in our templates). Control and
 * bidi characters are shown as `\xNN` / `\uNNNN` (`visibleText`): a page copied into a terminal or read
 * aloud shows what the corpus holds; tabs and newlines stay, for conversation text laid out as lines.
 */
export const escapeHtml = (text: string): string =>
  visibleText(text, "\t\n").replace(/[&<>"'`]/g, (c) => HTML_ENTITIES[c] ?? c);

function render(v: HtmlValue): string {
  if (v instanceof SafeHtml) return v.value;
  if (v === null || v === undefined || v === false) return "";
  if (Array.isArray(v)) return v.map(render).join("");
  return escapeHtml(String(v));
}

/** Tagged template: literal parts are trusted (they are in our source), values are escaped. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

export class UnsafeSvgError extends RescoreError {
  override readonly code = "unsafe_svg";
  override readonly exitStatus = EXIT_INTERNAL;

  override readonly name = "UnsafeSvgError";
}

/**
 * An SVG string from vega's SVG renderer, which escapes text and attribute values itself, already made
 * inert by `sanitizeSvg` (`writeCharts`). Checked anyway: markup that could run script or load a resource
 * is refused rather than inlined. Text is not markup: a model name "javascript:x" is fine.
 */
export function trustedSvg(svg: string): SafeHtml {
  const safe = sanitizeSvg(svg);
  if (safe.warnings.length > 0) throw new UnsafeSvgError(`unsafe SVG: ${safe.warnings.join("; ")}`);
  return new SafeHtml(safe.svg);
}

const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
const isBlank = (c: string | undefined) => c === undefined || c === " " || c === "\t";

/**
 * Whether the character at `i` of `s` would mean something to Markdown (CommonMark + GFM tables,
 * strikethrough, autolinks, entities; GitHub's math, mentions, issue references and emoji shortcodes) if
 * left bare. `s` is one line that may start a Markdown line.
 */
function markdownSpecial(s: string, i: number): boolean {
  const c = s[i] as string;
  const prev = s[i - 1];
  const next = s[i + 1];
  switch (c) {
    case "\\": // escapes what follows
    case "`": // code span
    case "*": // emphasis (also inside a word)
    case "|": // table cell separator
    case "<": // raw HTML, autolink
    case ">": // blockquote (and the end of an autolink)
    case "~": // strikethrough
    case "$": // GitHub math
      return true;
    case "_": {
      // emphasis, but never inside a word: snake_case and a__b stay as they are
      let start = i;
      let end = i;
      while (s[start - 1] === "_") start--;
      while (s[end + 1] === "_") end++;
      return !(isWord(s[start - 1]) && isWord(s[end + 1]));
    }
    case "]": // a link or image forms only as [text](url), [text][ref] or a [ref]: definition
      return next === "(" || next === "[" || next === ":";
    case "&": // an entity or character reference
      return /^&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(s.slice(i, i + 40));
    case "@": // a mention
      return isWord(next) && !isWord(prev);
    case ":": // an emoji shortcode
      return /^:[\w+-]*[A-Za-z][\w+-]*:/.test(s.slice(i, i + 64)); // not a time: 04:29:16
    case "#": // a heading at the start of the line; an issue reference anywhere
      return (i === 0 && /^#{1,6}(?:[ \t]|$)/.test(s)) || (/[0-9]/.test(next ?? "") && !isWord(prev));
    case "-":
    case "+":
    case "=": // a list item, or a thematic break / setext underline, at the start of the line
      return i === 0 && (isBlank(next) || (c !== "+" && new RegExp(`^\\${c}+[ \t]*$`).test(s)));
    case ".":
    case ")": // an ordered list item: digits, then . or ), at the start of the line
      return /^[0-9]{1,9}$/.test(s.slice(0, i)) && isBlank(next);
    default:
      return false;
  }
}

/**
 * Untrusted text → one line of literal Markdown text, safe inside a table cell or at the start of a
 * line. Line breaks become a space; other control and bidi characters `\xNN` / `\uNNNN`, whose backslash
 * is then escaped like any. Only what would change the meaning where it stands is escaped, so numbers,
 * versions, intervals and snake_case names read as they are (`100.0% [83.9%, 100.0%]`, `v0.2.0_f8de30c`).
 */
export function escapeMarkdown(text: string): string {
  const s = visibleText(text.replace(/\s*[\r\n]+\s*/g, " "), "\t\n");
  let out = "";
  for (let i = 0; i < s.length; i++) out += markdownSpecial(s, i) ? `\\${s[i]}` : s[i];
  return out;
}

/**
 * Text → HTML element content (never an attribute value): only `&`, `<` and `>` need escaping there, so
 * conversation text keeps its quotes as they are. Control and bidi characters as in `escapeHtml`.
 */
export const htmlText = (text: string): SafeHtml =>
  new SafeHtml(visibleText(text, "\t\n").replace(/[&<>]/g, (c) => HTML_ENTITIES[c] ?? c));

/** A CSS or script constant written in our own source (never data) that goes into the page as is. */
export const sourceConstant = (text: string): SafeHtml => new SafeHtml(text);
