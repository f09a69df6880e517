/** The task/trajectory consistency check: precise on self-consistent files, flags mislabelled ones. */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DomainDef } from "../../src/domains/domain.ts";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { domainByName } from "../../src/domains/registry.ts";
import { loadTrajectoryFile } from "../../src/formats/load.ts";
import type { Message } from "../../src/formats/model.ts";
import { detectTaskVersion } from "../../src/formats/task-version.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { CONSISTENCY_CODE, checkConsistency } from "../../src/graders/consistency.ts";
import { loadedStructured } from "../../src/graders/structured/engine.ts";
import { NO_EXTRA_GATES } from "../../src/graders/structured/gates.ts";
import { DEFAULT_STRUCTURED_OPTIONS } from "../../src/graders/structured/grade.ts";
import { recordedJudge } from "../../src/graders/tau3/nl.ts";
import { ContextPool } from "../../src/pipeline/contexts.ts";
import { type GradedSimulation, gradeFile, jsonLine } from "../../src/pipeline/grade.ts";
import { appendSimulationRows, emptyBatch } from "../../src/pipeline/store-rows.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { call, calls, result, say } from "../helpers/messages.ts";

const pool = new ContextPool(DATA_DIR, TAU2_QUIRKS);
const retail = domainByName("retail") as DomainDef;
const TOOLORCHESTRA =
  "sierra-tau2-bench__leaderboard-pr__toolorchestra_nvidia_2025-12-02/toolorchestra_retail_gpt-5_1trial.json";

async function graded(rel: string, gates = NO_EXTRA_GATES): Promise<GradedSimulation[]> {
  const file = loadTrajectoryFile(join(CORPUS_DIR, rel));
  const out: GradedSimulation[] = [];
  for await (const g of gradeFile(file, detectTaskVersion(file, DATA_DIR), pool, {
    judge: recordedJudge,
    fallbackTaskVersion: "head",
    graders: { structured: loadedStructured({ ...DEFAULT_STRUCTURED_OPTIONS, gates }) },
  }))
    out.push(g);
  return out;
}

describe("consistency check on the corpus", () => {
  it("flags the mislabelled ToolOrchestra retail file, with the foreign ids as evidence", async () => {
    const rows = await graded(TOOLORCHESTRA);
    const foreign = rows.filter((g) => g.verdicts.structured?.consistency.status === "foreign");
    expect(rows).toHaveLength(114);
    expect(foreign.length).toBeGreaterThanOrEqual(100);
    const task0 = rows.find((g) => g.row.task_id === "0")?.verdicts.structured?.consistency;
    expect(task0?.status).toBe("foreign");
    expect(task0?.taskUsers).toEqual(["yusuf_rossi_9620"]);
    expect(task0?.conversationUsers).toEqual(["raj_santos_9079"]);
    expect(task0?.evidence.length).toBeGreaterThan(0);
    for (const e of task0?.evidence ?? []) {
      expect(e.code).toBe(CONSISTENCY_CODE);
      expect(e.message).toMatch(/raj_santos_9079/);
      expect(e.toolCallId).toBeTruthy();
    }
    // In the store: a consistency cause per foreign simulation, reported but not gating by default,
    // with one evidence row per use of a foreign id.
    const batch = emptyBatch();
    const ctx = { runId: "r", fileId: "f", domain: retail, hashes: {} };
    rows.forEach((g, index) => {
      appendSimulationRows(batch, ctx, g, index);
    });
    const causes = batch.causes.filter((c) => c.kind === "consistency");
    expect(causes).toHaveLength(foreign.length);
    expect(causes.every((c) => c.reference === CONSISTENCY_CODE && !c.gates && c.tool_call_id !== null)).toBe(
      true,
    );
    const evidence = batch.evidence.filter((e) => e.code === CONSISTENCY_CODE);
    expect(evidence.length).toBeGreaterThanOrEqual(foreign.length);
    const line = jsonLine(rows.find((g) => g.row.task_id === "0") as GradedSimulation);
    expect((line.structured as { consistency: { status: string } }).consistency.status).toBe("foreign");
  });

  it("fails foreign simulations when the experiment gates on consistency", async () => {
    const ungated = await graded(TOOLORCHESTRA);
    const gated = await graded(TOOLORCHESTRA, { ...NO_EXTRA_GATES, consistency: true });
    gated.forEach((g, i) => {
      const s = g.verdicts.structured;
      const foreign = s?.consistency.status === "foreign";
      expect(s?.causes.some((c) => c.kind === "consistency" && c.gates)).toBe(foreign);
      if (foreign) expect(s?.pass).toBe(false);
      else expect(s?.pass).toBe(ungated[i]?.verdicts.structured?.pass);
    });
    expect(gated.filter((g) => g.verdicts.structured?.pass === true).length).toBeLessThan(
      ungated.filter((g) => g.verdicts.structured?.pass === true).length,
    );
  });

  it.each([
    "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_retail_defautl_gpt-4.1_1trials.json",
    "sierra-tau2-bench__leaderboard-pr__claude-sonnet-4-5_aide-platform_2025-10-31/claude-sonnet-4-5_airline_default_gpt4.1_1trials.json",
    "sierra-tau2-bench__pr170-tau2-trace/e2e_retail_baseline.json",
  ])("flags nothing in the self-consistent %s", async (rel) => {
    const rows = await graded(rel);
    const statuses = rows.map((g) => g.verdicts.structured?.consistency.status);
    expect(statuses).not.toContain("foreign");
    expect(statuses.filter((s) => s === "consistent").length).toBeGreaterThan(rows.length * 0.9);
  });
});

