/**
 * Text from a corpus (file names, model names) on its way to a terminal: control characters (C0, DEL,
 * C1) and bidi overrides are shown as `\xNN` / `\uNNNN`, so a name cannot move the cursor, retitle the
 * window or hide text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const visible = (ch: string): string => {
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
};

export const terminalSafe = (text: string): string => text.replace(UNSAFE, visible);
