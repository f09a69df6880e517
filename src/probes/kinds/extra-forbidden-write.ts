/**
 * `extra-forbidden-write`: gold plus one write the domain policy forbids, on a record the task
 * never touches. The delta gate must name exactly that record's fields; τ³ sees it only when the
 * DB is in the task's reward basis.
 */
import type { DomainName } from "../../domains/domain.ts";
import type { PyDict } from "../../py/value.ts";
import { goldTrajectory } from "../gold.ts";
import type { ProbeBuilder } from "../kind.ts";
import { airlineTarget } from "../targets/airline.ts";
import { bankingTarget } from "../targets/banking.ts";
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
  banking_knowledge: bankingTarget,
};

export const extraForbiddenWriteProbe: ProbeBuilder = ({ ctx, domain, policy }, task) => {
  const choose = TARGETS[domain];
  if (choose === null) return { skipped: `the ${domain} policy forbids no write its tools perform` };
  const target = choose(taskFootprint(ctx, task), policy);
  if (target === null) return { skipped: "no record qualifies (untouched and protected by the policy)" };
  const step = (name: string, args: PyDict, confirm: boolean) => ({
    action: { name, arguments: args, requestor: "assistant" as const },
    confirm,
  });
  const before = (target.before ?? []).map((b) => step(b.tool, b.arguments, false));
  const { before: _before, ...injected } = target;
  return {
    messages: goldTrajectory(ctx, task, [...before, step(target.tool, target.arguments, true)]),
    note: { kind: "extra-forbidden-write", injected: { ...injected, requirement: null } },
  };
};
