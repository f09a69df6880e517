/** The probe kinds by name. */
import type { ProbeBuilder, ProbeKind } from "./kind.ts";
import { extraForbiddenWriteProbe } from "./kinds/extra-forbidden-write.ts";
import { extraReadProbe } from "./kinds/extra-read.ts";
import { goldProbe } from "./kinds/gold.ts";
import { nullAgentProbe } from "./kinds/null-agent.ts";
import { unwantedTransferProbe } from "./kinds/unwanted-transfer.ts";

export const PROBES: Readonly<Record<ProbeKind, ProbeBuilder>> = {
  gold: goldProbe,
  "null-agent": nullAgentProbe,
  "extra-forbidden-write": extraForbiddenWriteProbe,
  "unwanted-transfer": unwantedTransferProbe,
  "extra-read": extraReadProbe,
};
