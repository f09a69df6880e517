import { type DomainDef, defineDomain } from "../domain.ts";
import { loadMockDb, loadMockUserDb, mockDbFromPlain, mockUserDbFromPlain } from "./schema.ts";
import { mockAgentTools, mockUserTools } from "./tools.ts";

export const mockDomain: DomainDef = defineDomain({
  name: "mock",
  loadAgentDb: loadMockDb,
  loadUserDb: loadMockUserDb,
  agentDbFromPlain: mockDbFromPlain,
  userDbFromPlain: mockUserDbFromPlain,
  agentTools: mockAgentTools,
  userTools: mockUserTools,
  supportsSolo: true,
  policyFile: "policy.md",
});
