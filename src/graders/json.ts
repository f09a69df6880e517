/** Causes and evidence as plain JSON (snake_case, the store's column names), for the store and `grade` lines. */
import { pyDumps } from "../py/json.ts";
import type { PyValue } from "../py/value.ts";
import type { Cause } from "./causes.ts";
import type { Evidence } from "./evidence.ts";

/** A Python value as JSON (floats as numbers; an int beyond 2^53 as the nearest number). */
const plain = (v: PyValue | undefined): unknown => (v === undefined ? undefined : JSON.parse(pyDumps(v)));

/** Where a piece of evidence is and what it says, as the store's columns name it. */
export const evidenceLocation = (e: Evidence) => ({
  code: e.code,
  message: e.message,
  message_index: e.messageIndex ?? null,
  turn_idx: e.turnIdx ?? null,
  tool_call_id: e.toolCallId ?? null,
  tool_name: e.toolName ?? null,
  actor: e.actor ?? null,
});

/** A cause's own fields, as the store's columns name them. */
export const causeFields = (c: Cause) => ({
  kind: c.kind,
  reference: c.reference,
  gates: c.gates,
  message: c.message,
  message_index: c.messageIndex,
  turn_idx: c.turnIdx,
  tool_call_id: c.toolCallId,
  tool_name: c.toolName,
  actor: c.actor,
});

export const evidenceJson = (e: Evidence) => ({
  ...evidenceLocation(e),
  ...(e.arguments === undefined ? {} : { arguments: plain(e.arguments) }),
  ...(e.path === undefined ? {} : { db: e.db ?? null, path: e.path }),
  // A state where the field is absent (a record added or removed) has no key.
  ...(e.values === undefined
    ? {}
    : {
        values: {
          initial: plain(e.values.initial),
          gold: plain(e.values.gold),
          predicted: plain(e.values.predicted),
        },
      }),
  ...(e.quote === undefined ? {} : { quote: e.quote }),
  ...(e.excerpt === undefined ? {} : { excerpt: e.excerpt }),
});

export const causesJson = (causes: readonly Cause[]) =>
  causes.map((c) => ({ ...causeFields(c), evidence: c.evidence.map(evidenceJson) }));
