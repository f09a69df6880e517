/**
 * The NL_CURATED component: the curated assertion list judged on its own. It never touches the τ³
 * parity reward; the structured grader may gate on it when configured to.
 */
import type { Simulation, Task } from "../../formats/model.ts";
import type { NlJudge, NlJudgement } from "../tau3/nl.ts";
import { nlReward } from "../tau3/nl.ts";
import type { CuratedAssertion } from "./apply.ts";

export interface NlCuratedResult {
  readonly score: number | null;
  readonly judgement: NlJudgement;
  readonly assertions: readonly CuratedAssertion[];
}

/**
 * With recorded verdicts, adopted assertions reuse the recorded verdict at their upstream index and
 * inverted ones negate it; an added assertion has no recorded verdict, so the component is unknown.
 */
async function judgeCurated(
  judge: NlJudge,
  task: Task,
  sim: Simulation,
  curated: readonly CuratedAssertion[],
): Promise<NlJudgement> {
  if (judge.mode !== "recorded")
    return judge.judge(
      task,
      sim,
      curated.map((c) => c.assertion),
    );
  const recorded = sim.reward_info?.nl_assertions ?? null;
  if (recorded === null)
    return { status: "unknown", reason: "the trajectory has no recorded NL assertion verdicts" };
  const results = [];
  for (const c of curated) {
    if (c.origin.kind === "added")
      return { status: "unknown", reason: "added curated assertions need a live judge (--judge http)" };
    const r = recorded[c.origin.index];
    if (r === undefined)
      return { status: "unknown", reason: `no recorded verdict for NL assertion ${c.origin.index}` };
    results.push({
      assertion: c.assertion,
      met: c.origin.kind === "inverted" ? !r.met : r.met,
      justification: r.justification ?? null,
    });
  }
  return { status: "judged", source: "recorded", results };
}

export async function evaluateNlCurated(
  judge: NlJudge,
  task: Task,
  sim: Simulation,
  curated: readonly CuratedAssertion[],
): Promise<NlCuratedResult> {
  const judgement =
    curated.length === 0
      ? ({ status: "judged", source: "empty", results: [] } as const)
      : await judgeCurated(judge, task, sim, curated);
  return { score: nlReward(judgement), judgement, assertions: curated };
}
