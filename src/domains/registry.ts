/**
 * Every tau2 domain this port knows, loaded at once (for commands that list or check them all; grading
 * loads the one a file needs through `load.ts`), and a per-data-dir cache of their loaded DBs.
 */

import { canonicalDomainName } from "../formats/domains.ts";
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

export function domainByName(name: string): DomainDef | undefined {
  const key = canonicalDomainName(name);
  return key === undefined ? undefined : DOMAINS[key];
}

export { loadDomainData } from "./load-data.ts";
