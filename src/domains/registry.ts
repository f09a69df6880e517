/** The tau2 domains this port knows, and a per-data-dir cache of their loaded DBs. */
import { resolve } from "node:path";
import type { DomainData } from "../replay/setup.ts";
import { airlineDomain } from "./airline/index.ts";
import type { DomainDef, DomainName } from "./domain.ts";
import { mockDomain } from "./mock/index.ts";
import { retailDomain } from "./retail/index.ts";
import { telecomDomain } from "./telecom/index.ts";

export const DOMAINS: Readonly<Record<DomainName, DomainDef>> = {
  airline: airlineDomain,
  retail: retailDomain,
  telecom: telecomDomain,
  mock: mockDomain,
};

/** tau2 treats `telecom-workflow` as telecom with another policy: same tools and grading. */
const ALIASES: Readonly<Record<string, DomainName>> = { "telecom-workflow": "telecom" };

export function domainByName(name: string): DomainDef | undefined {
  const key = (ALIASES[name] ?? name) as DomainName;
  return Object.hasOwn(DOMAINS, key) ? DOMAINS[key] : undefined;
}

const loaded = new Map<string, DomainData>();

/** Loads a domain's DBs from a tau2 data dir once per process. */
export function loadDomainData(dataDir: string, domain: DomainDef): DomainData {
  const key = `${resolve(dataDir)}\u0000${domain.name}`;
  let hit = loaded.get(key);
  if (hit === undefined) {
    hit = {
      domain,
      agentBase: domain.loadAgentDb(dataDir),
      userBase: domain.loadUserDb === undefined ? null : domain.loadUserDb(dataDir),
    };
    loaded.set(key, hit);
  }
  return hit;
}
