/** Small helpers for looking at raw (not yet validated) JSON data. */

export type RawRecord = Record<string, unknown>;

export const isRecord = (v: unknown): v is RawRecord =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const stringOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Policy texts and called tool names of raw tau2 simulations, for `inferDomain`. */
export function domainHints(rawSimulations: readonly unknown[]): { policies: string[]; tools: Set<string> } {
  const policies: string[] = [];
  const tools = new Set<string>();
  for (const sim of rawSimulations) {
    if (!isRecord(sim)) continue;
    if (typeof sim.policy === "string") policies.push(sim.policy);
    if (!Array.isArray(sim.messages)) continue;
    for (const m of sim.messages) {
      if (!isRecord(m) || !Array.isArray(m.tool_calls)) continue;
      for (const call of m.tool_calls)
        if (isRecord(call) && typeof call.name === "string") tools.add(call.name);
    }
  }
  return { policies, tools };
}
