/**
 * Which requirement fixtures grade a simulation, verified against its own task text, and what they
 * require of it: looked up once per requirement set and task object (a file's simulations share it),
 * each fixture verified once per task text.
 */
import type { DomainDef } from "../../domains/domain.ts";
import type { Simulation, Task } from "../../formats/model.ts";
import { keyedCache } from "../../util/keyed-cache.ts";
import type { TaskFactValue } from "./conditions/evaluate.ts";
import { effectiveMessages } from "./effective.ts";
import { checkRequirements, type RequirementCheck } from "./requirements/evaluate.ts";
import type { LoadedFixture, RequirementSet } from "./requirements/load.ts";
import { instructionField } from "./requirements/quote.ts";
import type { RequirementFixture, SourceField } from "./requirements/schema.ts";
import {
  EVERY_TASK_ID,
  type RuleProblem,
  type VerifiedCap,
  type VerifiedFact,
  type VerifiedPermission,
  type VerifiedRule,
  verifyFixture,
} from "./requirements/verify.ts";

/** What the lookup reads of a simulation. */
export interface FixtureQuery {
  readonly domain: DomainDef;
  readonly task: Task;
  /** Task-set names the file's tasks equal (fixtures are looked up under each, in order). */
  readonly taskVersions: readonly string[];
  readonly sim: Simulation;
}

type Verification = ReturnType<typeof verifyFixture>;

/**
 * A fixture verified once per task: simulations of one task object share it, and so do the equal
 * tasks other files embed (a verification reads only the task's id and the text fields its quotes name).
 */
const verifications = new WeakMap<
  RequirementFixture,
  {
    readonly byTask: WeakMap<Task, Verification>;
    readonly fields: readonly SourceField[];
    readonly byText: Map<string, { readonly texts: readonly (string | null)[]; readonly v: Verification }[]>;
  }
>();

function verifiedFor(
  hit: { readonly path: string; readonly fixture: RequirementFixture },
  input: FixtureQuery,
  reqSet: RequirementSet,
): Verification {
  let cache = verifications.get(hit.fixture);
  if (cache === undefined) {
    const reqs = hit.fixture.user_preflight_requirements;
    const fields = [
      ...new Set(
        [...reqs.action_preconditions, ...reqs.permissions, ...hit.fixture.task_facts].map(
          (r) => r.source_field,
        ),
      ),
    ];
    cache = { byTask: new WeakMap(), fields, byText: new Map() };
    verifications.set(hit.fixture, cache);
  }
  const known = cache.byTask.get(input.task);
  if (known !== undefined) return known;
  const texts = cache.fields.map((f) => instructionField(input.task, f));
  const same = cache.byText.get(input.task.id) ?? [];
  if (same.length === 0) cache.byText.set(input.task.id, same);
  let v = same.find((e) => e.texts.every((t, i) => t === texts[i]))?.v;
  if (v === undefined) {
    v = verifyFixture(hit.path, hit.fixture, input.task, input.domain, reqSet.vocabulary(input.domain.name));
    same.push({ texts, v });
  }
  cache.byTask.set(input.task, v);
  return v;
}

/** A task's verified fixtures (its own, then the every-task one) under the version that gave them. */
interface TaskFixtures {
  readonly fixture: string;
  /** The fixtures that gave a rule, permission or fact (an every-task one is silent where no quote is). */
  readonly paths: readonly string[];
  readonly verified: readonly VerifiedRule[];
  readonly rejected: readonly RuleProblem[];
  readonly permissions: readonly VerifiedPermission[];
  readonly facts: readonly VerifiedFact[];
  readonly caps: readonly VerifiedCap[];
}

/** A fixture written for this task id that did not grade this simulation, and why. */
export interface SkippedFixture {
  /** Null when there is no fixture for this task at all. */
  readonly fixture: string | null;
  readonly reason: string;
}

export const NO_FIXTURE_REASON = "no fixture for this task";

interface FixtureLookup {
  readonly hit: TaskFixtures | null;
  readonly skipped: readonly SkippedFixture[];
}

/**
 * The domains whose fixtures a simulation may use: a variant's own (`requirements/<variant>/…`) first,
 * then its base's; quotes are checked against the simulation's own task text either way.
 */
const fixtureDomains = (input: FixtureQuery): readonly string[] =>
  input.domain.variant === undefined ? [input.domain.name] : [input.domain.variant, input.domain.name];

/** `head` first, then its subsets, then the versions newest name first (the task-set listing's order). */
function versionOrder(a: string, b: string): number {
  const tier = (v: string) => (v === "head" ? 0 : v.startsWith("head/") ? 1 : 2);
  return tier(a) - tier(b) || (tier(a) === 2 ? b.localeCompare(a) : a.localeCompare(b));
}

/** The task versions a domain has fixtures for, per requirement set. */
const fixtureVersionCache = keyedCache<RequirementSet, string, readonly string[]>();
const fixtureVersions = (reqs: RequirementSet, domain: string): readonly string[] =>
  fixtureVersionCache(reqs, domain, () =>
    [
      ...new Set(reqs.fixtures.filter((f) => f.fixture.domain === domain).map((f) => f.fixture.task_version)),
    ].sort(versionOrder),
  );

