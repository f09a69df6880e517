/**
 * Verifies clauses against the domain they govern: the quote sits verbatim at its offsets in every
 * policy document (or knowledge-base document) it names, the tools exist, the arguments it reads are
 * parameters of every tool it governs, and every table, atom and name it reads exists or is bound. A
 * rejected clause never grades.
 */
import type { DomainData } from "../../../domains/domain.ts";
import { keyedCache } from "../../../util/keyed-cache.ts";
import { unboundNames } from "../conditions/evaluate.ts";
import { type Binding, type Condition, type Operand, readOperand } from "../conditions/schema.ts";
import { locateQuote } from "../requirements/quote.ts";
import { sourceLabel, sourceText } from "./documents.ts";
import type { ClauseSet, LoadedClause } from "./load.ts";

export interface VerifiedClause extends LoadedClause {
  /** The policy documents (relative to the domain folder) whose agents the clause governs. */
  readonly files: readonly string[];
  /**
   * It quotes what every agent of the domain works under, whatever its policy file: a document the domain
   * includes in every policy (banking's prompt components) or one of its knowledge base.
   */
  readonly allAgents: boolean;
}

export interface ClauseProblem {
  readonly path: string;
  readonly clauseId: string;
  readonly message: string;
}

const codePoints = (text: string, start: number, end: number) => [...text].slice(start, end).join("");

function argsRead(c: readonly Condition[], bindings: readonly Binding[]): string[] {
  const out: string[] = [];
  const op = (o: Operand) => {
    const read = readOperand(o);
    if ("arg" in read) out.push(read.arg);
  };
  for (const b of bindings) if (!("atom" in b)) Object.values(b.where).forEach(op);
  const walk = (cs: readonly Condition[]) => {
    for (const x of cs) {
      if ("op" in x) {
        op(x.left);
        op(x.right);
      } else if ("any_of" in x) walk(x.any_of);
      else if (!("task_permits" in x)) {
        const q = "any" in x ? x.any : "all" in x ? x.all : x.none;
        if (!("list" in q.each)) Object.values(q.each.where).forEach(op);
        walk(q.when);
      }
    }
  };
  walk(c);
  return [...new Set(out)];
}

function tablesRead(
  c: readonly Condition[],
  bindings: readonly Binding[],
): { db: string; name: string; atom: boolean }[] {
  const out: { db: string; name: string; atom: boolean }[] = bindings.map((b) =>
    "atom" in b ? { db: b.db, name: b.atom, atom: true } : { db: b.db, name: b.table, atom: false },
  );
  const walk = (cs: readonly Condition[]) => {
    for (const x of cs) {
      if ("any_of" in x) walk(x.any_of);
      else if ("any" in x || "all" in x || "none" in x) {
        const q = "any" in x ? x.any : "all" in x ? x.all : x.none;
        if (!("list" in q.each)) out.push({ db: q.each.db, name: q.each.table, atom: false });
        walk(q.when);
      }
    }
  };
  walk(c);
  return out;
}

/** Field names per DB and table, worked out once per loaded domain data (a scan of every record). */
const fieldsSeen = keyedCache<DomainData, string, Set<string> | null>();

const fieldsOf = (data: DomainData, db: string, table: string): Set<string> | null =>
  fieldsSeen(data, `${db}\u0000${table}`, () => scanFields(data, db, table));

/** Field names the records of a table (or an atom's value) have in the DB as loaded, or may be given. */
function scanFields(data: DomainData, db: string, table: string): Set<string> | null {
  const base = db === "agent" ? data.agentBase : data.userBase;
  const v = base?.root[table];
  if (v === undefined || base === null || base === undefined) return null;
  const kind = base.layout[table];
  const records = kind === "atom" ? [v] : Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  const declared = data.domain.recordFields;
  const out = new Set<string>(
    declared !== undefined && Object.hasOwn(declared, table) ? declared[table] : [],
  );
  for (const r of records)
    if (r !== null && typeof r === "object" && !Array.isArray(r)) for (const k of Object.keys(r)) out.add(k);
  return out;
}

/** Refs to a field no record of the bound table has: a typo would make the clause silently unknown. */
function unknownFields(clause: LoadedClause["clause"], data: DomainData): string[] {
  const out: string[] = [];
  const tables = new Map<string, Set<string> | null>();
  for (const b of clause.bind)
    tables.set(b.as, "atom" in b ? fieldsOf(data, b.db, b.atom) : fieldsOf(data, b.db, b.table));
  const check = (operand: Operand, names: ReadonlyMap<string, Set<string> | null>) => {
    const o = readOperand(operand);
    if (!("ref" in o)) return;
    const [head, field] = o.ref.split(".");
    const fields = names.get(head as string);
    if (field !== undefined && fields !== undefined && fields !== null && !fields.has(field))
      out.push(`reads ${o.ref}, but no ${head} record has a field ${field}`);
  };
  const walk = (cs: readonly Condition[], names: ReadonlyMap<string, Set<string> | null>) => {
    for (const x of cs) {
      if ("op" in x) {
        check(x.left, names);
        check(x.right, names);
      } else if ("any_of" in x) walk(x.any_of, names);
      else if (!("task_permits" in x)) {
        const q = "any" in x ? x.any : "all" in x ? x.all : x.none;
        const inner = new Map(names);
        inner.set(q.as, "list" in q.each ? null : fieldsOf(data, q.each.db, q.each.table));
        walk(q.when, inner);
      }
    }
  };
  walk(clause.when, tables);
  return [...new Set(out)];
}

