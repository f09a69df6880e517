/**
 * Run metadata (`info` of a tau2 results file) reduced to the `RunInfo` the rest of the tool reads, plus
 * a fallback that infers the domain for files that do not record it.
 */
import { basename } from "node:path";
import { safeNameSchema } from "../util/safe-name.ts";
import { z } from "../util/zod.ts";
import { DOMAIN_FACTS } from "./domain-facts.ts";
import { DOMAIN_NAMES } from "./domains.ts";
import { FormatError } from "./errors.ts";
import type { RunInfo } from "./model.ts";
import { stableJson } from "./stable-json.ts";
import { firstIssue } from "./zod-issues.ts";

const optionalString = z.string().nullable().optional();

const participantInfoSchema = z
  .object({
    implementation: optionalString,
    llm: optionalString,
    llm_args: z.record(z.string(), z.unknown()).nullable().optional(),
  })
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
  agent_args: null,
  user_args: null,
  num_trials: null,
  solo: false,
};

const argsOf = (args: Readonly<Record<string, unknown>> | null | undefined): string | null =>
  args === null || args === undefined || Object.keys(args).length === 0 ? null : stableJson(args);

/**
 * The run configuration a file's simulations share: the agent (implementation, model, arguments), the
 * user simulator (the same three), the domain (a policy variant is a domain of its own) and the task set.
 * Simulations of one task under one configuration are repeats; two files are repeats of each other only
 * when their configurations are equal. Null when the agent's or the user's implementation or model is not
 * recorded: such a file is a configuration of its own.
 */
export function configurationOf(
  info: Pick<
    RunInfo,
    "agent_implementation" | "agent_model" | "agent_args" | "user_implementation" | "user_model" | "user_args"
  >,
  domain: string | null,
  taskVersion: string | null,
): string | null {
  const {
    agent_implementation: agent,
    agent_model: model,
    user_implementation: user,
    user_model: userModel,
  } = info;
  if (agent === null || model === null || user === null || userModel === null) return null;
  const args = (a: string | null) => (a === null ? "" : ` ${a}`);
  return `${agent} ${model}${args(info.agent_args)} · ${user} ${userModel}${args(info.user_args)} · ${domain ?? "?"} ${taskVersion ?? "?"}`;
}

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
    agent_args: argsOf(info.agent_info?.llm_args),
    user_args: argsOf(info.user_info?.llm_args),
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