describe("consistency check on small conversations", () => {
  const task = loadTaskFile(join(DATA_DIR, "domains/retail/tasks.json")).find((t) => t.id === "0");
  if (task === undefined) throw new Error("retail task 0 missing");
  const data = pool.get(retail).data;
  const check = (messages: Message[]) => checkConsistency({ data, task, messages });
  const lookup = (order: string): Message[] => [
    calls("assistant", call("c1", "get_order_details", { order_id: order })),
    result("c1", "{}"),
  ];

  it("is consistent when the conversation uses the task's own order", () => {
    expect(check(lookup("#W6247578")).status).toBe("consistent");
  });

  it("flags another user's order and says whose it is", () => {
    const c = check(lookup("#W4680753"));
    expect(c.status).toBe("foreign");
    expect(c.evidence).toEqual([
      expect.objectContaining({
        code: CONSISTENCY_CODE,
        messageIndex: 0,
        toolCallId: "c1",
        toolName: "get_order_details",
        message: expect.stringMatching(
          /#W4680753 .* belongs to user raj_santos_9079, not the task's user \(yusuf_rossi_9620\)/,
        ),
      }),
    ]);
  });

  it("flags a user id returned by find_user_id_by_* ", () => {
    const c = check([
      calls("assistant", call("c1", "find_user_id_by_email", { email: "x@example.com" })),
      result("c1", "raj_santos_9079"),
    ]);
    expect(c.status).toBe("foreign");
    expect(c.evidence[0]?.messageIndex).toBe(1);
  });

  it("does not flag a conversation that also reaches the task's user (a wrong lookup, then the right one)", () => {
    expect(check([...lookup("#W4680753"), ...lookup("#W6247578")]).status).toBe("consistent");
  });

  it("leaves ids the DB does not know, and talk without tools, unchecked", () => {
    expect(check(lookup("#W0000000")).status).toBe("unchecked");
    expect(check([say("user", "hi, I am raj_santos_9079")]).status).toBe("unchecked");
  });

  it("does not check domains without a users table", () => {
    const telecom = domainByName("telecom") as DomainDef;
    const t = loadTaskFile(join(DATA_DIR, "domains/telecom/tasks_small.json"))[0];
    if (t === undefined) throw new Error("no telecom task");
    expect(checkConsistency({ data: pool.get(telecom).data, task: t, messages: [] }).status).toBe(
      "unchecked",
    );
  });
});
