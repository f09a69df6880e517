/**
 * The task text stored in `sim_context`, as a reviewer reads it: the user's instructions (a string, or
 * tau2's structured fields as JSON) and the gold actions of the evaluation criteria.
 */
import { z } from "../util/zod.ts";

export interface LabelledText {
  readonly label: string;
  readonly text: string;
}

const structuredInstructions = z.record(z.string(), z.unknown());

const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v, null, 1));

/** The instructions as labelled parts (`reason_for_call`, `known_info`, …); a plain string is one part. */
export function instructionParts(instructions: string): LabelledText[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(instructions);
  } catch {
    return [{ label: "instructions", text: instructions }];
  }
  const fields = structuredInstructions.safeParse(parsed);
  if (!fields.success) return [{ label: "instructions", text: instructions }];
  return Object.entries(fields.data)
    .filter(([k, v]) => v !== null && v !== undefined && v !== "" && k !== "domain")
    .map(([label, v]) => ({ label, text: asText(v) }));
}

const goldAction = z.looseObject({
  name: z.string(),
  arguments: z.unknown().optional(),
  requestor: z.string().nullable().optional(),
});
const criteriaSchema = z.looseObject({ actions: z.array(goldAction).nullable().optional() });

export interface GoldAction {
  readonly name: string;
  /** The arguments as JSON text. */
  readonly arguments: string;
  readonly requestor: string | null;
}

/** The gold actions (`criteria.actions`); none when the criteria are missing or have another shape. */
export function goldActions(criteria: string | null): GoldAction[] {
  if (criteria === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(criteria);
  } catch {
    return [];
  }
  const c = criteriaSchema.safeParse(parsed);
  if (!c.success) return [];
  return (c.data.actions ?? []).map((a) => ({
    name: a.name,
    arguments: JSON.stringify(a.arguments ?? {}),
    requestor: a.requestor ?? null,
  }));
}

/** A JSON list of tool calls as stored in `conversations.tool_calls`. */
const toolCallsSchema = z.array(
  z.looseObject({ id: z.string().nullable().optional(), name: z.string(), arguments: z.unknown() }),
);

export interface ToolCallText {
  readonly id: string | null;
  readonly name: string;
  readonly arguments: string;
}

export function toolCallsOf(json: string | null): ToolCallText[] {
  if (json === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [{ id: null, name: "(unreadable tool calls)", arguments: json }];
  }
  const calls = toolCallsSchema.safeParse(parsed);
  if (!calls.success) return [{ id: null, name: "(tool calls)", arguments: json }];
  return calls.data.map((c) => ({ id: c.id ?? null, name: c.name, arguments: JSON.stringify(c.arguments) }));
}
