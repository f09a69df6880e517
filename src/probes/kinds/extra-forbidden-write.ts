/**
 * `extra-forbidden-write`: gold plus one write the domain policy forbids, on a record the task
 * never touches. The delta gate must name exactly that record's fields; τ³ sees it only when the
 * DB is in the task's reward basis.
 */
import type { DomainName } from "../../domains/domain.ts";
import { buildTrajectory, goldSteps } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";
import { airlineTarget } from "../targets/airline.ts";
import { retailTarget } from "../targets/retail.ts";
import type { TargetChooser } from "../targets/target.ts";
import { telecomTarget } from "../targets/telecom.ts";
import { taskFootprint } from "../untouched.ts";

/** Mock has no write its policy forbids that its tools would carry out. */
const TARGETS: Readonly<Record<DomainName, TargetChooser | null>> = {
  airline: airlineTarget,
  retail: retailTarget,
  telecom: telecomTarget,
  mock: null,
  // No fixtures yet (policy clauses and targets for banking are the lead's).
  banking_knowledge: null,
};

export const extraForbiddenWriteProbe: ProbeBuilder = ({ ctx, domain, policy }, task) => {
  const choose = TARGETS[domain];
  if (choose === null) return { skipped: `the ${domain} policy forbids no write its tools perform` };
  const target = choose(taskFootprint(ctx, task), policy);
  if (target === null) return { skipped: "no record qualifies (untouched and protected by the policy)" };
  const step = {
    action: { name: target.tool, arguments: target.arguments, requestor: "assistant" as const },
    confirm: true,
  };
  return {
    messages: buildTrajectory(ctx, task, [...goldSteps(ctx, task), step]),
    note: { kind: "extra-forbidden-write", injected: { ...target, requirement: null } },
  };
};
