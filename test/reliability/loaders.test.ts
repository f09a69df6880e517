/**
 * Loaders under fuzz: any bytes end as a loaded file, a classified non-trajectory file, or a
 * `FormatError` with a reason (never another exception); a problem inside one simulation (10 MB
 * strings, 100k-level nesting, prototype keys, wrong types) rejects that simulation, not the file.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { loadJsonFile } from "../../src/formats/load.ts";
import { caseText, checkDocument, writeCase } from "./support/grade-file.ts";
import { CaseCounter, expectNoPrototypePollution, fuzzParams } from "./support/invariants.ts";
import { messagesOf, protoObject, weirdValue } from "./support/mutate.ts";
import { clone, documentOf, type Json, type JsonRecord, seedFiles } from "./support/seeds.ts";

const counter = new CaseCounter("loaders");
afterAll(() => counter.report());
const runs = (n: number) => fuzzParams(Math.max(1, Math.round(n * Number(process.env.FUZZ_SCALE ?? 1))));
const seeds = seedFiles();
const tau2Seeds = seeds.filter((s) => s.listKey === "simulations");

/** Loads `content`; only a `FormatError` with a reason may come out. */
function loadOrFormatError(content: string | Uint8Array): ReturnType<typeof loadJsonFile> | FormatError {
  try {
    return loadJsonFile(writeCase(content));
  } catch (e) {
    if (e instanceof FormatError) {
      expect(e.reason.trim()).not.toBe("");
      return e;
    }
    counter.crashes++;
    throw e;
  } finally {
    expectNoPrototypePollution();
  }
}

const DEEP = 100_000;
const deepArray = "[".repeat(DEEP) + "]".repeat(DEEP);
const deepObject = '{"a":'.repeat(DEEP) + "1" + "}".repeat(DEEP);
const TEN_MB = "x".repeat(10 * 1024 * 1024);

describe("fuzz: loaders", () => {
  it("any JSON document loads, is classified, or fails with a FormatError", () => {
    const shaped = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record(
        { simulations: fc.array(weirdValue, { maxLength: 3 }), info: weirdValue, tasks: weirdValue },
        { requiredKeys: [] },
      ),
      fc.array(
        fc.record({ messages: weirdValue, task_id: weirdValue, traj: weirdValue }, { requiredKeys: [] }),
        { maxLength: 3 },
      ),
      fc.constant(null).map(() => ({ ...protoObject(), simulations: [] })),
    );
    fc.assert(
      fc.property(shaped, (doc) => {
        counter.hit("random documents");
        const out = loadOrFormatError(JSON.stringify(doc) ?? "null");
        if (out instanceof FormatError || out.variant === "not-trajectories") return;
        const list = Array.isArray(doc)
          ? doc
          : (((doc as JsonRecord).simulations as Json[] | undefined) ?? []);
        expect(out.simulations.length + out.rejected.length).toBe(list.length);
      }),
      runs(1500),
    );
  });

  it("damaged bytes (truncated, bit flips, invalid UTF-8) never escape as anything but a FormatError", () => {
    const texts = tau2Seeds.map((s) => Buffer.from(caseText(documentOf(s, s.simulations.slice(0, 1)))));
    const damage = fc.record({
      seed: fc.nat({ max: texts.length - 1 }),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      kind: fc.constantFrom("truncate", "flip", "latin1", "utf16"),
      byte: fc.integer({ min: 0, max: 255 }),
    });
    fc.assert(
      fc.property(damage, ({ seed, cut, kind, byte }) => {
        counter.hit(`damaged bytes: ${kind}`);
        const original = texts[seed] as Buffer;
        const at = Math.floor(cut * original.length);
        let bytes: Uint8Array;
        if (kind === "truncate") bytes = original.subarray(0, at);
        else if (kind === "flip") {
          bytes = Buffer.from(original);
          bytes[at] = byte;
        } else if (kind === "latin1")
          bytes = Buffer.concat([original.subarray(0, at), Buffer.from([0xe9]), original.subarray(at)]);
        else bytes = Buffer.from(`\ufeff${original.toString("utf8")}`, "utf16le");
        const out = loadOrFormatError(bytes);
        if (kind === "latin1" || kind === "utf16") {
          expect(out).toBeInstanceOf(FormatError);
          expect((out as FormatError).reason).toMatch(/UTF-8/);
        }
        if (kind === "truncate" && at < original.length - 1 && at > 0)
          expect(out).toBeInstanceOf(FormatError);
      }),
      runs(1500),
    );
  });

  it("an empty file and whitespace are a FormatError that says so", () => {
    for (const text of ["", "  \n\t "]) {
      counter.hit("empty files");
      const out = loadOrFormatError(text);
      expect(out).toBeInstanceOf(FormatError);
      expect((out as FormatError).reason).toMatch(/empty file/);
    }
  });

  it("100k-level nesting and 10 MB strings inside one simulation reject or grade that simulation only", async () => {
    // Few, big cases: every (place, kind) pair once, each on another seed file.
    const places = ["content", "arguments", "reward_info", "task_id", "tool_result", "argument_value"];
    const kinds = ["deep-array", "deep-object", "10MB"];
    const cases = places.flatMap((where, i) =>
      kinds.map((what, j) => ({ seed: (i * kinds.length + j) % tau2Seeds.length, where, what })),
    );
    const big = fc.constantFrom(...cases);
    await fc.assert(
      fc.asyncProperty(big, async ({ seed: s, where, what }) => {
        const seed = tau2Seeds[s] as (typeof tau2Seeds)[number];
        const sims = seed.simulations.slice(0, 2).map((x) => clone(x));
        const sim = sims[0] as JsonRecord;
        const messages = messagesOf(sim) ?? [];
        const placeholder = "@@BIG@@";
        const withCall = messages.find(
          (m): m is JsonRecord =>
            typeof m === "object" &&
            m !== null &&
            !Array.isArray(m) &&
            Array.isArray(m.tool_calls) &&
            m.tool_calls.length > 0,
        );
        const call = (withCall?.tool_calls as JsonRecord[] | undefined)?.[0];
        const tool = messages.find(
          (m): m is JsonRecord =>
            typeof m === "object" && m !== null && !Array.isArray(m) && m.role === "tool",
        );
        const value: Json = what === "10MB" ? TEN_MB : placeholder;
        if (where === "content") (messages[0] as JsonRecord).content = value;
        else if (where === "arguments" && call) call.arguments = value;
        else if (where === "argument_value" && call) call.arguments = { user_id: value, order_id: value };
        else if (where === "tool_result" && tool) tool.content = value;
        else if (where === "task_id") sim.task_id = value;
        else sim.reward_info = { reward: 1, info: value };
        const raw = what === "deep-array" ? deepArray : deepObject;
        const text = caseText(documentOf(seed, sims), new Map([[placeholder, raw]]));
        await checkDocument(counter, text, sims.length, `big inputs: ${what}`);
      }),
      { ...fuzzParams(cases.length), examples: cases.map((c) => [c]) },
    );
  });
});
