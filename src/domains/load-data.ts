/** Loads a domain's DBs from a tau2 data dir, once per process. */
import { resolve } from "node:path";
import type { DomainData, DomainDef } from "./domain.ts";

const loaded = new Map<string, DomainData>();

export function loadDomainData(dataDir: string, domain: DomainDef): DomainData {
  const key = `${resolve(dataDir)}\u0000${domain.name}`;
  let hit = loaded.get(key);
  if (hit === undefined) {
    const agentBase = domain.loadAgentDb(dataDir);
    hit = {
      domain,
      dataDir: resolve(dataDir),
      agentBase,
      // One DB object for both toolkits (banking): the user base is the agent base.
      userBase: domain.sharedDb
        ? agentBase
        : domain.loadUserDb === undefined
          ? null
          : domain.loadUserDb(dataDir),
    };
    loaded.set(key, hit);
  }
  return hit;
}
