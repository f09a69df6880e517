/**
 * Causes from what the trajectory wrote: broken policy clauses, and each delta-gate field classified as
 * the user's own state (changed through the user's tools), a licensed write (a task permission or a
 * policy clause allowed every call that made it, and nothing forbade any), or an unlicensed write.
 * Mirrors are folded under the field they mirror.
 */
import { canonicalJson } from "../../py/json.ts";
import type { PyValue } from "../../py/value.ts";
import { type Cause, cause } from "../causes.ts";
import type { Evidence } from "../evidence.ts";
import type { AttributedField, CallRef, Writer } from "./attribution.ts";
import type { ClauseFinding } from "./clauses/evaluate.ts";
import type { Fact } from "./conditions/evaluate.ts";
import type { RequirementViolation } from "./requirements/evaluate.ts";
import type { VerifiedPermission } from "./requirements/verify.ts";

/** Texts of frozen values (records of a loaded or gold DB, shared by every simulation of a task). */
const shownTexts = new WeakMap<object, string>();

const shown = (v: PyValue | undefined): string => {
  if (v === undefined) return "absent";
  const cacheable = v !== null && typeof v === "object" && Object.isFrozen(v);
  const hit = cacheable ? shownTexts.get(v) : undefined;
  if (hit !== undefined) return hit;
  const full = canonicalJson(v);
  const text = full.length > 80 ? `${full.slice(0, 79)}…` : full;
  if (cacheable) shownTexts.set(v, text);
  return text;
};

/** The values a clause's conditions read, as text for a cause's message. */
export const factsText = (facts: readonly Fact[]): string =>
  facts.length === 0 ? "" : ` (when called: ${facts.map((f) => `${f.name} = ${shown(f.value)}`).join(", ")})`;

const actorOf = (c: CallRef) => (c.requestor === "assistant" ? "agent" : "user");

/** The tool a call ran, and the dispatcher the message called when there was one. */
const calledName = (c: CallRef) => (c.via === null ? c.name : `${c.name} via ${c.via}`);

/**
 * A call as evidence: where it was made, with what, and the words that decided it. One object shape
 * for every call (no spread): this runs for every written field, and a spread of varying shapes made
 * the callers slow to optimize and quick to deoptimize.
 */
export const callEvidence = (code: string, message: string, c: CallRef, quote: string): Evidence => ({
  code,
  message,
  messageIndex: c.messageIndex,
  turnIdx: c.turnIdx,
  toolCallId: c.callId,
  toolName: c.name,
  actor: actorOf(c),
  arguments: c.args,
  quote,
});

/** Each task fact a clause read, as evidence quoting the task's words (after the call's). */
function pushTaskFactEvidence(out: Evidence[], f: ClauseFinding): void {
  for (const t of f.taskFacts)
    out.push({
      code: "task_fact",
      message: `task fact ${t.name} = ${JSON.stringify(t.value)} (${t.id})`,
      quote: t.quote,
    });
}

export function clauseCauses(findings: readonly ClauseFinding[], gates: boolean): Cause[] {
  return findings
    .filter((f) => f.outcome === "broken")
    .map((f) => {
      const c = f.clause.clause;
      const message = `${c.rule}: ${calledName(f.call)} at turn ${f.call.turnIdx ?? f.call.messageIndex}${factsText(f.facts)}`;
      const evidence = [callEvidence("policy_clause.broken", message, f.call, c.source_quote)];
      pushTaskFactEvidence(evidence, f);
      return cause("policy_clause", c.id, { gates, message, evidence });
    });
}

/** Calls a clause could not judge because the task states no fact it reads: reported, never gating. */
export function undecidedClauseCauses(findings: readonly ClauseFinding[]): Cause[] {
  const out: Cause[] = [];
  for (const f of findings) {
    if (f.outcome !== "undecided") continue;
    const c = f.clause.clause;
    const missing = [...new Set(f.missingFacts)].join(", ");
    const message = `${c.rule}: ${calledName(f.call)} at turn ${f.call.turnIdx ?? f.call.messageIndex} is undecided: the task states no ${missing}${factsText(f.facts)}`;
    const evidence = [callEvidence("policy_clause.undecided", message, f.call, c.source_quote)];
    pushTaskFactEvidence(evidence, f);
    out.push(cause("undecided_clause", c.id, { gates: false, message, evidence }));
  }
  return out;
}

