/** A bare JSON list of tau2 simulations (no `info`, no `tasks`), as some leaderboard submissions commit. */
import type { TrajectoryFile } from "../model.ts";
import { EMPTY_RUN_INFO, inferDomain } from "../run-info.ts";
import { validateSimulations } from "../simulation.ts";
import { domainHints } from "./raw.ts";

export function loadBareSimulations(file: string, list: readonly unknown[]): TrajectoryFile {
  const { policies, tools } = domainHints(list);
  const { simulations, rejected } = validateSimulations(list, "$");
  return {
    path: file,
    variant: "bare-simulations",
    info: { ...EMPTY_RUN_INFO, domain: inferDomain(policies, tools, file) },
    tasks: null,
    simulations,
    rejected,
  };
}
