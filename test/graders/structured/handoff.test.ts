import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTaskFile } from "../../../src/formats/tasks.ts";
import {
  buildLabelFile,
  didTransfer,
  labelTask,
  loadOverrides,
} from "../../../src/graders/structured/handoff.ts";
import { cliInProcess } from "../../helpers/cli-in-process.ts";
import { DATA_DIR } from "../../helpers/data.ts";
import { call, calls, result, say } from "../../helpers/messages.ts";

const file = join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json");
const tasks = loadTaskFile(file);
const write = (body: unknown) => {
  const p = join(mkdtempSync(join(tmpdir(), "handoff-")), "o.json");
  writeFileSync(p, JSON.stringify(body));
  return p;
};

describe("hand-off labels", () => {
  it("labels 1 by gold_transfer_action exactly when the gold actions transfer, else 0 by no_transfer", () => {
    for (const t of tasks) {
      const transfers = (t.evaluation_criteria?.actions ?? []).some(
        (a) => a.name === "transfer_to_human_agents",
      );
      expect(labelTask(t, "airline", null)).toEqual({
        task_id: t.id,
        should_transfer: transfers ? 1 : 0,
        rule: transfers ? "gold_transfer_action" : "no_transfer",
        reason: null,
      });
    }
  });
  it("applies a reviewed override and rejects one without a reason", () => {
    const ok = loadOverrides(
      write({ domains: { airline: { "6": { should_transfer: 1, reason: "policy allows it here" } } } }),
    );
    expect(labelTask(tasks.find((t) => t.id === "6")!, "airline", ok)).toMatchObject({
      should_transfer: 1,
      rule: "override",
    });
    expect(() => loadOverrides(write({ domains: { airline: { "6": { should_transfer: 1 } } } }))).toThrow(
      /reason/,
    );
    expect(() =>
      loadOverrides(write({ domains: { airline: { "6": { should_transfer: 1, reason: " " } } } })),
    ).toThrow(/needs a reason/);
  });
  it("counts a transfer call as a transfer whatever it returned, and only the agent's", () => {
    expect(
      didTransfer([
        calls("assistant", call("1", "transfer_to_human_agents", { summary: "x" })),
        result("1", "Error: nope", true),
      ]),
    ).toBe(true);
    expect(
      didTransfer([say("assistant", "I will transfer you"), say("user", "transfer_to_human_agents")]),
    ).toBe(false);
  });
  it("records the task file's sha256 in the label file, also through the CLI", async () => {
    const sha = createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(buildLabelFile("airline", "v0.2.0_f8de30c", file, tasks, null).task_file_sha256).toBe(sha);
    const r = await cliInProcess([
      "labels",
      "--data-dir",
      DATA_DIR,
      "--domain",
      "airline",
      "--task-version",
      "v0.2.0_f8de30c",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.task_file_sha256).toBe(sha);
    expect(out.labels).toHaveLength(50);
  });
});