/** What allowed or forbade one call: permissions and clauses that licensed it, clauses and prohibitions it broke. */
export interface CallLicense {
  readonly permissions: readonly VerifiedPermission[];
  readonly clauses: readonly ClauseFinding[];
  readonly broken: readonly ClauseFinding[];
  readonly prohibited: readonly RequirementViolation[];
}

export type LicenseOf = (call: CallRef) => CallLicense;

const licensed = (l: CallLicense) =>
  l.broken.length === 0 && l.prohibited.length === 0 && (l.permissions.length > 0 || l.clauses.length > 0);

/** What licensed or forbade one call, as evidence appended to `out` (loops: no arrays spread per field). */
function pushLicenseEvidence(out: Evidence[], c: CallRef, l: CallLicense): void {
  for (const p of l.permissions)
    out.push(
      callEvidence(
        "license.permission",
        `licensed by task permission ${p.permission.id}: ${p.permission.rule}`,
        c,
        p.permission.source_quote,
      ),
    );
  for (const f of l.clauses)
    out.push(
      callEvidence(
        "license.clause",
        `licensed by policy clause ${f.clause.clause.id}${factsText(f.facts)}`,
        c,
        f.clause.clause.source_quote,
      ),
    );
  for (const f of l.broken)
    out.push(
      callEvidence(
        "forbidden.clause",
        `forbidden by policy clause ${f.clause.clause.id}${factsText(f.facts)}`,
        c,
        f.clause.clause.source_quote,
      ),
    );
  for (const v of l.prohibited)
    out.push(
      callEvidence("forbidden.requirement", `forbidden by the user's requirement ${v.ruleId}`, c, v.quote),
    );
}

/** A written field's evidence: the field, what licensed or forbade each call that wrote it, its mirrors. */
function writeEvidence(
  field: Evidence,
  checks: readonly { readonly c: CallRef; readonly l: CallLicense }[],
  mirrors: readonly Evidence[],
): Evidence[] {
  const out = [field];
  for (const { c, l } of checks) pushLicenseEvidence(out, c, l);
  for (const m of mirrors) out.push(m);
  return out;
}

const writerText = (w: Writer) =>
  w.kind === "sync"
    ? "the environment's sync"
    : `${calledName(w.call)} (turn ${w.call.turnIdx ?? w.call.messageIndex})`;

/** The writers in order, as text ("no replayed call" when none). */
function writersText(writers: readonly Writer[]): string {
  if (writers.length === 0) return "no replayed call";
  let text = writerText(writers[0] as Writer);
  for (let i = 1; i < writers.length; i++) text += `, then ${writerText(writers[i] as Writer)}`;
  return text;
}

/** The field, located at the call that last wrote it (one object shape, located or not: see `callEvidence`). */
function fieldEvidence(f: AttributedField, message: string, code = "delta_gate.field"): Evidence {
  const last = f.writers.at(-1);
  const call = last?.kind === "call" ? last.call : null;
  return {
    code,
    message,
    messageIndex: call?.messageIndex,
    turnIdx: call?.turnIdx,
    toolCallId: call?.callId,
    toolName: call?.name,
    actor: call === null ? undefined : actorOf(call),
    db: f.db,
    path: f.path,
    values: { initial: f.initial, gold: f.gold, predicted: f.predicted },
  };
}

export interface FieldGates {
  /** User-state changes fail the verdict (off by default: reported only). */
  readonly userState: boolean;
  /** Every differing field fails the verdict, licensed or not (the seed's strict gate). */
  readonly strict: boolean;
}

/** A field's cause reference: user-DB fields start with `user:`. */
const fieldReference = (f: AttributedField) => (f.db === "user" ? `user:${f.path}` : f.path);

/** Why a call was not licensed: forbidden, or nothing licensed it. */
const unlicensedText = (c: CallRef, l: CallLicense) =>
  l.broken.length > 0 || l.prohibited.length > 0
    ? `${c.name} was forbidden`
    : `nothing licenses ${c.name} (no task permission, no permit clause whose conditions held)`;

/**
 * A field changed through the user's own tools (every writer a user tool or the sync that mirrors
 * one), or null when an agent call or an unattributed change wrote it.
 */
