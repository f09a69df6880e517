/**
 * τ³ on tasks graded by acceptable outcomes (a fork's rule, docs/tau2.md "Acceptable outcomes"): airline
 * task 8 of the shared data with its gold actions moved into outcomes, graded on a recorded corpus
 * simulation whose end state equals that gold's.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { DOMAINS, loadDomainData } from "../../../src/domains/registry.ts";
import { loadTrajectoryFile } from "../../../src/formats/load.ts";
import type { AcceptableOutcome, Action, Simulation, Task } from "../../../src/formats/model.ts";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { gradeTau3, type Tau3Verdict } from "../../../src/graders/tau3/evaluate.ts";
import { tau3Causes, tau3Grader, tau3Json, tau3Record } from "../../../src/graders/tau3/grader.ts";
import { recordedJudge } from "../../../src/graders/tau3/nl.ts";
import { CORPUS_DIR, DATA_DIR } from "../../helpers/data.ts";

const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.airline), TAU2_QUIRKS);
const task8 = loadTaskFile(join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json")).find(
  (t) => t.id === "8",
) as Task;
const gold = task8.evaluation_criteria as NonNullable<Task["evaluation_criteria"]>;
const goldActions = gold.actions as readonly Action[];
const sim = loadTrajectoryFile(
  join(CORPUS_DIR, "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json"),
).simulations.find((s) => s.task_id === "8" && s.trial === 0) as Simulation;

/** The gold booking in basic economy for both passengers: an end state the simulation does not reach. */
const basicEconomy: readonly Action[] = goldActions.map((a) =>
  a.name === "book_reservation"
    ? {
        ...a,
        arguments: {
          ...a.arguments,
          cabin: "basic_economy",
          payment_methods: [{ payment_id: "certificate_8045380", amount: 166 }],
        },
      }
    : a,
);

const outcome = (
  outcome_id: string,
  reward: number,
  actions: readonly Action[],
  extra: Partial<AcceptableOutcome> = {},
): AcceptableOutcome => ({
  actions,
  env_assertions: gold.env_assertions,
  communicate_info: gold.communicate_info,
  nl_assertions: gold.nl_assertions,
  reward_basis: gold.reward_basis,
  acceptable_outcomes: null,
  outcome_id,
  description: `${outcome_id}: the booking it names`,
  reward,
  ...extra,
});
const met = (id: string, reward: number, extra: Partial<AcceptableOutcome> = {}) =>
  outcome(id, reward, goldActions, extra);
const unmet = (id: string, reward: number) => outcome(id, reward, basicEconomy);

/** Task 8 as the fork writes it: no actions of its own, its outcomes instead. */
const withOutcomes = (outcomes: readonly AcceptableOutcome[]): Task => ({
  ...task8,
  evaluation_criteria: { ...gold, actions: null, acceptable_outcomes: outcomes },
});

const grade = (task: Task, s: Simulation = sim): Tau3Verdict =>
  gradeTau3(ctx, task, s, { solo: false, nl: null });

const matchedOf = (v: Tau3Verdict) => (tau3Json(v) as { matched_outcome?: unknown }).matched_outcome;

