import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Simulation } from "../../../src/formats/model.ts";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import { correctTask } from "../../../src/graders/corrections/apply.ts";
import { loadCorrectionsDir } from "../../../src/graders/corrections/builtin.ts";
import { evaluateNlCurated } from "../../../src/graders/corrections/nl-curated.ts";
import { loadCorrections } from "../../../src/graders/corrections/schema.ts";
import { recordedJudge } from "../../../src/graders/tau3/nl.ts";
import { DATA_DIR } from "../../helpers/data.ts";

const overlays = loadCorrectionsDir();
const airline = overlays.get("airline")!;
const v0 = new Map(
  loadTaskFile(join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json")).map((t) => [t.id, t]),
);
const head = new Map(loadTaskFile(join(DATA_DIR, "domains/airline/tasks.json")).map((t) => [t.id, t]));

describe("the shipped airline overlay", () => {
  it("drops the cancellation of MSJ4OA from task 39 in both task versions", () => {
    for (const [tasks, version] of [
      [v0, "v0.2.0_f8de30c"],
      [head, "head"],
    ] as const) {
      const fixed = correctTask(tasks.get("39")!, version, airline);
      const cancels = fixed.task.evaluation_criteria?.actions
        ?.filter((a) => a.name === "cancel_reservation")
        .map((a) => a.arguments.reservation_id);
      expect(cancels).toEqual(["8C8K4E", "LU15PA"]);
      expect(fixed.droppedActions.map((d) => d.action_id)).toEqual(["39_10"]);
    }
  });
  it("leaves other tasks and other versions untouched", () => {
    const t = v0.get("27")!;
    expect(correctTask(t, "v0.2.0_f8de30c", airline).task).toBe(t);
  });
  it("curates NL assertions: adopted by index, inverted, dropped with a reason, added", () => {
    const fixed = correctTask(head.get("39")!, "head", airline);
    expect(fixed.curatedNl?.map((c) => c.origin.kind)).toEqual([
      "adopted",
      "adopted",
      "adopted",
      "inverted",
      "added",
    ]);
    expect(fixed.curatedNl?.[3]?.assertion).toBe("Agent does not cancel reservation MSJ4OA.");
    expect(correctTask(head.get("27")!, "head", airline).curatedNl?.map((c) => c.assertion)).not.toContain(
      "Agent confirms that user can receive compensation because he has Silver status.",
    );
  });
  it("judges curated lists from recorded verdicts, negating inverted ones; additions need a live judge", async () => {
    const t = head.get("39")!;
    const sim: Simulation = {
      id: "s",
      task_id: "39",
      trial: 0,
      termination_reason: "user_stop",
      messages: [],
      reward_info: {
        reward: 1,
        db_match: true,
        raw: null,
        nl_assertions: [true, true, true, true].map((met, i) => ({ nl_assertion: `a${i}`, met })),
      },
    };
    const curated = correctTask(t, "head", airline).curatedNl!;
    const withoutAdded = curated.filter((c) => c.origin.kind !== "added");
    const r = await evaluateNlCurated(recordedJudge, t, sim, withoutAdded);
    expect(r.judgement.status === "judged" && r.judgement.results.map((x) => x.met)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(r.score).toBe(0);
    expect((await evaluateNlCurated(recordedJudge, t, sim, curated)).score).toBeNull();
  });
});

describe("overlay validation", () => {
  const write = (body: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "corr-"));
    const p = join(dir, "x.json");
    writeFileSync(p, JSON.stringify(body));
    return p;
  };
  const file = (entry: unknown) => ({
    format_version: 1,
    domain: "airline",
    version: "1",
    source: "test",
    tasks: { "39": entry },
  });
  it("rejects a dropped action without a reason, naming the path", () => {
    const p = write(file({ task_versions: ["head"], drop_actions: [{ action_id: "39_10" }] }));
    expect(() => loadCorrections(p)).toThrow(/at tasks\["39"\]\.drop_actions\[0\]\.reason: /);
  });
  it("rejects an empty reason", () => {
    const p = write(file({ task_versions: ["head"], drop_actions: [{ action_id: "39_10", reason: "  " }] }));
    expect(() => loadCorrections(p)).toThrow(/every correction needs a reason/);
  });
  it("rejects dropping an action the task does not have", () => {
    const overlay = loadCorrections(
      write(file({ task_versions: ["head"], drop_actions: [{ action_id: "39_99", reason: "r" }] })),
    );
    expect(() => correctTask(head.get("39")!, "head", overlay)).toThrow("no gold action 39_99 to drop");
  });
  it("rejects a curation that leaves an upstream assertion unaccounted for", () => {
    const overlay = loadCorrections(write(file({ task_versions: ["head"], nl_curation: { adopt: [0] } })));
    expect(() => correctTask(head.get("39")!, "head", overlay)).toThrow(
      "NL assertions 1, 2, 3 are neither adopted, dropped nor inverted",
    );
  });
});
