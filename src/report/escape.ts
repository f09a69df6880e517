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

/** Characters Markdown (CommonMark + GFM tables, autolinks, mentions) gives meaning to. */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()<>#+\-.!|~&@:=^$%"']/g;

/**
 * Untrusted text → one line of literal Markdown text, safe inside a table cell. Line breaks become a
 * space; other control and bidi characters `\xNN` / `\uNNNN`, whose backslash is then escaped like any.
 */
export const escapeMarkdown = (text: string): string =>
  visibleText(text.replace(/\s*[\r\n]+\s*/g, " "), "\t\n").replace(MARKDOWN_SPECIAL, (c) => `\\${c}`);

/** A CSS or script constant written in our own source (never data) that goes into the page as is. */
export const sourceConstant = (text: string): SafeHtml => new SafeHtml(text);