describe("acceptable outcomes", () => {
  it("the simulation meets task 8's gold (the ground every case below stands on)", () => {
    expect(grade(task8)).toMatchObject({ reward: 1, db_match: true });
  });

  it("one outcome met: τ³ passes with it and names it; the one not met is passed over", () => {
    const v = grade(withOutcomes([unmet("8_basic", 1), met("8_gold", 1)]));
    expect(v).toMatchObject({ reward: 1, db_match: true, breakdown: { DB: 1, COMMUNICATE: 1 } });
    expect(tau3Record(v).pass).toBe(true);
    expect(matchedOf(v)).toEqual({ id: "8_gold", description: "8_gold: the booking it names", reward: 1 });
    expect(v.notes).toContain("matched acceptable outcome 8_gold (reward 1): 8_gold: the booking it names");
    expect(tau3Causes(v)).toEqual([]);
  });

  it("none met: reward 0 over the basis [DB], no DB check, and the fork's note", () => {
    const v = grade(withOutcomes([unmet("8_basic", 1), unmet("8_basic_too", 0.5)]));
    expect(v).toMatchObject({ reward: 0, basis: ["DB"], db_match: null, breakdown: {} });
    expect(v.notes[0]).toBe("No acceptable outcome matched");
    expect(tau3Record(v).pass).toBe(false);
    expect(matchedOf(v)).toBeNull();
    const [why] = tau3Causes(v);
    expect(why).toMatchObject({ kind: "acceptable_outcome", reference: "none_matched", gates: true });
    // Each outcome says why it was not met, down to the component that failed it.
    expect(why?.evidence.map((e) => e.message)).toEqual([
      "outcome 8_basic (reward 1): 8_basic: the booking it names not matched: DB scored 0",
      "outcome 8_basic: the agent DB after replay differs from the gold end state",
      "outcome 8_basic_too (reward 0.5): 8_basic_too: the booking it names not matched: DB scored 0",
      "outcome 8_basic_too: the agent DB after replay differs from the gold end state",
    ]);
  });

  it("a tie goes to the first outcome in list order; only a strictly higher reward replaces it", () => {
    expect(matchedOf(grade(withOutcomes([met("first", 1), met("second", 1)])))).toMatchObject({
      id: "first",
    });
    expect(matchedOf(grade(withOutcomes([met("first", 0.7), met("second", 0.7)])))).toMatchObject({
      id: "first",
    });
    expect(matchedOf(grade(withOutcomes([met("half", 0.5), met("full", 1)])))).toMatchObject({ id: "full" });
  });

  it("an outcome of reward 0.7 scores 0.7, which is no pass for τ³, and says what the better one missed", () => {
    const v = grade(withOutcomes([unmet("8_basic", 1), met("8_gold", 0.7)]));
    expect(v.reward).toBe(0.7);
    expect(v.db_match).toBe(true);
    expect(tau3Record(v)).toMatchObject({ pass: false, reward: 0.7 });
    expect(matchedOf(v)).toMatchObject({ id: "8_gold", reward: 0.7 });
    const [why] = tau3Causes(v);
    expect(why).toMatchObject({ kind: "acceptable_outcome", reference: "8_gold", gates: true });
    expect(why?.evidence[0]?.message).toMatch(/^outcome 8_basic \(reward 1\).* not matched: DB scored 0$/);
  });

  it("an outcome met with a reward of 0 is no match (the fork's best starts at 0)", () => {
    const v = grade(withOutcomes([met("worthless", 0)]));
    expect(v.reward).toBe(0);
    expect(v.notes[0]).toBe("No acceptable outcome matched");
    expect(tau3Causes(v)[0]?.evidence[0]?.message).toContain("met, but a reward of 0 scores nothing");
  });

  it("an outcome whose evaluation is unknown leaves the reward unknown only where it could win", () => {
    const unjudged = { reward_basis: ["DB", "NL_ASSERTION"] } as const;
    const open = grade(withOutcomes([met("needs_judge", 1, unjudged), met("plain", 0.5)]));
    expect(open.reward).toBeNull();
    expect(matchedOf(open)).toBeNull();
    expect(open.notes[0]).toMatch(/^the acceptable outcome is unknown: the evaluation of needs_judge/);
    const settled = grade(withOutcomes([met("plain", 1), met("needs_judge", 0.5, unjudged)]));
    expect(settled.reward).toBe(1);
    expect(matchedOf(settled)).toMatchObject({ id: "plain" });
  });

  it("notes where the recorded verdict shows another rule: another outcome matched, or a reward no outcome gives", () => {
    const recorded = (reward: number, info: unknown): Simulation => ({
      ...sim,
      reward_info: { reward, db_match: null, nl_assertions: null, raw: { reward, info } },
    });
    const task = withOutcomes([unmet("8_basic", 1), met("8_gold", 0.7)]);
    expect(grade(task, recorded(0.7, { matched_outcome_id: "8_gold" })).notes.join("\n")).not.toMatch(
      /another rule/,
    );
    const notes = grade(task, recorded(0.5, { matched_outcome_id: "8_basic" })).notes;
    expect(notes).toContain(
      "the recorded verdict matched outcome 8_basic where τ³ matches 8_gold: the file was graded by another rule or against other data",
    );
    expect(notes).toContain(
      "the recorded reward 0.5 is neither 0 nor the reward of any acceptable outcome: the file was graded by another rule",
    );
    // A file graded by upstream tau2 scores such a task vacuously and says nothing of outcomes.
    expect(grade(task, recorded(1, { env: null })).notes).toContain(
      "the recorded verdict names no matched acceptable outcome (nor that none matched): the file was graded by another rule",
    );
  });

  it("an empty list of outcomes cannot be graded, as the fork's evaluator refuses it", () => {
    expect(() => grade(withOutcomes([]))).toThrow(/no acceptable outcomes provided/);
  });

  it("the registered grader judges each outcome's NL assertions on its own, never with another's verdicts", async () => {
    const assertions = ["The agent booked the flight."];
    const judged: Simulation = {
      ...sim,
      reward_info: {
        reward: 1,
        db_match: true,
        nl_assertions: [{ nl_assertion: assertions[0] as string, met: true }],
        raw: null,
      },
    };
    const nlBasis = { reward_basis: ["DB", "NL_ASSERTION"], nl_assertions: assertions } as const;
    const task = withOutcomes([
      met("other_words", 1, { ...nlBasis, nl_assertions: ["The agent refused."] }),
      met("same_words", 0.7, nlBasis),
    ]);
    const v = (await tau3Grader.grade(
      {
        ctx,
        domain: DOMAINS.airline,
        task,
        sim: judged,
        solo: false,
        taskVersion: "v0.2.0_f8de30c",
        taskVersions: ["v0.2.0_f8de30c"],
        judge: recordedJudge,
        recordWrites: false,
      },
      null,
      {},
    )) as Tau3Verdict;
    // The recorded verdicts are for "same_words" only: "other_words" stays unknown and could win.
    expect(v.reward).toBeNull();
    const json = tau3Json(v) as { outcomes: { id: string; met: boolean | null }[] };
    expect(json.outcomes.map((o) => [o.id, o.met])).toEqual([
      ["other_words", null],
      ["same_words", true],
    ]);
  });
});
