/**
 * Text from a corpus (file names, model names) on its way to a terminal: control characters (C0, DEL,
 * C1) and bidi controls are shown as `\xNN` / `\uNNNN` (`visibleText`), so a name cannot move the cursor,
 * retitle the window or hide text. Newlines too: a name is one line.
 */
import { visibleText } from "../util/visible-text.ts";

export const terminalSafe = (text: string): string => visibleText(text);
