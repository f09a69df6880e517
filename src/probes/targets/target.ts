/** A policy-forbidden write on a record the task never touches, chosen per domain. */
import type { PyDict } from "../../py/value.ts";
import type { Injection } from "../kind.ts";
import type { PolicyDoc } from "../policy.ts";
import type { TaskFootprint } from "../untouched.ts";

export type ForbiddenWrite = Required<Pick<Injection, "tool" | "record" | "record_path" | "policy">> & {
  readonly arguments: PyDict;
  /** Calls the write needs first (banking unlocks a discoverable tool before calling it). */
  readonly before?: readonly { readonly tool: string; readonly arguments: PyDict }[];
};

/** Picks deterministically (first qualifying record in key order), or null when none qualifies. */
export type TargetChooser = (footprint: TaskFootprint, policy: PolicyDoc) => ForbiddenWrite | null;
