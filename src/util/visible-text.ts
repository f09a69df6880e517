/**
 * Untrusted text (file names, model names, simulation ids, messages from a corpus) made visible and inert
 * wherever it lands: a terminal, report.html, report.md, chart text (SVG and PNG). One definition of the
 * unsafe set, one convention: each unsafe character becomes `\xNN` (up to U+00FF) or `\uNNNN`.
 *
 * Unsafe: C0 controls, DEL, C1 controls (escape sequences, carriage returns, bells), the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder the text around them),
 * and what XML forbids besides (lone surrogates, U+FFFE, U+FFFF), which makes an SVG unparsable.
 */

// With the `u` flag a surrogate range matches only unpaired surrogates; paired ones are one code point.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]/gu;

const escaped = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** Unsafe characters kept as they are, where the format gives them their plain meaning. */
export type Kept = "" | "\t\n";

/**
 * `text` with every unsafe character shown as `\xNN` / `\uNNNN`, except those in `keep` (tab and newline,
 * for text laid out over several lines: a conversation, a terminal page).
 */
export const visibleText = (text: string, keep: Kept = ""): string =>
  text.replace(UNSAFE, (ch) => (keep.includes(ch) ? ch : escaped(ch)));
