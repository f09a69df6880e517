/**
 * Verifies a whole requirement set against a tau2 data dir: everything `verifyFixture` checks, plus
 * what only the set or the domain can tell — rule ids unique within each task version and, where a
 * task's rule is carried into another version under the same id, meaning the same action and scope
 * there (a requirement cause with that id must mean one thing); fixture files where their
 * `domain/task_version/task_id` says, scopes naming real parameters and real DB entities, and no rule
 * forbidding one of the task's own gold actions (that would mean the rule misreads the user).
 */
import { relative, resolve, sep } from "node:path";
import { type DomainDef, defineDomain } from "../../../domains/domain.ts";
import { domainByName, loadDomainData } from "../../../domains/registry.ts";
import { overlayDataDir, VariantError, variantOf } from "../../../domains/variants.ts";
import type { Task } from "../../../formats/model.ts";
import { pyDumps } from "../../../py/json.ts";
import { effectiveTask } from "../effective.ts";
import { type LoadedFixture, loadFixtureFile, loadRequirements } from "./load.ts";
import { fixtureRelPath } from "./paths.ts";
import type { ActionPrecondition, FactVocabulary } from "./schema.ts";
import { callInScope, entityNames, taskEntityNames } from "./scope.ts";
import { taskSet, taskSetNames } from "./task-sets.ts";
import { EVERY_TASK_ID, verifyFixture } from "./verify.ts";

export interface SetProblem {
  readonly fixture: string;
  /** The rule the problem is about, or null for whole-file problems. */
  readonly ruleId: string | null;
  readonly message: string;
}

export interface SetVerification {
  readonly fixtures: number;
  /** Rules of every kind: prohibitions, permissions and charge caps. */
  readonly rules: number;
  readonly facts: number;
  readonly problems: readonly SetProblem[];
}

export interface VerifySetOptions {
  readonly dir: string;
  readonly dataDir: string;
  /** Report only problems of these fixture files (the whole set is still loaded for id uniqueness). */
  readonly only?: readonly string[];
}

export function verifyRequirementSet(opts: VerifySetOptions): SetVerification {
  const set = loadRequirements(opts.dir);
  const problems: SetProblem[] = set.problems.map((p) => ({
    fixture: p.path,
    ruleId: null,
    message: p.message,
  }));
  const firstUse = new Map<string, { path: string; version: string; meaning: string }>();
  let rules = 0;
  let facts = 0;
  for (const loaded of set.fixtures) {
    const { fixture } = loaded;
    const preconditions = fixture.user_preflight_requirements.action_preconditions;
    rules += ruleCount(fixture);
    facts += fixture.task_facts.length;
    for (const rule of preconditions) {
      const meaning = JSON.stringify([rule.action, rule.arguments]);
      const first = firstUse.get(rule.id);
      if (first === undefined) {
        firstUse.set(rule.id, { path: loaded.path, version: fixture.task_version, meaning });
        continue;
      }
      if (first.path === loaded.path) continue; // verifyFixture reports duplicates within a file
      const fail = (message: string) => problems.push({ fixture: loaded.path, ruleId: rule.id, message });
      if (first.version === fixture.task_version) fail(`rule id already used in ${first.path}`);
      else if (first.meaning !== meaning)
        fail(`rule id means another action or scope in ${first.path}; give the new rule its own id`);
    }
    problems.push(...checkFixture(loaded, opts, set.vocabulary(fixture.domain)));
  }
  const wanted = opts.only?.map((p) => resolve(p));
  if (wanted === undefined) return { fixtures: set.fixtures.length, rules, facts, problems };
  // Only the named files: those of the set as checked above; any other file is loaded and checked alone.
  const shown = problems.filter((p) => wanted.includes(resolve(p.fixture)));
  const inSet = new Set([...set.fixtures, ...set.problems].map((f) => resolve(f.path)));
  let named = 0;
  let namedRules = 0;
  let namedFacts = 0;
  for (const file of wanted) {
    const loaded = inSet.has(file)
      ? set.fixtures.find((f) => resolve(f.path) === file)
      : loadFixtureFile(file);
    if (loaded === undefined) continue;
    if ("message" in loaded) {
      if (!inSet.has(file)) shown.push({ fixture: loaded.path, ruleId: null, message: loaded.message });
      continue;
    }
    named++;
    namedRules += ruleCount(loaded.fixture);
    namedFacts += loaded.fixture.task_facts.length;
    if (!inSet.has(file))
      shown.push(...checkFixture(loaded, opts, set.vocabulary(loaded.fixture.domain), false));
  }
  return { fixtures: named, rules: namedRules, facts: namedFacts, problems: shown };
}

const ruleCount = (f: LoadedFixture["fixture"]): number => {
  const r = f.user_preflight_requirements;
  return r.action_preconditions.length + r.permissions.length + r.charge_caps.length;
};

