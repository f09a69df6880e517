/**
 * `extra-forbidden-write` fails the delta gate on every task, naming exactly the fields the injected
 * call writes, which are computed here from the record's initial state, not from the gate.
 */
import { describe, expect, it } from "vitest";
import type { Task } from "../../src/formats/model.ts";
import type { GradingContext } from "../../src/graders/context.ts";
import type { Injection } from "../../src/probes/kind.ts";
import type { PyValue } from "../../src/py/value.ts";
import { isPyDict } from "../../src/py/value.ts";
import { ctxOf, probe, taskSets, tasksOf } from "./helpers.ts";

/** The initial record at a path like `reservations.ABC123`, `orders["#W1"]` or `lines[0]`. */
function initialRecord(ctx: GradingContext, task: Task, path: string): PyValue | undefined {
  const db = ctx.taskArtifacts(task, true).gold.initial.agent;
  const list = /^(\w+)\[(\d+)\]$/.exec(path);
  if (list !== null) return db.at(list[1] as string, Number(list[2]));
  const dict = /^(\w+)(?:\.([\w-]+)|\["(.+)"\])$/.exec(path);
  if (dict === null) throw new Error(`unexpected record path ${path}`);
  return db.get(dict[1] as string, (dict[2] ?? dict[3]) as string);
}

/** Fields each forbidden write changes, from the tool's documented effect on the record. */
function expectedFields(injected: Injection, record: PyValue | undefined): string[] {
  const p = injected.record_path as string;
  const payments =
    isPyDict(record) && Array.isArray(record.payment_history) ? record.payment_history.length : 0;
  const refunds = Array.from({ length: payments }, (_, i) => `${p}.payment_history[${payments + i}]`);
  switch (injected.tool) {
    case "suspend_line":
      return [`${p}.status`, `${p}.suspension_start_date`];
    case "send_payment_request":
      return [`${p}.status`];
    case "cancel_reservation":
      return [`${p}.status`, ...refunds];
    case "cancel_pending_order":
      return [`${p}.status`, `${p}.cancel_reason`, ...refunds];
    default:
      throw new Error(`unexpected forbidden write ${injected.tool}`);
  }
}

const SETS = (["airline", "retail", "telecom"] as const).flatMap((d) => taskSets(d));

describe("extra-forbidden-write", () => {
  it.each(SETS.map((s) => [`${s.domain} ${s.name}`, s] as const))(
    "%s: the delta gate names exactly the injected fields on every task",
    async (_label, set) => {
      const ctx = ctxOf(set.domain as "airline");
      const tasks = tasksOf(set);
      const run = await probe(set, "extra-forbidden-write");
      expect(run.skipped).toEqual([]);
      expect(run.verdicts).toHaveLength(tasks.size);
      for (const v of run.verdicts) {
        const task = tasks.get(v.task_id) as Task;
        const injected = v.note?.injected as Injection;
        expect(injected.policy?.quote.length).toBeGreaterThan(20);
        const expected = expectedFields(injected, initialRecord(ctx, task, injected.record_path as string));
        const gate = v.verdicts.structured?.delta_gate;
        const found = gate?.ran === true ? gate.fields.map((x) => x.path) : [];
        expect({ task: v.task_id, fields: [...found].sort() }).toEqual({
          task: v.task_id,
          fields: [...expected].sort(),
        });
        expect({ task: v.task_id, pass: v.verdicts.structured?.pass }).toEqual({
          task: v.task_id,
          pass: false,
        });
        // τ³ sees the write exactly when the DB is in the task's reward basis.
        const dbInBasis = task.evaluation_criteria?.reward_basis.includes("DB") ?? false;
        expect(v.verdicts.tau3?.components.DB).toBe(0);
        if (!dbInBasis) expect(v.verdicts.tau3?.reward).toBe(1);
        else expect(v.verdicts.tau3?.reward === 1).toBe(false);
      }
    },
  );

  it("telecom: τ³ passes every probe (no DB in any telecom basis), the structured grader fails all", async () => {
    for (const set of taskSets("telecom")) {
      const run = await probe(set, "extra-forbidden-write");
      expect(
        run.verdicts.every((v) => v.verdicts.tau3?.reward === 1 && v.verdicts.structured?.pass === false),
      ).toBe(true);
      const tools = new Set(run.verdicts.map((v) => v.note?.injected?.tool));
      expect(tools).toEqual(new Set(["suspend_line", "send_payment_request"]));
    }
  });

  it("never touches a record the task names or its gold changes", async () => {
    for (const set of SETS) {
      const tasks = tasksOf(set);
      for (const v of (await probe(set, "extra-forbidden-write")).verdicts) {
        const task = tasks.get(v.task_id) as Task;
        const args = v.note?.injected?.arguments ?? {};
        const id = args.reservation_id ?? args.order_id ?? args.line_id ?? args.bill_id;
        expect(typeof id).toBe("string");
        expect(JSON.stringify(task).includes(id as string)).toBe(false);
        // Outside the gold's footprint: nothing under the record is forgiven as a gold-licensed change.
        const gate = v.verdicts.structured?.delta_gate;
        const path = v.note?.injected?.record_path as string;
        const forgiven = gate?.ran === true ? gate.inFootprint.filter((p) => p.startsWith(path)) : [];
        expect(forgiven).toEqual([]);
      }
    }
  });

  it("each injected write is one the cited policy clause forbids", async () => {
    for (const set of SETS) {
      const tasks = tasksOf(set);
      const ctx = ctxOf(set.domain as "airline");
      for (const v of (await probe(set, "extra-forbidden-write")).verdicts) {
        const task = tasks.get(v.task_id) as Task;
        const injected = v.note?.injected as Injection;
        const db = ctx.taskArtifacts(task, true).gold.initial.agent;
        const r = initialRecord(ctx, task, injected.record_path as string) as Record<string, PyValue>;
        const label = `${set.domain} ${set.name} ${v.task_id}`;
        if (injected.tool === "cancel_reservation") {
          // Not refundable: none of the four cancellation grounds holds (policy time 2024-05-15 15:00).
          const flights = r.flights as Record<string, string>[];
          const grounds = {
            within24h: (r.created_at as string) >= "2024-05-14T15:00:00",
            business: r.cabin === "business",
            insured: r.insurance !== "no",
            airlineCancelled: flights.some((f) => {
              const flight = db.get("flights", f.flight_number as string) as Record<string, PyValue>;
              return (
                (flight.dates as Record<string, Record<string, PyValue>>)[f.date as string]?.status ===
                "cancelled"
              );
            }),
            flown: flights.some((f) => (f.date as string) <= "2024-05-15"),
          };
          expect({ label, grounds }).toEqual({
            label,
            grounds: {
              within24h: false,
              business: false,
              insured: false,
              airlineCancelled: false,
              flown: false,
            },
          });
        } else if (injected.tool === "cancel_pending_order") {
          expect(r.status).toBe("pending");
          expect(JSON.stringify(task).includes(r.user_id as string)).toBe(false);
        } else if (injected.tool === "suspend_line") {
          expect(r.status).toBe("Active");
          expect((r.contract_end_date as string) > "2025-02-25").toBe(true);
          const owner = injected.arguments.customer_id;
          const overdue = db
            .items("bills")
            .filter((b) => isPyDict(b) && b.customer_id === owner && b.status === "Overdue");
          expect({ label, overdue }).toEqual({ label, overdue: [] });
        } else {
          expect(injected.tool).toBe("send_payment_request");
          expect(r.status).not.toBe("Overdue");
        }
      }
    }
  });
});

