/** The retail domain: RetailDB (products, users, orders) and the RetailTools agent toolkit. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DbBase } from "../db-state.ts";
import { type DomainDef, defineDomain } from "../domain.ts";
import { parseRetailDb } from "./schema.ts";
import { retailAgentTools } from "./tools.ts";

const RETAIL_LAYOUT = { products: "dict", users: "dict", orders: "dict" } as const;

/** Validates plain data (file contents or a dump) as a RetailDB. */
export const retailDbFromPlain = (plain: unknown): DbBase =>
  new DbBase("RetailDB", RETAIL_LAYOUT, parseRetailDb(plain));

/** `domains/retail/db.json`; a plain JSON parse suffices because the schema restores every float. */
export const loadRetailDb = (dataDir: string): DbBase =>
  retailDbFromPlain(JSON.parse(readFileSync(join(dataDir, "domains", "retail", "db.json"), "utf8")));

export const retailDomain: DomainDef = defineDomain({
  name: "retail",
  loadAgentDb: loadRetailDb,
  agentDbFromPlain: retailDbFromPlain,
  agentTools: retailAgentTools,
  supportsSolo: false,
  policyFile: "policy.md",
});
