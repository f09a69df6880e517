/**
 * tau2's environment evaluator: replay the trajectory on the task setup, compare DB hashes with the
 * gold target (agent and user DB), then run env assertions on the predicted env.
 */
import type { Message, Task } from "../../formats/model.ts";
import type { Environment } from "../../replay/environment.ts";
import { ReplayAbort } from "../../replay/errors.ts";
import type { GoldActionResult } from "../../replay/gold.ts";
import { WriteJournal } from "../../replay/journal.ts";
import { type ReplayReport, replayMessages } from "../../replay/replay.ts";
import type { GradingContext } from "../context.ts";

export interface EnvAssertionCheck {
  readonly index: number;
  readonly func_name: string;
  readonly env_type: "assistant" | "user";
  readonly met: boolean;
}

export interface EnvironmentResult {
  /** tau2 short-circuits when a task has neither actions nor env assertions. */
  readonly vacuous: boolean;
  readonly dbMatch: boolean;
  readonly agentDbMatch: boolean;
  readonly userDbMatch: boolean;
  readonly envAssertions: readonly EnvAssertionCheck[];
  readonly envAssertionReward: number;
  readonly replay: ReplayReport | null;
  readonly goldResults: readonly GoldActionResult[];
  /** Kept for graders that look deeper than hashes (the delta gate). */
  readonly predicted: Environment | null;
  /** Which replayed call wrote what (the structured grader attributes DB changes with it). */
  readonly journal: WriteJournal | null;
  readonly gold: Environment | null;
  readonly initial: Environment | null;
}

export function evaluateEnvironment(
  ctx: GradingContext,
  task: Task,
  messages: readonly Message[],
  solo: boolean,
  recordWrites = false,
): EnvironmentResult {
  const criteria = task.evaluation_criteria;
  if (criteria === null) throw new Error("evaluateEnvironment needs evaluation criteria");
  if (criteria.actions === null && criteria.env_assertions === null) {
    return {
      vacuous: true,
      dbMatch: true,
      agentDbMatch: true,
      userDbMatch: true,
      envAssertions: [],
      envAssertionReward: 1,
      replay: null,
      goldResults: [],
      predicted: null,
      journal: null,
      gold: null,
      initial: null,
    };
  }
  if (solo && !ctx.data.domain.supportsSolo) {
    const { name, soloError } = ctx.data.domain;
    throw new ReplayAbort(
      soloError ?? `${name[0]?.toUpperCase()}${name.slice(1)} domain does not support solo mode`,
    );
  }
  const { setup, gold } = ctx.taskArtifacts(task);
  const predicted = setup.fork(solo);
  const journal = recordWrites ? new WriteJournal() : null;
  const replay = replayMessages(predicted, messages, {
    strict: false,
    compareOutputs: false,
    ...(journal === null ? {} : { journal }),
  });
  const agentDbMatch = predicted.agent.sameAs(gold.env.agent);
  const userDbMatch =
    predicted.user === null || gold.env.user === null
      ? predicted.user === gold.env.user
      : predicted.user.sameAs(gold.env.user);
  // Hashes are taken before assertions run; assertions may sync and mutate, so run them on a fork.
  const asserted = predicted.fork();
  const envAssertions = (criteria.env_assertions ?? []).map((a, index) => {
    const value = asserted.runFunction(a.env_type, a.func_name, a.arguments, `env_assertions[${index}]`);
    if (typeof value !== "boolean") {
      throw new ReplayAbort(
        `Function ${a.func_name} returned ${pythonTypeRepr(value)} instead of bool`,
        `env_assertions[${index}]`,
      );
    }
    return { index, func_name: a.func_name, env_type: a.env_type, met: value === a.assert_value };
  });
  return {
    vacuous: false,
    dbMatch: agentDbMatch && userDbMatch,
    agentDbMatch,
    userDbMatch,
    envAssertions,
    envAssertionReward: envAssertions.every((c) => c.met) ? 1 : 0,
    replay,
    goldResults: gold.results,
    predicted,
    journal,
    gold: gold.env,
    initial: gold.initial,
  };
}

function pythonTypeRepr(v: unknown): string {
  const name =
    v === null || v === undefined
      ? "NoneType"
      : typeof v === "string"
        ? "str"
        : typeof v === "number"
          ? "int"
          : Array.isArray(v)
            ? "list"
            : "dict";
  return `<class '${name}'>`;
}
