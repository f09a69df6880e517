/** Replay semantics of tau2's `set_state`, on the mock domain. */
import { describe, expect, it } from "vitest";
import { loadDomainData } from "../../src/domains/load-data.ts";
import { mockDomain } from "../../src/domains/mock/index.ts";
import { FIXED_QUIRKS, TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import type { PyDict } from "../../src/py/value.ts";
import { ReplayAbort } from "../../src/replay/errors.ts";
import { pairToolCalls, replayMessages } from "../../src/replay/replay.ts";
import { buildTaskSetup, deepMerge } from "../../src/replay/setup.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { call, calls, result, say } from "../helpers/messages.ts";

const data = loadDomainData(DATA_DIR, mockDomain);
const fresh = (solo = false) => buildTaskSetup(data, null, TAU2_QUIRKS, new Map()).fork(solo);
const created = '{"task_id": "task_2", "title": "T", "description": null, "status": "pending"}';

describe("pairing tool calls with tool messages", () => {
  it("raises tau2's errors for a stray, missing or mismatched tool message", () => {
    expect(() => pairToolCalls([result("x", "ok")])).toThrow(
      "Tool message not expected. Tool messages should always follow a tool call.",
    );
    expect(() => pairToolCalls([calls("assistant", call("a", "get_users", {}))])).toThrow(
      "Tool message expected. Got None.",
    );
    expect(() => pairToolCalls([calls("assistant", call("a", "get_users", {})), say("user", "hi")])).toThrow(
      "Tool message expected. Got <class 'tau2.data_model.message.UserMessage'>",
    );
    expect(() => pairToolCalls([calls("assistant", call("a", "get_users", {})), result("b", "[]")])).toThrow(
      "Tool call id mismatch. Got a and b",
    );
  });
  it("treats an empty tool_calls list as a tool-call message with zero calls", () => {
    expect(pairToolCalls([{ role: "assistant", content: "x", tool_calls: [], turn_idx: 0 }])).toEqual([]);
  });
});

describe("replaying a trajectory", () => {
  it("executes mutating calls, skips reads and unknown tools, and records lenient mismatches", () => {
    const env = fresh();
    const report = replayMessages(
      env,
      [
        calls("assistant", call("1", "get_users", {})),
        result("1", "this read is never re-executed"),
        calls("assistant", call("2", "delete_everything", {})),
        result("2", "Error: Tool 'delete_everything' not found.", true),
        calls("assistant", call("3", "create_task", { user_id: "user_1", title: "T" })),
        result("3", "recorded text that differs"),
      ],
      { strict: false },
    );
    expect(report.executed).toBe(1);
    expect(report.skippedUnknown).toEqual([{ callId: "2", name: "delete_everything" }]);
    expect(report.mismatches.map((m) => m.replayed)).toEqual([created]);
    expect((env.agent.get("tasks", "task_2") as PyDict).title).toBe("T");
  });

  it("compares outputs as parsed JSON with Python equality (key order and 1 == 1.0 do not matter)", () => {
    const env = fresh();
    const recorded = '{"status": "pending", "description": null, "title": "T", "task_id": "task_2"}';
    const report = replayMessages(
      env,
      [
        calls("assistant", call("3", "create_task", { user_id: "user_1", title: "T" })),
        result("3", recorded),
      ],
      { strict: true },
    );
    expect(report.mismatches).toEqual([]);
  });

  it("strict replay aborts on a mismatch, lenient replay does not", () => {
    const msgs = [
      calls("assistant", call("3", "create_task", { user_id: "user_1", title: "T" })),
      result("3", "other"),
    ];
    expect(() => replayMessages(fresh(), msgs, { strict: true })).toThrow(ReplayAbort);
    expect(() => replayMessages(fresh(), msgs, { strict: false })).not.toThrow();
  });

  it("runs a user tool recorded with the assistant requestor against the agent toolkit, which fails and changes nothing", () => {
    const env = fresh();
    const before = env.userHash();
    replayMessages(
      env,
      [
        calls("assistant", call("9", "dismiss_notification", { notification_id: "notif_1" })),
        result("9", "x"),
      ],
      { strict: false },
    );
    expect(env.userHash()).toBe(before);
    const ok = fresh();
    replayMessages(
      ok,
      [
        calls("user", call("9", "dismiss_notification", { notification_id: "notif_1" }, "user")),
        result("9", "x", false, "user"),
      ],
      { strict: false },
    );
    expect((ok.user!.get("notifications", "notif_1") as PyDict).status).toBe("read");
  });

  it("solo mode forbids user messages and routes user-tool names to the user toolkit", () => {
    expect(() => replayMessages(fresh(true), [say("user", "hi")], { strict: false })).toThrow(
      "User messages are not allowed in solo mode",
    );
    const env = fresh(true);
    replayMessages(
      env,
      [
        calls("assistant", call("9", "dismiss_notification", { notification_id: "notif_1" })),
        result("9", "x"),
      ],
      { strict: false },
    );
    expect((env.user!.get("notifications", "notif_1") as PyDict).status).toBe("read");
  });
});

describe("initialization data (quirk userDbAliasing)", () => {
  const initial = {
    initialization_data: {
      agent_data: { users: { user_1: { tasks: ["task_1", "task_2"] } } },
      user_data: null,
    },
    initialization_actions: null,
    message_history: null,
  };
  it("deep-merges objects and replaces lists", () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] } }, { a: { c: [3] } })).toEqual({ a: { b: 1, c: [3] } });
  });
  it("tau2 ≥1.0 points the user toolkit at the new agent DB: user tools then fail", () => {
    const env = buildTaskSetup(data, initial, TAU2_QUIRKS, new Map());
    expect(env.user).toBe(env.agent);
    expect(env.userHash()).toBe(env.agentHash());
    const out = env.fork().makeToolCall("dismiss_notification", "user", { notification_id: "notif_1" });
    expect(out.content).toBe("Error: 'MockDB' object has no attribute 'notifications'");
  });
  it("with the quirk off the user DB stays separate", () => {
    const env = buildTaskSetup(data, initial, FIXED_QUIRKS, new Map());
    expect(env.user).not.toBe(env.agent);
    expect(
      env.fork().makeToolCall("dismiss_notification", "user", { notification_id: "notif_1" }).error,
    ).toBe(false);
  });
});
