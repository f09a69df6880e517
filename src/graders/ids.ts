/**
 * The built-in graders' ids in registry order, without loading any grader: `--help` lists them. The
 * registry (`registry.ts`) is the source; the checks below fail to compile when this list misses one of its ids.
 */
import type { BuiltInGraderId } from "./registry.ts";

export const GRADER_NAMES = [
  "tau3",
  "tau3_corrected",
  "structured",
  "structured_strict",
  "structured_informed",
] as const satisfies readonly BuiltInGraderId[];

type Missing = Exclude<BuiltInGraderId, (typeof GRADER_NAMES)[number]>;
const everyId: [Missing] extends [never] ? true : never = true;
void everyId;
