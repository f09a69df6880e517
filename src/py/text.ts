/** Python string predicates that differ from JavaScript's. */

// Python's str.isspace set: JS `\s` lacks U+001C–U+001F and U+0085 but adds U+FEFF.
const PY_WHITESPACE_ONLY =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: U+001C–U+001F are whitespace to Python
  /^[\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** Python `s.strip() == ""`. */
export const isBlank = (s: string): boolean => PY_WHITESPACE_ONLY.test(s);

/** tau2's `has_text_content`: content present and not only whitespace. */
export const hasTextContent = (content: string | null): content is string =>
  content !== null && !isBlank(content);

/**
 * Python `str.lower()`. JS `toLowerCase` applies the same full Unicode mapping, final-sigma rule
 * included (checked against CPython 3.11: `'ΑΣ'.lower() == 'ας'`, `'İ'.lower() == 'i̇'`).
 */
export const pyLower = (s: string): string => s.toLowerCase();
