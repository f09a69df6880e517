/** The tau2 domains this port knows, and a per-data-dir cache of their loaded DBs. */
import { airlineDomain } from "./airline/index.ts";
import { bankingDomain } from "./banking_knowledge/index.ts";
import type { DomainDef, DomainName } from "./domain.ts";
import { mockDomain } from "./mock/index.ts";
import { retailDomain } from "./retail/index.ts";
import { telecomDomain } from "./telecom/index.ts";

export const DOMAINS: Readonly<Record<DomainName, DomainDef>> = {
  airline: airlineDomain,
  retail: retailDomain,
  telecom: telecomDomain,
  mock: mockDomain,
  banking_knowledge: bankingDomain,
};

/** tau2 treats `telecom-workflow` as telecom with another policy: same tools and grading. */
const ALIASES: Readonly<Record<string, DomainName>> = { "telecom-workflow": "telecom" };

export function domainByName(name: string): DomainDef | undefined {
  const key = (ALIASES[name] ?? name) as DomainName;
  return Object.hasOwn(DOMAINS, key) ? DOMAINS[key] : undefined;
}

export { loadDomainData } from "./load-data.ts";
