/** The domain policy a probe cites: read from the data dir so every quote is checked against the text. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DomainName } from "../domains/domain.ts";
import { DOMAINS } from "../domains/registry.ts";

export interface PolicyDoc {
  /** Path relative to the data dir, e.g. `domains/airline/policy.md`. */
  readonly file: string;
  readonly text: string;
}

export interface PolicyCitation {
  readonly file: string;
  readonly quote: string;
}

/** The agent policy the domain declares (telecom's `main_policy.md`, banking's policy header, …). */
export function loadPolicy(dataDir: string, domain: DomainName): PolicyDoc {
  const file = `domains/${domain}/${DOMAINS[domain].policyFile}`;
  return { file, text: readFileSync(join(dataDir, file), "utf8") };
}

/** A verbatim quote; throws when the policy no longer says it (a probe must not cite a stale rule). */
export function cite(policy: PolicyDoc, quote: string): PolicyCitation {
  if (!policy.text.includes(quote)) throw new Error(`${policy.file} does not contain the quote: ${quote}`);
  return { file: policy.file, quote };
}
