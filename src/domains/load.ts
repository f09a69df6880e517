/**
 * Each domain's definition, imported when a file first needs it: grading one file loads one domain's
 * tools and schemas, not all five (`registry.ts` holds them all, for commands that list every domain).
 */
import { canonicalDomainName, type DomainName } from "../formats/domains.ts";
import type { DomainDef } from "./domain.ts";

const IMPORTS: { readonly [K in DomainName]: () => Promise<DomainDef> } = {
  airline: async () => (await import("./airline/index.ts")).airlineDomain,
  retail: async () => (await import("./retail/index.ts")).retailDomain,
  telecom: async () => (await import("./telecom/index.ts")).telecomDomain,
  mock: async () => (await import("./mock/index.ts")).mockDomain,
  banking_knowledge: async () => (await import("./banking_knowledge/index.ts")).bankingDomain,
};

/** The definition a file's domain name is graded with (aliases resolved), or undefined for an unknown domain. */
export async function loadDomain(name: string): Promise<DomainDef | undefined> {
  const known = canonicalDomainName(name);
  return known === undefined ? undefined : IMPORTS[known]();
}
