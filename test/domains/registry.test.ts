import { describe, expect, it } from "vitest";
import { defineDomain } from "../../src/domains/domain.ts";
import { DOMAINS } from "../../src/domains/registry.ts";

describe("domain definitions", () => {
  it("have one object shape: every member present, in one order (grading reads them monomorphically)", () => {
    const shapes = Object.values(DOMAINS).map((d) => Object.keys(d).join(","));
    expect(new Set(shapes).size).toBe(1);
  });

  it("defineDomain keeps every member a domain gives and adds the rest as undefined", () => {
    const telecom = DOMAINS.telecom;
    const copy = defineDomain({ ...telecom, soloPolicyFile: undefined });
    expect(Object.keys(copy)).toEqual(Object.keys(DOMAINS.airline));
    expect(copy.sync).toBe(telecom.sync);
    expect(copy.agentTools).toBe(telecom.agentTools);
    expect(copy.soloPolicyFile).toBeUndefined();
    expect(DOMAINS.airline.sync).toBeUndefined();
  });
});
