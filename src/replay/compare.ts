/** Output comparison as tau2 does it: `json.loads` both sides (raw string if not JSON), then `==`. */
import { parsePyJson } from "../py/parse.ts";
import type { PyValue } from "../py/value.ts";

// Python's json.loads skips leading whitespace; a JSON document then starts with one of these.
const JSON_START = /^[\s]*[{["\-0-9tfnNI]/;

export function parseToolContent(content: string): PyValue {
  // Most non-JSON tool outputs are plain sentences: skip the throw-and-catch for them.
  if (!JSON_START.test(content)) return content;
  try {
    return parsePyJson(content);
  } catch {
    return content;
  }
}
