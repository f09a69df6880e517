import { describe, expect, it } from "vitest";
import { defineDomain } from "../../src/domains/domain.ts";
import { loadDomain } from "../../src/domains/load.ts";
import { DOMAINS, domainByName } from "../../src/domains/registry.ts";
import { DOMAIN_NAMES } from "../../src/formats/domains.ts";

describe("domain definitions", () => {
  it("have one object shape: every member present, in one order (grading reads them monomorphically)", () => {
    const shapes = Object.values(DOMAINS).map((d) => Object.keys(d).join(","));
    expect(new Set(shapes).size).toBe(1);
  });

  it("defineDomain keeps every member a domain gives and adds the rest as undefined", () => {
    const retail = DOMAINS.retail;
    const minimal = defineDomain({
      name: "retail",
      loadAgentDb: retail.loadAgentDb,
      agentDbFromPlain: retail.agentDbFromPlain,
      agentTools: retail.agentTools,
      supportsSolo: false,
      policyFile: "policy.md",
    });
    expect(Object.keys(minimal)).toEqual(Object.keys(DOMAINS.telecom));
    expect(minimal.agentTools).toBe(retail.agentTools);
    expect(minimal.loadAgentDb).toBe(retail.loadAgentDb);
    expect(minimal.sync).toBeUndefined();
    expect(minimal.userTools).toBeUndefined();
    expect(DOMAINS.telecom.sync).toBeTypeOf("function");
    expect(DOMAINS.airline.sync).toBeUndefined();
  });

  it("implement every domain of the one list the parsers know, under its own name", () => {
    expect(Object.keys(DOMAINS)).toEqual([...DOMAIN_NAMES]);
    for (const name of DOMAIN_NAMES) expect(domainByName(name)?.name).toBe(name);
  });

  it("load one at a time as the same definitions, aliases resolved, unknown names undefined", async () => {
    for (const name of DOMAIN_NAMES) expect(await loadDomain(name)).toBe(DOMAINS[name]);
    expect(await loadDomain("telecom-workflow")).toBe(DOMAINS.telecom);
    expect(domainByName("telecom-workflow")).toBe(DOMAINS.telecom);
    expect(await loadDomain("nope")).toBeUndefined();
    expect(await loadDomain("toString")).toBeUndefined();
  });
});
