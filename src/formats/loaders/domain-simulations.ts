/**
 * `{domain, agent, model, ..., simulations}`: a custom summary wrapper around tau2 simulations (no `info`,
 * no `tasks`). `model` is the agent's model; the user simulator is not recorded.
 */
import { FormatError } from "../errors.ts";
import type { TrajectoryFile } from "../model.ts";
import { EMPTY_RUN_INFO, inferDomain } from "../run-info.ts";
import { validateSimulations } from "../simulation.ts";
import { domainHints, type RawRecord, stringOrNull } from "./raw.ts";

export function loadDomainSimulations(file: string, doc: RawRecord): TrajectoryFile {
  const rawSims = doc.simulations;
  if (!Array.isArray(rawSims)) throw new FormatError(file, "simulations", "expected a list of simulations");
  const { policies, tools } = domainHints(rawSims);
  const { simulations, rejected } = validateSimulations(rawSims, "simulations");
  const agentImplementation = stringOrNull(doc.agent);
  return {
    path: file,
    variant: "domain-simulations",
    info: {
      ...EMPTY_RUN_INFO,
      domain: stringOrNull(doc.domain) ?? inferDomain(policies, tools, file),
      agent_implementation: agentImplementation,
      agent_model: stringOrNull(doc.model),
    },
    tasks: null,
    simulations,
    rejected,
  };
}
