/** The telecom domain: agent DB + toolkit, the simulated phone (user DB + toolkit), and sync_tools. */
import { type DomainDef, defineDomain } from "../domain.ts";
import { makeToolkit } from "../toolkit.ts";
import { TELECOM_FUNCTIONS } from "./agent-functions.ts";
import { loadTelecomDb, loadTelecomUserDb } from "./load.ts";
import { telecomDbFromPlain } from "./schema.ts";
import { syncTelecom, TELECOM_DERIVED } from "./sync.ts";
import { TELECOM_TOOLS } from "./tools.ts";
import { TELECOM_USER_FUNCTIONS } from "./user-functions.ts";
import { telecomUserDbFromPlain } from "./user-schema.ts";
import { TELECOM_USER_TOOLS } from "./user-tools.ts";

export const telecomAgentTools = makeToolkit("TelecomTools", TELECOM_TOOLS, TELECOM_FUNCTIONS);
export const telecomUserTools = makeToolkit("TelecomUserTools", TELECOM_USER_TOOLS, TELECOM_USER_FUNCTIONS);

export const telecomDomain: DomainDef = defineDomain({
  name: "telecom",
  loadAgentDb: loadTelecomDb,
  loadUserDb: loadTelecomUserDb,
  agentDbFromPlain: telecomDbFromPlain,
  userDbFromPlain: telecomUserDbFromPlain,
  agentTools: telecomAgentTools,
  userTools: telecomUserTools,
  sync: syncTelecom,
  derived: TELECOM_DERIVED,
  supportsSolo: true,
  policyFile: "main_policy.md",
  soloPolicyFile: "main_policy_solo.md",
});
