/**
 * Simulations saved one by one: a tau2 simulation object at the top level of a `.json` file, and JSON
 * Lines with one simulation per line. Neither holds run info or tasks; the domain comes from the policy
 * or tool names. A line that is no JSON value, or no simulation, is a rejection with its line number.
 */
import type { TrajectoryFile } from "../model.ts";
import type { JsonLine } from "../read-json.ts";
import { EMPTY_RUN_INFO, inferDomain } from "../run-info.ts";
import { simulationSchema, validateSimulations } from "../simulation.ts";
import { domainHints, type RawRecord } from "./raw.ts";

/** Whether a parsed value looks like one tau2 simulation (what `bare-simulations` lists hold). */
export const looksLikeSimulation = (v: RawRecord): boolean =>
  "messages" in v || ("task_id" in v && "termination_reason" in v);

export function loadSingleSimulation(file: string, doc: RawRecord): TrajectoryFile {
  const { policies, tools } = domainHints([doc]);
  const { simulations, rejected } = validateSimulations([doc], "$", simulationSchema, () => "$");
  return {
    path: file,
    variant: "single-simulation",
    info: { ...EMPTY_RUN_INFO, domain: inferDomain(policies, tools, file) },
    tasks: null,
    simulations,
    rejected,
  };
}

export function loadJsonlSimulations(file: string, lines: readonly JsonLine[]): TrajectoryFile {
  const values = lines.filter((l): l is Extract<JsonLine, { value: unknown }> => "value" in l);
  const { policies, tools } = domainHints(values.map((l) => l.value));
  const checked = validateSimulations(
    values.map((l) => l.value),
    "$",
    simulationSchema,
    () => "$",
  );
  // Rejections keep file order: a line that is no JSON value among those that are no simulation.
  const unparsed = lines.flatMap((l, index) =>
    "error" in l ? [{ index, id: null, path: `line ${l.line}`, reason: l.error }] : [],
  );
  const byLine = new Map(values.map((l, i) => [i, lines.indexOf(l)]));
  const rejected = [
    ...unparsed,
    ...checked.rejected.map((r) => ({
      ...r,
      index: byLine.get(r.index) ?? r.index,
      path: `line ${(values[r.index] as JsonLine).line}${r.path === "$" ? "" : `: ${r.path}`}`,
    })),
  ].sort((a, b) => a.index - b.index);
  return {
    path: file,
    variant: "jsonl-simulations",
    info: { ...EMPTY_RUN_INFO, domain: inferDomain(policies, tools, file) },
    tasks: null,
    simulations: checked.simulations,
    rejected,
  };
}
