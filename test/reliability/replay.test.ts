/**
 * Replay under fuzz: pairing and replay either finish or abort as tau2 would (`ReplayAbort`), and a
 * ported tool never fails with a JS fault, whatever its arguments (wrong types, prototype keys).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { invoke } from "../../src/domains/toolkit.ts";
import type { Message } from "../../src/formats/model.ts";
import { ReplayAbort } from "../../src/replay/errors.ts";
import { pairToolCalls, replayMessages } from "../../src/replay/replay.ts";
import { CaseCounter, expectNoPrototypePollution, fuzzParams } from "./support/invariants.ts";
import { argumentsFor } from "./support/mutate.ts";
import {
  domainTasks,
  domainValues,
  message,
  pairedMessages,
  pool,
  realisticArguments,
  toPy,
} from "./support/typed.ts";

const counter = new CaseCounter("replay");
afterAll(() => counter.report());
const runs = (n: number) => fuzzParams(Math.round(n * Number(process.env.FUZZ_SCALE ?? 1)));

/** Runs `f`; a `ReplayAbort` is an accepted outcome, anything else is a crash. */
function abortOr<T>(f: () => T): T | ReplayAbort {
  try {
    return f();
  } catch (e) {
    if (e instanceof ReplayAbort) return e;
    counter.crashes++;
    throw e;
  }
}

describe("fuzz: replay", () => {
  it("pairToolCalls pairs every call with its own result, or aborts", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        counter.hit("pairToolCalls");
        const out = abortOr(() => pairToolCalls(messages));
        if (out instanceof ReplayAbort) {
          expect(out.message).not.toBe("");
          return;
        }
        const calls = messages.flatMap((m) =>
          m.role === "assistant" || m.role === "user" ? (m.tool_calls ?? []) : [],
        );
        expect(out.length).toBe(calls.length);
        for (const p of out) {
          expect(p.result.id).toBe(p.call.id);
          expect(messages[p.resultIndex]).toBe(p.result);
        }
      }),
      runs(2000),
    );
  });

  it("replayMessages finishes or aborts, and no tool hits a JS fault", () => {
    const all = domainTasks();
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.boolean(), pairedMessages, (d, t, solo, messages) => {
        counter.hit("replayMessages");
        const { domain, tasks } = all[d % all.length] as (typeof all)[number];
        const task = tasks[t % tasks.length];
        if (task === undefined) return;
        let setup: ReturnType<ReturnType<typeof pool.get>["taskArtifacts"]>["setup"];
        try {
          setup = pool.get(domain).taskArtifacts(task).setup;
        } catch {
          return; // a task whose own setup fails is graded as an error row elsewhere
        }
        const env = setup.fork(solo && domain.supportsSolo);
        const out = abortOr(() => replayMessages(env, messages as Message[], { strict: false }));
        if (!(out instanceof ReplayAbort)) expect(out.internalFaults).toEqual([]);
        expectNoPrototypePollution();
      }),
      runs(2000),
    );
  });

  it("every tool of every domain turns any argument into a result, never a JS fault", () => {
    const tools = domainTasks().flatMap(({ domain, tasks }) =>
      [domain.agentTools, ...(domain.userTools === undefined ? [] : [domain.userTools])].flatMap((kit) =>
        [...kit.tools.values()]
          .filter((tool) => tool.reproduced !== false) // declared only: running one is a port fault
          .map((tool) => ({ domain, task: tasks[0], kit, tool })),
      ),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: tools.length - 1 }).chain((i) => {
          const { domain, tool } = tools[i] as (typeof tools)[number];
          return fc.tuple(
            fc.constant(i),
            fc.oneof(
              argumentsFor(tool.name).map(toPy),
              realisticArguments(tool.params, domainValues(domain)),
            ),
          );
        }),
        ([i, args]) => {
          counter.hit("invoke");
          const { domain, task, kit, tool } = tools[i] as (typeof tools)[number];
          if (task === undefined) return;
          const env = pool.get(domain).taskArtifacts(task).setup.fork();
          const db = kit === domain.userTools ? env.user : env.agent;
          if (db === null) return;
          const out = invoke(kit.className, tool, db, args, env.toolEnv);
          if (out.internal) counter.crashes++;
          expect(out.internal ? `${tool.name}(${JSON.stringify(args)}): ${out.content}` : "").toBe("");
          expectNoPrototypePollution();
        },
      ),
      runs(3000),
    );
  });
});
