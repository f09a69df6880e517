/** A minimal task builder for tests. */
import type { Action, EvaluationCriteria, Task } from "../../src/formats/model.ts";
import type { PyDict } from "../../src/py/value.ts";

export function action(name: string, args: PyDict, extra: Partial<Action> = {}): Action {
  return {
    action_id: extra.action_id ?? name,
    requestor: "assistant",
    name,
    arguments: args,
    info: null,
    compare_args: null,
    ...extra,
  };
}

export function task(criteria: Partial<EvaluationCriteria> | null, extra: Partial<Task> = {}): Task {
  return {
    id: "t1",
    user_scenario: { persona: null, instructions: "help me" },
    ticket: null,
    initial_state: null,
    evaluation_criteria:
      criteria === null
        ? null
        : {
            actions: null,
            env_assertions: null,
            communicate_info: null,
            nl_assertions: null,
            reward_basis: ["DB", "COMMUNICATE"],
            ...criteria,
          },
    ...extra,
  };
}