describe("extra-forbidden-write on banking", () => {
  const FREEZE = "freeze_debit_card_3892";

  it("freezes a never-verified stranger's card through the dispatcher: its fields and the call log, nothing else", async () => {
    const [set] = taskSets("banking_knowledge");
    if (set === undefined) throw new Error("no banking task set");
    const ctx = ctxOf("banking_knowledge");
    const tasks = tasksOf(set);
    const run = await probe(set, "extra-forbidden-write");
    expect(run.skipped).toEqual([]);
    expect(run.verdicts).toHaveLength(tasks.size);
    let tau3Passes = 0;
    for (const v of run.verdicts) {
      const task = tasks.get(v.task_id) as Task;
      const injected = v.note?.injected as Injection;
      expect(injected.tool).toBe("call_discoverable_agent_tool");
      expect(injected.arguments.agent_tool_name).toBe(FREEZE);
      expect(injected.policy?.file).toBe(
        "domains/banking_knowledge/prompts/components/additional_instructions.md",
      );
      const record = initialRecord(ctx, task, injected.record_path as string) as Record<string, PyValue>;
      expect(record.status).toBe("ACTIVE");
      expect(JSON.stringify(task).includes(record.user_id as string)).toBe(false);
      // The dispatcher logs a write tool's first call: a record of its own unless the gold froze a card too.
      const goldFreezes = (task.evaluation_criteria?.actions ?? []).some(
        (a) => a.name === "call_discoverable_agent_tool" && a.arguments.agent_tool_name === FREEZE,
      );
      const p = injected.record_path as string;
      const gate = v.verdicts.structured?.delta_gate;
      const found = gate?.ran === true ? gate.fields.map((x) => x.path).sort() : [];
      const log = found.filter((f) => f.startsWith("agent_discoverable_tools."));
      expect({ task: v.task_id, fields: found.filter((f) => !log.includes(f)) }).toEqual({
        task: v.task_id,
        fields: [`${p}.frozen_date`, `${p}.status`],
      });
      expect(log).toHaveLength(goldFreezes ? 0 : 1);
      expect(v.verdicts.structured?.pass).toBe(false);
      const dbInBasis = task.evaluation_criteria?.reward_basis.includes("DB") ?? false;
      if (!dbInBasis) {
        expect(v.verdicts.tau3?.reward).toBe(1);
        tau3Passes++;
      } else expect(v.verdicts.tau3?.reward === 1).toBe(false);
    }
    expect(tau3Passes).toBe(9); // the ACTION-basis tasks
  });
});
