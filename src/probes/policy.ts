/** The domain policy a probe cites: read from the data dir so every quote is checked against the text. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DomainName } from "../domains/domain.ts";
import { DOMAINS } from "../domains/registry.ts";

export interface PolicyDoc {
  /** Path relative to the data dir, e.g. `domains/airline/policy.md`. */
  readonly file: string;
  readonly text: string;
  /** Documents every agent of the domain also works under (banking's prompt components). */
  readonly includes?: readonly PolicyDoc[];
}

export interface PolicyCitation {
  readonly file: string;
  readonly quote: string;
}

const doc = (dataDir: string, file: string): PolicyDoc => ({
  file,
  text: readFileSync(join(dataDir, file), "utf8"),
});

/** The agent policy the domain declares (telecom's `main_policy.md`, banking's policy header, …). */
export function loadPolicy(dataDir: string, domain: DomainName): PolicyDoc {
  const def = DOMAINS[domain];
  const main = doc(dataDir, `domains/${domain}/${def.policyFile}`);
  const includes = (def.policyIncludes ?? []).map((f) => doc(dataDir, `domains/${domain}/${f}`));
  return includes.length === 0 ? main : { ...main, includes };
}

/**
 * A verbatim quote of the policy or a document it includes; throws when none says it (a probe must
 * not cite a stale rule).
 */
export function cite(policy: PolicyDoc, quote: string): PolicyCitation {
  const source = [policy, ...(policy.includes ?? [])].find((d) => d.text.includes(quote));
  if (source === undefined) throw new Error(`${policy.file} does not contain the quote: ${quote}`);
  return { file: source.file, quote };
}
