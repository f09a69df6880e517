/**
 * Run metadata (`info` of a tau2 results file) reduced to the `RunInfo` the rest of the tool reads, plus
 * a fallback that infers the domain for files that do not record it.
 */
import { basename } from "node:path";
import { z } from "zod";
import { safeNameSchema } from "../util/safe-name.ts";
import { DOMAIN_FACTS } from "./domain-facts.ts";
import { DOMAIN_NAMES } from "./domains.ts";
import { FormatError } from "./errors.ts";
import type { RunInfo } from "./model.ts";
import { firstIssue } from "./zod-issues.ts";

const optionalString = z.string().nullable().optional();

const participantInfoSchema = z
  .object({ implementation: optionalString, llm: optionalString })
  .nullable()
  .optional();

const infoSchema = z.object({
  num_trials: z.number().int().nullable().optional(),
  agent_info: participantInfoSchema,
  user_info: participantInfoSchema,
  environment_info: z
    .object({
      // The domain name picks the data dir's folder: a name, never a path.
      domain_name: safeNameSchema.nullable().optional(),
    })
    .nullable()
    .optional(),
});

export const EMPTY_RUN_INFO: RunInfo = {
  domain: null,
  agent_implementation: null,
  agent_model: null,
  user_implementation: null,
  user_model: null,
  num_trials: null,
  solo: false,
};

/** tau2 solo mode: the solo agent with the dummy user, never one of them alone. */
export const isSoloRun = (agentImplementation: string | null, userImplementation: string | null): boolean =>
  agentImplementation === "llm_agent_solo" && userImplementation === "dummy_user";

/** Reads `info` of a tau2 results file; a wrong type in a field we use is a whole-file error. */
export function parseRunInfo(file: string, raw: unknown): RunInfo {
  const result = infoSchema.safeParse(raw);
  if (!result.success) {
    const { path, reason } = firstIssue(result.error, "info");
    throw new FormatError(file, path, `invalid run info: ${reason}`);
  }
  const info = result.data;
  const agentImplementation = info.agent_info?.implementation ?? null;
  const userImplementation = info.user_info?.implementation ?? null;
  return {
    domain: info.environment_info?.domain_name ?? null,
    agent_implementation: agentImplementation,
    agent_model: info.agent_info?.llm ?? null,
    user_implementation: userImplementation,
    user_model: info.user_info?.llm ?? null,
    num_trials: info.num_trials ?? null,
    solo: isSoloRun(agentImplementation, userImplementation),
  };
}

/**
 * Infers the domain of a run that does not record it, from (in order) a policy heading such as
 * `# Airline Agent Policy`, the tool names called, and the file name. Returns null when unsure.
 */
export function inferDomain(
  policyTexts: readonly string[],
  toolNames: ReadonlySet<string>,
  file: string,
): string | null {
  for (const policy of policyTexts) {
    const heading = /^#\s*(\w+)/.exec(policy.trimStart())?.[1]?.toLowerCase();
    const match = DOMAIN_NAMES.find((d) => d === heading);
    if (match !== undefined) return match;
  }
  const byTools = DOMAIN_NAMES.filter((d) => DOMAIN_FACTS[d].identifyingTools.some((t) => toolNames.has(t)));
  if (byTools.length === 1) return byTools[0] as string;
  const name = basename(file).toLowerCase();
  const byName = DOMAIN_NAMES.filter((d) => name.includes(d));
  return byName.length === 1 ? (byName[0] as string) : null;
}
