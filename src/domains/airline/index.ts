/** The airline domain: FlightDB agent DB, AirlineTools, no user DB, no solo mode. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type DomainDef, defineDomain } from "../domain.ts";
import { flightDbFromPlain } from "./schema.ts";
import { airlineToolkit } from "./tools.ts";

export const airlineDomain: DomainDef = defineDomain({
  name: "airline",
  // Every number in db.json sits in a typed field, so plain JSON.parse loses nothing the schema needs.
  loadAgentDb: (dataDir) =>
    flightDbFromPlain(JSON.parse(readFileSync(join(dataDir, "domains", "airline", "db.json"), "utf8"))),
  agentDbFromPlain: flightDbFromPlain,
  agentTools: airlineToolkit(),
  supportsSolo: false,
  policyFile: "policy.md",
});
