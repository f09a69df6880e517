/**
 * The banking_knowledge domain as tau2's `evaluate-trajs` builds it: the default retrieval variant
 * (`KnowledgeToolsAllTools`), one `TransactionalDB` shared by the agent and user toolkits, and a
 * per-task read-log allow-list from the gold actions. Discoverable tools are tools of their toolkit
 * (tau2's `has_tool`/`use_tool` see them), so a direct call by name runs them without unlock or log.
 */
import type { PyValue } from "../../py/value.ts";
import { type DomainDef, defineDomain } from "../domain.ts";
import { makeToolkit, type Toolkit } from "../toolkit.ts";
import { accountDiscoverableTools } from "./agent-tools/accounts.ts";
import { BASE_AGENT_TOOLS } from "./agent-tools/base.ts";
import { makeDispatchTools } from "./agent-tools/base-dispatch.ts";
import { creditDiscoverableTools } from "./agent-tools/credit.ts";
import { RETRIEVAL_TOOLS } from "./agent-tools/retrieval.ts";
import type { DiscoverableTool } from "./discoverable.ts";
import { bankingGrading } from "./effective-call.ts";
import { bankingDbFromPlain, loadBankingDb } from "./schema.ts";
import { newBankingSession } from "./session.ts";
import { userDiscoverableTools } from "./user-discoverable.ts";
import { bankingUserTools } from "./user-tools.ts";

/** `KnowledgeTools`' discoverable methods, in class order. */
export const agentDiscoverableTools: readonly DiscoverableTool[] = [
  ...creditDiscoverableTools,
  ...accountDiscoverableTools,
];

/** `KnowledgeToolsAllTools`: retrieval mixins, the regular tools, the dispatchers, the discoverable tools. */
export const bankingAgentTools: Toolkit = makeToolkit("KnowledgeTools", [
  ...RETRIEVAL_TOOLS,
  ...BASE_AGENT_TOOLS,
  ...makeDispatchTools(agentDiscoverableTools, userDiscoverableTools),
  ...agentDiscoverableTools,
]);

/**
 * tau2 quirk: `get_card_last_4_digits` is a READ discoverable user tool that logs the call to the DB;
 * called directly by name it writes live but replay skips it (quirk discoverableDirectReadSkip).
 */
const HIDDEN_WRITES: ReadonlySet<string> = new Set(["get_card_last_4_digits"]);

export const bankingDomain: DomainDef = defineDomain({
  name: "banking_knowledge",
  loadAgentDb: loadBankingDb,
  // untypedRecords: setup hands over Python values, not plain JSON.
  agentDbFromPlain: (plain) => bankingDbFromPlain(plain as PyValue),
  userDbFromPlain: (plain) => bankingDbFromPlain(plain as PyValue),
  agentTools: bankingAgentTools,
  userTools: bankingUserTools,
  supportsSolo: false,
  policyFile: "prompts/components/policy_header.md",
  soloError: "banking_knowledge domain does not support solo mode",
  sharedDb: true,
  untypedRecords: true,
  newSession: newBankingSession,
  hiddenWrites: HIDDEN_WRITES,
  ...bankingGrading(agentDiscoverableTools, userDiscoverableTools),
});
