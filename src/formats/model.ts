/**
 * The in-memory trajectory model every loader produces, whatever the file variant. Field names
 * follow tau2's. Tool-call arguments and gold-action arguments are Python-typed (`PyValue`), so
 * `2` and `2.0` stay distinct all the way into the DB hash.
 */
import type { PyDict, PyValue } from "../py/value.ts";

export type Requestor = "assistant" | "user";
export type RewardType = "DB" | "ENV_ASSERTION" | "NL_ASSERTION" | "ACTION" | "COMMUNICATE";

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Must be an object for tau2; anything else is kept so the grader can report it. */
  readonly arguments: PyValue;
  readonly requestor: Requestor;
}

export type Message =
  | { readonly role: "system"; readonly content: string | null; readonly turn_idx: number | null }
  | {
      readonly role: "assistant" | "user";
      readonly content: string | null;
      readonly tool_calls: readonly ToolCall[] | null;
      readonly turn_idx: number | null;
    }
  | {
      readonly role: "tool";
      readonly id: string;
      readonly content: string | null;
      readonly requestor: Requestor;
      readonly error: boolean;
      readonly turn_idx: number | null;
    };

export interface EnvFunctionCall {
  readonly env_type: Requestor;
  readonly func_name: string;
  readonly arguments: PyDict;
}

export interface EnvAssertion extends EnvFunctionCall {
  readonly assert_value: boolean;
  readonly message: string | null;
}

export interface Action {
  readonly action_id: string;
  readonly requestor: Requestor;
  readonly name: string;
  readonly arguments: PyDict;
  readonly info: string | null;
  readonly compare_args: readonly string[] | null;
}

export interface EvaluationCriteria {
  /** The reference solution; null = none (not the same as `[]`, a reference that writes nothing). */
  readonly actions: readonly Action[] | null;
  readonly env_assertions: readonly EnvAssertion[] | null;
  readonly communicate_info: readonly string[] | null;
  readonly nl_assertions: readonly string[] | null;
  readonly reward_basis: readonly RewardType[];
  /**
   * A fork's rule (absent in tau2): the simulation is graded against each outcome as if it were these
   * criteria, and scores the reward of the best one it meets (docs/tau2.md, "Acceptable outcomes").
   * Absent or null: the criteria above grade it.
   */
  readonly acceptable_outcomes?: readonly AcceptableOutcome[] | null;
}

/** One acceptable outcome: criteria of its own, and the reward a simulation that meets them scores. */
export interface AcceptableOutcome extends EvaluationCriteria {
  readonly outcome_id: string;
  readonly description: string | null;
  /** In [0, 1]. */
  readonly reward: number;
}

export interface InitialState {
  readonly initialization_data: {
    readonly agent_data: PyDict | null;
    readonly user_data: PyDict | null;
  } | null;
  readonly initialization_actions: readonly EnvFunctionCall[] | null;
  readonly message_history: readonly Message[] | null;
}

export interface StructuredInstructions {
  readonly domain: string;
  readonly reason_for_call: string;
  readonly known_info: string | null;
  readonly unknown_info: string | null;
  readonly task_instructions: string;
}

export interface Task {
  readonly id: string;
  readonly user_scenario: {
    readonly persona: string | null;
    readonly instructions: string | StructuredInstructions;
  };
  readonly ticket: string | null;
  readonly initial_state: InitialState | null;
  readonly evaluation_criteria: EvaluationCriteria | null;
}

export type TerminationReason =
  | "user_stop"
  | "agent_stop"
  | "max_steps"
  | "too_many_errors"
  | "agent_error"
  | "user_error"
  | "timeout"
  | "infrastructure_error"
  | "context_window_exceeded"
  | "unexpected_error";

/** The recorded verdict, kept loosely typed: only a few fields are read back. */
export interface RecordedRewardInfo {
  readonly reward: number | null;
  readonly db_match: boolean | null;
  readonly nl_assertions:
    | readonly { nl_assertion: string; met: boolean; justification?: string | null }[]
    | null;
  readonly raw: unknown;
}

export interface Simulation {
  readonly id: string;
  readonly task_id: string;
  readonly trial: number | null;
  readonly termination_reason: TerminationReason;
  readonly messages: readonly Message[];
  readonly reward_info: RecordedRewardInfo | null;
}

export type FormatVariant =
  | "tau2-results"
  | "tau2-runner"
  | "bare-simulations"
  | "domain-simulations"
  | "tau-bench-v1"
  /** One tau2 simulation object at the top level (runners that save one file per simulation). */
  | "single-simulation"
  /** JSON Lines, one tau2 simulation per line. */
  | "jsonl-simulations";

export interface RunInfo {
  readonly domain: string | null;
  readonly agent_implementation: string | null;
  readonly agent_model: string | null;
  readonly user_implementation: string | null;
  readonly user_model: string | null;
  /** The agent's and the user simulator's `llm_args` as canonical JSON; null when none are recorded. */
  readonly agent_args: string | null;
  readonly user_args: string | null;
  readonly num_trials: number | null;
  /** tau2 solo mode: `llm_agent_solo` agent with a `dummy_user`. */
  readonly solo: boolean;
}

/** One loaded trajectory file. */
export interface TrajectoryFile {
  readonly path: string;
  readonly variant: FormatVariant;
  readonly info: RunInfo;
  /** Tasks embedded in the file (null when the file has none). */
  readonly tasks: readonly Task[] | null;
  readonly simulations: readonly Simulation[];
  /** Simulations that failed validation, with the JSON path and reason; never silently dropped. */
  readonly rejected: readonly {
    readonly index: number;
    readonly id: string | null;
    readonly path: string;
    readonly reason: string;
  }[];
  /** Keys of the embedded tasks that grading does not read and tau2 does not define (never silently dropped). */
  readonly unknownTaskFields?: readonly UnknownTaskField[];
}

/** A task key the tool does not understand, at its JSON path in the file (`tasks[0].annotations`). */
export interface UnknownTaskField {
  readonly path: string;
  readonly key: string;
}