/**
 * Fixtures follow the task's text, not its label. A fixture written for the task's id applies when every
 * quote it relies on stands verbatim in this simulation's task (and nothing else in it is rejected),
 * whatever the task set, variant or fork; one that misses a quote is skipped with the reason. Looked up
 * under the task sets the file's tasks equal first, then every other version with fixtures, a variant's
 * own folder before its base's. The every-task fixture of the version that applied comes with it (each
 * of its rules only where its quote is); without one, the first every-task fixture found applies alone.
 */
function fixturesFor(input: FixtureQuery, reqs: RequirementSet): FixtureLookup {
  const skipped: SkippedFixture[] = [];
  let everyAlone: LoadedFixture | undefined;
  for (const name of fixtureDomains(input)) {
    const others = fixtureVersions(reqs, name).filter((v) => !input.taskVersions.includes(v));
    for (const version of [...input.taskVersions, ...others]) {
      const own = reqs.find(name, version, input.task.id);
      const every = reqs.find(name, version, EVERY_TASK_ID);
      if (own !== undefined) {
        const problem = verifiedFor(own, input, reqs).problems[0];
        if (problem === undefined) return { hit: combined([own, every], input, reqs), skipped };
        skipped.push({ fixture: own.path, reason: `${problem.ruleId}: ${problem.message}` });
      }
      everyAlone ??= every;
    }
  }
  if (skipped.length === 0) skipped.push({ fixture: null, reason: NO_FIXTURE_REASON });
  return { hit: everyAlone === undefined ? null : combined([everyAlone], input, reqs), skipped };
}

/** Fixtures' verified rules, permissions, facts and caps, in order (the task's own fixture first). */
function combined(
  hits: readonly (LoadedFixture | undefined)[],
  input: FixtureQuery,
  reqs: RequirementSet,
): TaskFixtures {
  const paths: string[] = [];
  const contributing: string[] = [];
  const verified: VerifiedRule[] = [];
  const rejected: RuleProblem[] = [];
  const permissions: VerifiedPermission[] = [];
  const facts: VerifiedFact[] = [];
  const caps: VerifiedCap[] = [];
  for (const hit of hits) {
    if (hit === undefined) continue;
    const v = verifiedFor(hit, input, reqs);
    paths.push(hit.path);
    if (v.verified.length + v.permissions.length + v.facts.length > 0) contributing.push(hit.path);
    verified.push(...v.verified);
    rejected.push(...v.problems);
    permissions.push(...v.permissions);
    // The task's own fixture states a fact first; an every-task one fills in the rest.
    for (const f of v.facts) if (!facts.some((x) => x.fact.name === f.fact.name)) facts.push(f);
    caps.push(...v.caps);
  }
  return { fixture: paths.join(", "), paths: contributing, verified, rejected, permissions, facts, caps };
}

/** Fixtures per requirement set and task object (a file's simulations share it and its versions). */
const taskFixtures = keyedCache<
  RequirementSet,
  Task,
  { readonly versions: readonly string[]; readonly found: FixtureLookup }
>(() => new WeakMap());

/** The requirements a simulation's task has, checked against its conversation. */
export interface TaskRequirements extends RequirementCheck {
  /** The fixtures' paths, comma-separated; null when none applied. */
  readonly fixture: string | null;
  readonly rejected: readonly RuleProblem[];
  readonly permissions: readonly VerifiedPermission[];
  readonly facts: ReadonlyMap<string, TaskFactValue>;
  readonly caps: readonly VerifiedCap[];
  readonly applied: readonly string[];
  readonly skipped: readonly SkippedFixture[];
}

export function requirementsFor(input: FixtureQuery, reqs: RequirementSet | null): TaskRequirements {
  const none = {
    pass: true,
    violations: [],
    checked: [],
    fixture: null,
    rejected: [],
    permissions: [],
    facts: NO_FACTS,
    caps: [],
    applied: [],
  };
  if (reqs === null) return { ...none, skipped: [] };
  let known = taskFixtures(reqs, input.task, () => ({
    versions: input.taskVersions,
    found: fixturesFor(input, reqs),
  }));
  // The same task object under other versions (a caller grading one task set as several): look again.
  if (known.versions !== input.taskVersions)
    known = { versions: input.taskVersions, found: fixturesFor(input, reqs) };
  const { hit, skipped } = known.found;
  if (hit === null) return { ...none, skipped };
  const check = checkRequirements(hit.verified, effectiveMessages(input.domain, input.sim.messages));
  return {
    pass: check.pass,
    violations: check.violations,
    checked: check.checked,
    fixture: hit.fixture,
    rejected: hit.rejected,
    permissions: hit.permissions,
    facts: factValues(hit.facts),
    caps: hit.caps,
    applied: hit.paths,
    skipped,
  };
}

const NO_FACTS: ReadonlyMap<string, TaskFactValue> = new Map();

/** Verified facts by name, as conditions read them (worked out once per verified list). */
const factMaps = new WeakMap<readonly VerifiedFact[], ReadonlyMap<string, TaskFactValue>>();
function factValues(facts: readonly VerifiedFact[]): ReadonlyMap<string, TaskFactValue> {
  if (facts.length === 0) return NO_FACTS;
  let m = factMaps.get(facts);
  if (m === undefined) {
    m = new Map(
      facts.map(({ fact }) => [
        fact.name,
        { id: fact.id, name: fact.name, value: fact.value, quote: fact.source_quote },
      ]),
    );
    factMaps.set(facts, m);
  }
  return m;
}
