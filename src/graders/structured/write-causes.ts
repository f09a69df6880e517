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

const factsText = (facts: readonly Fact[]): string =>
  facts.length === 0 ? "" : ` (when called: ${facts.map((f) => `${f.name} = ${shown(f.value)}`).join(", ")})`;

const actorOf = (c: CallRef) => (c.requestor === "assistant" ? "agent" : "user");

/** The tool a call ran, and the dispatcher the message called when there was one. */
const calledName = (c: CallRef) => (c.via === null ? c.name : `${c.name} via ${c.via}`);

/**
 * A call as evidence: where it was made, with what, and the words that decided it. One object shape
 * for every call (no spread): this runs for every written field, and a spread of varying shapes made
 * the callers slow to optimize and quick to deoptimize.
 */
const callEvidence = (code: string, message: string, c: CallRef, quote: string): Evidence => ({
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

export function clauseCauses(findings: readonly ClauseFinding[], gates: boolean): Cause[] {
  return findings
    .filter((f) => f.outcome === "broken")
    .map((f) => {
      const c = f.clause.clause;
      const message = `${c.rule}: ${calledName(f.call)} at turn ${f.call.turnIdx ?? f.call.messageIndex}${factsText(f.facts)}`;
      return cause("policy_clause", c.id, {
        gates,
        message,
        evidence: [callEvidence("policy_clause.broken", message, f.call, c.source_quote)],
      });
    });
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

export function fieldCauses(
  fields: readonly AttributedField[],
  licenseOf: LicenseOf,
  gates: FieldGates,
): Cause[] {
  const out: Cause[] = [];
  const mirrorsOf = new Map<string, AttributedField[]>();
  for (const m of fields) {
    if (m.mirrorOf === null) continue;
    const key = `${m.mirrorOf.db}\u0000${m.mirrorOf.path}`;
    const list = mirrorsOf.get(key);
    if (list === undefined) mirrorsOf.set(key, [m]);
    else list.push(m);
  }
  for (const f of fields) {
    if (f.mirrorOf !== null) continue;
    const reference = f.db === "user" ? `user:${f.path}` : f.path;
    const change = `${f.db} DB ${f.path} is ${shown(f.predicted)} where the gold end state has ${shown(f.gold)} (initially ${shown(f.initial)})`;
    const by = f.writers.length === 0 ? "no replayed call" : f.writers.map(writerText).join(", then ");
    const mirrors: Evidence[] = [];
    // Most fields mirror nothing and are mirrored by nothing: no key is built for them.
    for (const m of mirrorsOf.size === 0 ? [] : (mirrorsOf.get(`${f.db}\u0000${f.path}`) ?? []))
      mirrors.push(
        fieldEvidence(
          m,
          `mirrors ${f.path}: ${m.db} DB ${m.path} is ${shown(m.predicted)}`,
          "delta_gate.mirror",
        ),
      );
    const calls: CallRef[] = [];
    for (const w of f.writers) if (w.kind === "call") calls.push(w.call);
    const userOwn =
      f.db === "user" &&
      f.writers.length > 0 &&
      f.writers.every((w) => w.kind === "sync" || w.call.toolkit === "user");
    if (userOwn) {
      const message = `${change}, changed by the user's own tools: ${by}`;
      out.push(
        cause("user_state", reference, {
          gates: gates.userState || gates.strict,
          message,
          evidence: [fieldEvidence(f, message), ...mirrors],
        }),
      );
      continue;
    }
    const checks = calls.map((c) => ({ c, l: licenseOf(c) }));
    const unattributed = f.writers.length === 0 || f.writers.some((w) => w.kind === "sync");
    const ok = !unattributed && checks.every(({ l }) => licensed(l));
    const why = unattributed
      ? "no call could be found that made the change"
      : checks
          .filter(({ l }) => !licensed(l))
          .map(({ c, l }) =>
            l.broken.length > 0 || l.prohibited.length > 0
              ? `${c.name} was forbidden`
              : `nothing licenses ${c.name} (no task permission, no permit clause whose conditions held)`,
          )
          .join("; ");
    const message = ok
      ? `${change}; written by ${by}, each call licensed`
      : `${change}; written by ${by} outside the reference solution: ${why}`;
    out.push(
      cause(ok ? "licensed_write" : "unlicensed_write", reference, {
        gates: !ok || gates.strict,
        message,
        evidence: writeEvidence(fieldEvidence(f, message), checks, mirrors),
      }),
    );
  }
  return out;
}
