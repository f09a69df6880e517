/** Output comparison as tau2 does it: `json.loads` both sides (raw string if not JSON), then `==`. */
import { parsePyJson } from "../formats/py/parse.ts";
import type { PyValue } from "../formats/py/value.ts";

export function parseToolContent(content: string): PyValue {
  try {
    return parsePyJson(content);
  } catch {
    return content;
  }
}
