/**
 * What is worth a line about a trajectory file besides its verdicts: simulation ids used more than once,
 * and task keys the tool does not understand (dropped, so said out loud).
 */
import { duplicateIdWarnings } from "./duplicate-ids.ts";
import type { TrajectoryFile, UnknownTaskField } from "./model.ts";

/** What a trajectory file with no simulations is said to be, wherever it is listed (grade, run, report). */
export const NO_SIMULATIONS = "the file holds no simulations";

/** A file's ungraded simulations of one cause, as one line with the count. */
export const errorCauseLine = (path: string, n: number, message: string): string =>
  `${path}: ${n} simulation${n === 1 ? "" : "s"}: ${message}`;

/** `tasks[3].evaluation_criteria.failure_conditions` → `tasks[].evaluation_criteria.failure_conditions`. */
const fieldPattern = (path: string): string => path.replace(/\[\d+\]/g, "[]");

/** One line per kind of unknown task field (its path with list indexes left out) of the file `shown`. */
export function unknownTaskFieldWarnings(fields: readonly UnknownTaskField[], shown: string): string[] {
  const byPattern = new Map<string, UnknownTaskField[]>();
  for (const f of fields) {
    const pattern = fieldPattern(f.path);
    const list = byPattern.get(pattern);
    if (list === undefined) byPattern.set(pattern, [f]);
    else list.push(f);
  }
  return [...byPattern].map(([pattern, hits]) => {
    const first = hits[0] as UnknownTaskField;
    const more = hits.length === 1 ? "" : ` (${hits.length} times, as ${pattern})`;
    return `${shown}: warning: task field ${first.key} is not understood and is ignored: ${first.path}${more}`;
  });
}

/** Every warning about a loaded trajectory file. */
export function fileWarnings(
  file: Pick<TrajectoryFile, "simulations" | "unknownTaskFields">,
  shown: string,
): string[] {
  return [
    ...duplicateIdWarnings(file, shown),
    ...unknownTaskFieldWarnings(file.unknownTaskFields ?? [], shown),
  ];
}
