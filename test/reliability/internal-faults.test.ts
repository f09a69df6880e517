/**
 * A JS fault in the port is never passed off as a Python error: inside a tool it becomes a note on the
 * τ³ verdict (the replay goes on, as tau2's would after an exception), and one that escapes grading is
 * labelled as an internal fault in the row's reason.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DomainDef } from "../../src/domains/domain.ts";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { domainByName } from "../../src/domains/registry.ts";
import type { ToolDef } from "../../src/domains/toolkit.ts";
import type { Simulation } from "../../src/formats/model.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { gradeTau3 } from "../../src/graders/tau3/evaluate.ts";
import { ContextPool } from "../../src/pipeline/contexts.ts";
import { abortReason } from "../../src/pipeline/grade.ts";
import { ReplayAbort } from "../../src/replay/errors.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { call, calls, result, say } from "../helpers/messages.ts";

const retail = domainByName("retail") as DomainDef;
const tool = retail.agentTools.tools.get("cancel_pending_order") as ToolDef;
const originalRun = tool.run;

afterEach(() => {
  (tool as { run: ToolDef["run"] }).run = originalRun;
});

describe("internal faults", () => {
  it("a tool's JS fault is a note on the verdict, not a silent Python error", () => {
    (tool as { run: ToolDef["run"] }).run = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'status')");
    };
    const task = loadTaskFile(join(DATA_DIR, "domains/retail/tasks.json")).find(
      (t) => (t.evaluation_criteria?.actions?.length ?? 0) > 0,
    );
    if (task === undefined) throw new Error("no retail task with actions");
    const sim: Simulation = {
      id: "s",
      task_id: task.id,
      trial: 0,
      termination_reason: "user_stop",
      messages: [
        say("user", "cancel it"),
        calls(
          "assistant",
          call("c1", "cancel_pending_order", { order_id: "#W0000000", reason: "no longer needed" }),
        ),
        result("c1", "Error: Order not found", true),
      ],
      reward_info: null,
    };
    const ctx = new ContextPool(DATA_DIR, TAU2_QUIRKS).get(retail);
    const v = gradeTau3(ctx, task, sim, { solo: false, nl: null });
    expect(v.notes).toContainEqual(
      expect.stringMatching(
        /^internal fault in tool cancel_pending_order \(call c1, messages\[2\]\): Error: Cannot read/,
      ),
    );
    expect(v.env?.replay?.internalFaults).toHaveLength(1);
  });

  it("labels a JS fault escaping grading as internal, and a tau2-style abort as an abort", () => {
    expect(abortReason(new TypeError("x is not a function"))).toMatch(
      /^internal fault while grading .*TypeError: x is not a function/,
    );
    expect(abortReason(new RangeError("Maximum call stack size exceeded"))).toMatch(/^internal fault/);
    expect(abortReason(new ReplayAbort("Tool message expected. Got None."))).toBe(
      "grading aborted: Tool message expected. Got None.",
    );
    expect(abortReason(new Error("x".repeat(20_000))).length).toBeLessThanOrEqual(2000);
  });
});