/** `located`: the file is in the set's folder, so where it sits must match what it says. */
function checkFixture(
  loaded: LoadedFixture,
  opts: VerifySetOptions,
  vocabulary: FactVocabulary,
  located = true,
): SetProblem[] {
  const { path, fixture } = loaded;
  const problems: SetProblem[] = [];
  const fail = (ruleId: string | null, message: string) => problems.push({ fixture: path, ruleId, message });

  const expected = fixtureRelPath(fixture.domain, fixture.task_version, fixture.task_id);
  const actual = relative(resolve(opts.dir), resolve(path)).split(sep).join("/");
  if (located && actual !== expected)
    fail(null, `file is at ${actual} but its domain/task_version/task_id say ${expected}`);

  // A variant's fixtures (`requirements/<variant>/`) are checked against its own tasks and DB.
  const target = domainOf(fixture.domain, opts.dataDir);
  if (typeof target === "string") {
    fail(null, target);
    return problems;
  }
  const { domain, dataDir } = target;
  const tasks = taskSet(dataDir, domain.name, fixture.task_version);
  if (tasks === null) {
    const have = taskSetNames(dataDir, domain.name).join(", ") || "none";
    fail(null, `no task version ${fixture.task_version} of ${domain.name} in the data dir (have: ${have})`);
    return problems;
  }
  if (fixture.task_id === EVERY_TASK_ID)
    return everyTaskProblems(loaded, [...tasks.byId.values()], domain, vocabulary);
  const task = tasks.byId.get(fixture.task_id);
  if (task === undefined) {
    fail(null, `task ${fixture.task_id} is not in ${domain.name} ${fixture.task_version}`);
    return problems;
  }
  for (const p of verifyFixture(path, fixture, task, domain, vocabulary).problems) fail(p.ruleId, p.message);
  const rules = fixture.user_preflight_requirements.action_preconditions as ActionPrecondition[];
  for (const rule of rules) {
    for (const message of scopeProblems(rule, domain, task, dataDir)) fail(rule.id, message);
    for (const message of goldConflicts(rule, task, domain)) fail(rule.id, message);
  }
  return problems;
}

/** A fixture's domain: a base domain, or a variant of one in the data dir (`domains/<name>/variant.json`); else why not. */
function domainOf(name: string, dataDir: string): { domain: DomainDef; dataDir: string } | string {
  const base = domainByName(name);
  if (base !== undefined) return { domain: base, dataDir };
  let variant: ReturnType<typeof variantOf>;
  try {
    variant = variantOf(dataDir, name);
  } catch (e) {
    if (e instanceof VariantError) return e.message;
    throw e;
  }
  const of = variant === null ? undefined : domainByName(variant.base);
  if (variant === null || of === undefined) return `unknown domain ${name}`;
  return { domain: defineDomain({ ...of, variant: name }), dataDir: overlayDataDir(dataDir, variant) };
}

/** A fixture for every task: each rule must apply somewhere, and nowhere forbid a task's own gold action. */
function everyTaskProblems(
  loaded: LoadedFixture,
  tasks: readonly Task[],
  domain: DomainDef,
  vocabulary: FactVocabulary,
): SetProblem[] {
  const { path, fixture } = loaded;
  const problems = new Map<string, SetProblem>();
  const applied = new Set<string>();
  for (const task of tasks) {
    const v = verifyFixture(path, fixture, task, domain, vocabulary);
    for (const p of v.problems) problems.set(`${p.ruleId}\u0000${p.message}`, { ...p, fixture: path });
    for (const r of v.verified) {
      applied.add(r.rule.id);
      for (const message of goldConflicts(r.rule, task, domain))
        problems.set(`${r.rule.id}\u0000${message}`, {
          fixture: path,
          ruleId: r.rule.id,
          message: `task ${task.id}: ${message}`,
        });
    }
    for (const p of v.permissions) applied.add(p.permission.id);
  }
  const reqs = fixture.user_preflight_requirements;
  for (const rule of [...reqs.action_preconditions, ...reqs.permissions])
    if (!applied.has(rule.id))
      problems.set(rule.id, {
        fixture: path,
        ruleId: rule.id,
        message: `source_quote is in the ${rule.source_field} of no task of ${fixture.domain} ${fixture.task_version}`,
      });
  return [...problems.values()];
}

function scopeProblems(rule: ActionPrecondition, domain: DomainDef, task: Task, dataDir: string): string[] {
  if (rule.arguments === null) return [];
  const out: string[] = [];
  const tool = domain.agentTools.tools.get(rule.action) ?? domain.userTools?.tools.get(rule.action);
  const names = domainEntities(dataDir, domain);
  const extra = taskEntityNames(task);
  for (const [key, value] of Object.entries(rule.arguments)) {
    if (tool !== undefined && !tool.params.some((p) => p.name === key))
      out.push(`arguments.${key} is not a parameter of ${rule.action}, so the rule could never match`);
    if (typeof value !== "string" || !(names.has(value) || extra.has(value)))
      out.push(`arguments.${key} = ${JSON.stringify(value)} names nothing in the ${domain.name} DB`);
  }
  return out;
}

/** Gold actions as the calls they make: a rule on a discoverable tool conflicts with the gold that dispatches it. */
function goldConflicts(rule: ActionPrecondition, task: Task, domain: DomainDef): string[] {
  const gold = effectiveTask(domain, task).evaluation_criteria?.actions ?? [];
  return gold
    .filter((a) => a.requestor === "assistant" && a.name === rule.action)
    .filter((a) => callInScope(rule.arguments, a.arguments))
    .map(
      (a) => `forbids the task's own gold action ${a.action_id}: ${a.name}(${pyDumps(a.arguments, false)})`,
    );
}

/** DB entity names per data dir and domain; the DBs are large, so index each once. */
const entityCache = new Map<string, Set<string>>();

function domainEntities(dataDir: string, domain: DomainDef): Set<string> {
  const key = `${resolve(dataDir)}\u0000${domain.name}`;
  let names = entityCache.get(key);
  if (names === undefined) {
    const data = loadDomainData(dataDir, domain);
    names = entityNames(data.agentBase.root);
    if (data.userBase !== null) entityNames(data.userBase.root, names);
    entityCache.set(key, names);
  }
  return names;
}