function userStateCause(
  f: AttributedField,
  change: string,
  mirrors: Evidence[],
  gates: FieldGates,
): Cause | null {
  if (f.db !== "user" || f.writers.length === 0) return null;
  for (const w of f.writers) if (w.kind === "call" && w.call.toolkit !== "user") return null;
  const message = `${change}, changed by the user's own tools: ${writersText(f.writers)}`;
  const evidence = [fieldEvidence(f, message)];
  for (const m of mirrors) evidence.push(m);
  return cause("user_state", fieldReference(f), {
    gates: gates.userState || gates.strict,
    message,
    evidence,
  });
}

/** A field an agent call (or no call found) wrote: licensed when every call that wrote it was. */
function writeCause(
  f: AttributedField,
  change: string,
  mirrors: Evidence[],
  licenseOf: LicenseOf,
  gates: FieldGates,
): Cause {
  const checks: { readonly c: CallRef; readonly l: CallLicense }[] = [];
  let unattributed = f.writers.length === 0;
  for (const w of f.writers) {
    if (w.kind === "sync") unattributed = true;
    else checks.push({ c: w.call, l: licenseOf(w.call) });
  }
  let why = "";
  if (unattributed) why = "no call could be found that made the change";
  else
    for (const { c, l } of checks)
      if (!licensed(l)) why += `${why === "" ? "" : "; "}${unlicensedText(c, l)}`;
  const ok = why === "";
  const by = writersText(f.writers);
  const message = ok
    ? `${change}; written by ${by}, each call licensed`
    : `${change}; written by ${by} outside the reference solution: ${why}`;
  return cause(ok ? "licensed_write" : "unlicensed_write", fieldReference(f), {
    gates: !ok || gates.strict,
    message,
    evidence: writeEvidence(fieldEvidence(f, message), checks, mirrors),
  });
}

const fieldKey = (db: string, path: string) => `${db}\u0000${path}`;

/**
 * Plain loops and one small function per outcome: this runs for every differing field, and its
 * array callbacks and one large body were compiled again after each new array shape (see README,
 * Performance).
 */
export function fieldCauses(
  fields: readonly AttributedField[],
  licenseOf: LicenseOf,
  gates: FieldGates,
): Cause[] {
  const out: Cause[] = [];
  let mirrorsOf: Map<string, AttributedField[]> | null = null;
  for (const m of fields) {
    if (m.mirrorOf === null) continue;
    mirrorsOf ??= new Map();
    const key = fieldKey(m.mirrorOf.db, m.mirrorOf.path);
    const list = mirrorsOf.get(key);
    if (list === undefined) mirrorsOf.set(key, [m]);
    else list.push(m);
  }
  for (const f of fields) {
    if (f.mirrorOf !== null) continue;
    const change = `${f.db} DB ${f.path} is ${shown(f.predicted)} where the gold end state has ${shown(f.gold)} (initially ${shown(f.initial)})`;
    const mirrors: Evidence[] = [];
    // Most fields mirror nothing and are mirrored by nothing: no key is built for them.
    const mirrored = mirrorsOf === null ? undefined : mirrorsOf.get(fieldKey(f.db, f.path));
    if (mirrored !== undefined)
      for (const m of mirrored)
        mirrors.push(
          fieldEvidence(
            m,
            `mirrors ${f.path}: ${m.db} DB ${m.path} is ${shown(m.predicted)}`,
            "delta_gate.mirror",
          ),
        );
    out.push(userStateCause(f, change, mirrors, gates) ?? writeCause(f, change, mirrors, licenseOf, gates));
  }
  return out;
}

/**
 * Without a reference solution the delta gate has no footprint: every write would be off it. One
 * reported cause lists the writes instead, each field at the call that last wrote it (null when nothing
 * was written: nothing to list).
 */
export function noReferenceCause(fields: readonly AttributedField[]): Cause | null {
  const evidence: Evidence[] = [];
  for (const f of fields) {
    const change = `${f.db} DB ${f.path} is ${shown(f.predicted)} (initially ${shown(f.initial)})`;
    const message = `${change}; written by ${writersText(f.writers)}${f.mirrorOf === null ? "" : `, mirroring ${f.mirrorOf.path}`}`;
    evidence.push(fieldEvidence(f, message, "no_reference.write"));
  }
  if (evidence.length === 0) return null;
  return cause("no_reference", "evaluation_criteria.actions", {
    gates: false,
    message: `the task gives no reference solution: ${evidence.length} written field(s) cannot be judged by the delta gate`,
    evidence,
  });
}
