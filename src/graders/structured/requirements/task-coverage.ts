/**
 * How many of a results file's tasks a requirement fixture applies to, for `corpus inspect`: a fixture
 * for the task's id (under any task set, a variant's own folder before its base's) whose every quote
 * stands verbatim in the file's task text, or an every-task fixture one of whose quotes does. Quotes
 * only: the tools and fact vocabulary a fixture names are checked by `requirements verify` and when the
 * structured grader grades.
 */
import type { Task } from "../../../formats/model.ts";
import type { LoadedFixture, RequirementSet } from "./load.ts";
import { instructionField } from "./quote.ts";
import type { RequirementFixture } from "./schema.ts";
import { EVERY_TASK_ID } from "./verify.ts";

export interface TaskFixtureCount {
  /** Distinct tasks the file's simulations ran whose text the file (or the data dir) gives. */
  readonly tasks: number;
  readonly with_fixture: number;
}

/** Whether each quote of the fixture (rules, permissions, facts) stands in its named field of `task`. */
function quotesStanding(fixture: RequirementFixture, task: Task): boolean[] {
  const reqs = fixture.user_preflight_requirements;
  return [...reqs.action_preconditions, ...reqs.permissions, ...fixture.task_facts].map((r) =>
    (instructionField(task, r.source_field) ?? "").includes(r.source_quote),
  );
}

/** Fixtures by domain and task id (any task set), once per requirement set. */
const byTask = new WeakMap<RequirementSet, Map<string, LoadedFixture[]>>();

function fixturesOf(reqs: RequirementSet, domain: string, taskId: string): readonly LoadedFixture[] {
  let index = byTask.get(reqs);
  if (index === undefined) {
    index = new Map();
    for (const f of reqs.fixtures) {
      const key = `${f.fixture.domain}\u0000${f.fixture.task_id}`;
      const list = index.get(key);
      if (list === undefined) index.set(key, [f]);
      else list.push(f);
    }
    byTask.set(reqs, index);
  }
  return index.get(`${domain}\u0000${taskId}`) ?? [];
}

/**
 * `domains`: the file's domain, then its base when it is a variant. `tasks`: the task text by id the
 * file's simulations are graded against; ids it lacks are not counted.
 */
export function countTaskFixtures(
  reqs: RequirementSet,
  domains: readonly string[],
  taskIds: Iterable<string>,
  tasks: ReadonlyMap<string, Task>,
): TaskFixtureCount {
  let counted = 0;
  let withFixture = 0;
  for (const id of new Set(taskIds)) {
    const task = tasks.get(id);
    if (task === undefined) continue;
    counted++;
    const applies = (d: string) =>
      // The task's own fixture applies whole; an every-task one rule by rule, where its quote is.
      fixturesOf(reqs, d, id).some((f) => quotesStanding(f.fixture, task).every(Boolean)) ||
      fixturesOf(reqs, d, EVERY_TASK_ID).some((f) => quotesStanding(f.fixture, task).some(Boolean));
    if (domains.some(applies)) withFixture++;
  }
  return { tasks: counted, with_fixture: withFixture };
}
