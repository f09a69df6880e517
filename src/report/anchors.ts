/**
 * Fragment ids of the conversation view: one per simulation and one per message, so a cause links to
 * its turn with a plain `#anchor` (no script). Sim keys are sha256 hex: 16 digits are unique enough.
 */
export const simAnchor = (simKey: string): string => `sim-${simKey.slice(0, 16)}`;
export const messageAnchor = (simKey: string, messageIndex: number): string =>
  `m-${simKey.slice(0, 16)}-${messageIndex}`;

/** The message a cause points at: its own, or its first evidence's. */
export function causeMessage(c: {
  message_index: number | null;
  evidence: readonly { message_index: number | null }[];
}): number | null {
  return c.message_index ?? c.evidence.find((e) => e.message_index !== null)?.message_index ?? null;
}

/** A comparison's section (comparison names are letters, digits, `_`, `.` and `-`). */
export const comparisonAnchor = (comparison: string): string => `cmp-${comparison}`;
