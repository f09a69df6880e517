/**
 * One evidence shape for every check of every grader (like zod issues: a literal `code` plus common
 * fields), so a failed check always says where: a message/turn, a tool-call id, or a DB field path.
 */
import type { Message } from "../formats/model.ts";
import type { PyValue } from "../py/value.ts";

/** Who made a tool call or sent a message: the agent, or the user (simulator) acting on their side. */
export type Actor = "agent" | "user";

/** A DB field's value in each state the delta gate compares; `undefined` = absent (record added or removed). */
export interface FieldValues {
  readonly initial: PyValue | undefined;
  readonly gold: PyValue | undefined;
  readonly predicted: PyValue | undefined;
}

export interface Evidence {
  /** What failed, e.g. `write_without_confirmation`, `delta_gate.field`, `requirement.violation`. */
  readonly code: string;
  /** One human-readable sentence. */
  readonly message: string;
  /** Index into the simulation's message list. */
  readonly messageIndex?: number;
  /** The message's recorded `turn_idx` when it has one. */
  readonly turnIdx?: number | null;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly actor?: Actor;
  readonly arguments?: PyValue;
  /** Which DB a field path is in. */
  readonly db?: "agent" | "user";
  /** A DB field path, e.g. `reservations.H8Q05L.flights[1].date`. */
  readonly path?: string;
  readonly values?: FieldValues;
  /** Words quoted verbatim from the task text or a policy. */
  readonly quote?: string;
  /** A short excerpt of the message text involved. */
  readonly excerpt?: string;
}

/** The actor of the message at `index`: assistant messages are the agent's, user messages the user's. */
export function actorAt(messages: readonly Message[], index: number | undefined): Actor | undefined {
  const role = index === undefined ? undefined : messages[index]?.role;
  return role === "assistant" ? "agent" : role === "user" ? "user" : undefined;
}

/** Shortens untrusted text for evidence: one line, at most `max` characters. */
export function excerpt(text: string | null, max = 160): string {
  if (text === null) return "";
  // Flattening a prefix gives a prefix of the flattened whole (up to a trailing space), so a long
  // text is only flattened as far as the excerpt needs.
  const head =
    text.length > 4 * max
      ? text
          .slice(0, 4 * max)
          .replace(/\s+/g, " ")
          .trimStart()
      : "";
  if (head.length > max + 1) return `${head.slice(0, max - 1)}…`;
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