export function verifyClause(
  loaded: LoadedClause,
  data: DomainData,
  dataDir: string,
  version?: string,
): { readonly clause: VerifiedClause | null; readonly problems: ClauseProblem[] } {
  const { clause } = loaded;
  const problems: ClauseProblem[] = [];
  const fail = (message: string) => problems.push({ path: loaded.path, clauseId: clause.id, message });
  const domain = data.domain;
  if (loaded.domain !== domain.name) fail(`clause of domain ${loaded.domain} checked against ${domain.name}`);
  if (!clause.id.startsWith(`${domain.name}.`)) fail(`clause ids start with the domain: ${domain.name}.`);
  const files: string[] = [];
  let allAgents = false;
  for (const s of clause.sources) {
    const doc = sourceText(dataDir, domain, s, version);
    if ("problem" in doc) {
      fail(doc.problem);
      continue;
    }
    const at = codePoints(doc.text, s.quote_start, s.quote_end);
    if (at === clause.source_quote) {
      if ("file" in s) files.push(s.file);
      if (!("file" in s) || (domain.policyIncludes ?? []).includes(s.file)) allAgents = true;
      continue;
    }
    const loc = locateQuote(doc.text, clause.source_quote);
    const where = "file" in s ? s.file : `the content of ${sourceLabel(s)}`;
    // A variant's documents are edited copies: offsets move, and a quote it removed does not apply there.
    if (domain.variant !== undefined) {
      if (loc.found) {
        if ("file" in s) files.push(s.file);
        if (!("file" in s) || (domain.policyIncludes ?? []).includes(s.file)) allAgents = true;
      } else
        fail(`not applicable in ${domain.variant}: its source_quote is not in ${domain.variant}'s ${where}`);
      continue;
    }
    fail(
      loc.found
        ? `source_quote is in ${where} at ${loc.start}–${loc.end}, not at ${s.quote_start}–${s.quote_end}`
        : `source_quote not found verbatim in ${where}; closest text: ${JSON.stringify(loc.closest)}`,
    );
  }
  for (const tool of clause.tools) {
    const def = domain.agentTools.tools.get(tool) ?? domain.userTools?.tools.get(tool);
    if (def === undefined) {
      fail(`tool ${tool} is not in the ${domain.name} toolkits`);
      continue;
    }
    const params = new Set(def.params.map((p) => p.name));
    for (const a of argsRead(clause.when, clause.bind))
      if (!params.has(a)) fail(`reads argument ${a}, which ${tool} does not take`);
  }
  for (const t of tablesRead(clause.when, clause.bind)) {
    const base = t.db === "agent" ? data.agentBase : data.userBase;
    const kind = base?.layout[t.name];
    if (kind === undefined) fail(`the ${t.db} DB has no field ${t.name}`);
    else if (t.atom !== (kind === "atom")) fail(`${t.db} DB field ${t.name} is a ${kind} field`);
  }
  const bound = new Set<string>();
  for (const b of clause.bind) {
    const refs =
      "atom" in b ? [] : Object.values(b.where).flatMap((o) => ("ref" in o ? [o.ref.split(".")[0]] : []));
    for (const r of refs) if (!bound.has(r as string)) fail(`binding ${b.as} reads ${r} before it is bound`);
    bound.add(b.as);
  }
  for (const name of unboundNames(clause.when, bound)) fail(`reads ${name}, which nothing binds`);
  for (const message of unknownFields(clause, data)) fail(message);
  return { clause: problems.length === 0 ? { ...loaded, files, allAgents } : null, problems };
}

export function verifyClauses(
  set: ClauseSet,
  data: DomainData,
  dataDir: string,
  version?: string,
): { readonly verified: readonly VerifiedClause[]; readonly problems: readonly ClauseProblem[] } {
  const verified: VerifiedClause[] = [];
  const problems: ClauseProblem[] = [];
  for (const c of set.clauses) {
    if (c.domain !== data.domain.name) continue;
    const r = verifyClause(c, data, dataDir, version);
    if (r.clause !== null) verified.push(r.clause);
    problems.push(...r.problems);
  }
  return { verified, problems };
}
