/** The grader registry and the grading spec: validation before anything runs, and what a spec hash covers. */

import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUILTIN_CORRECTIONS_DIR } from "../../src/graders/corrections/folder.ts";
import { defineGrader } from "../../src/graders/grader.ts";
import { loadGrading } from "../../src/graders/load.ts";
import {
  type AnyGrader,
  GRADER_IDS,
  GraderRegistrationError,
  graderOf,
  isGraderId,
  registerGrader,
} from "../../src/graders/registry.ts";
import {
  buildGradingSpec,
  type GradingChoice,
  GradingSpecError,
  specHashes,
} from "../../src/graders/spec.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { NO_EXTRA_GATES } from "../../src/graders/structured/gates.ts";

const choice = (over: Partial<GradingChoice> = {}): GradingChoice => ({
  graders: ["tau3", "structured", "tau3_corrected"],
  quirks: { preset: "tau2", overrides: [] },
  judge: { mode: "recorded" },
  fallbackTaskVersion: "head",
  requirementsDir: BUILTIN_REQUIREMENTS_DIR,
  policiesDir: BUILTIN_POLICIES_DIR,
  correctionsDir: BUILTIN_CORRECTIONS_DIR,
  handoffOverrides: null,
  gate: NO_EXTRA_GATES,
  ...over,
});

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(GradingSpecError);
    return (e as Error).message;
  }
  throw new Error("no error thrown");
};

describe("the registry", () => {
  it("lists every grader after the graders it reads", () => {
    GRADER_IDS.forEach((id, i) => {
      const g = graderOf(id);
      expect(g.id).toBe(id);
      expect(g.version).not.toBe("");
      for (const r of g.reads) expect(GRADER_IDS.indexOf(r), `${id} reads ${r}`).toBeLessThan(i);
      for (const r of g.requires) expect(g.reads).toContain(r);
    });
  });
});

describe("buildGradingSpec", () => {
  it("accepts the default choices and selects graders in registry order", () => {
    const spec = buildGradingSpec(choice());
    // The strict delta gate comes with the structured grader.
    expect(Object.keys(spec.graders)).toEqual(["tau3", "tau3_corrected", "structured", "structured_strict"]);
    expect((spec.graders.structured as { requirements: { sha256: string } }).requirements.sha256).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it.each([
    [
      { gate: { ...choice().gate, policy_rules: ["no_such_rule"] } },
      /unknown policy rule "no_such_rule" \(write_without_confirmation, /,
    ],
    [{ quirks: { preset: "tau2", overrides: ["noSuchQuirk=on"] } }, /bad quirk override "noSuchQuirk=on"/],
    [{ quirks: { preset: "tau3", overrides: [] } }, /quirks\.preset/],
    [{ judge: { mode: "http" } }, /judge mode http needs a base URL/],
    [
      { judge: { mode: "http", base_url: "ftp://judge" } },
      /judge base URL "ftp:\/\/judge" is not an http\(s\) URL/,
    ],
    [{ judge: { mode: "http", base_url: "localhost:8080" } }, /is not an http\(s\) URL/],
    [{ judge: { mode: "oracle" } }, /judge/],
    [{ graders: ["structured"] }, /grader structured builds on tau3/],
    [
      { graders: ["tau3", "tau4"] },
      /unknown grader tau4 \(tau3, tau3_corrected, structured, structured_strict, structured_informed\)/,
    ],
    [
      { graders: ["tau3", "structured"], gate: { ...choice().gate, nl_curated: true } },
      /curated NL list needs the corrections overlay/,
    ],
    [{ requirementsDir: "/nonexistent/requirements" }, /\/nonexistent\/requirements: folder not found/],
    [
      { handoffOverrides: "/nonexistent/overrides.json" },
      /\/nonexistent\/overrides\.json: cannot read: ENOENT/,
    ],
  ] as const)("rejects %j in one line", (over, pattern) => {
    const m = message(() => buildGradingSpec(choice(over as Partial<GradingChoice>)));
    expect(m).toMatch(pattern);
    expect(m).not.toContain("\n    at ");
  });

  it("reports a broken overlay when loading, as a spec error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-spec-"));
    writeFileSync(join(dir, "airline.json"), "{ not json");
    const spec = buildGradingSpec(choice({ correctionsDir: dir }));
    const failure = loadGrading(spec, { judgeApiKey: null });
    await expect(failure).rejects.toBeInstanceOf(GradingSpecError);
    await expect(failure).rejects.toThrow(/^grader tau3_corrected: .*airline\.json/);
  });
});

describe("loadGrading across runs", () => {
  it("reuses the options of an equal config and reloads when a fixture's content changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-spec-"));
    cpSync(BUILTIN_REQUIREMENTS_DIR, dir, { recursive: true });
    const first = await loadGrading(buildGradingSpec(choice({ requirementsDir: dir })), {
      judgeApiKey: null,
    });
    const again = await loadGrading(buildGradingSpec(choice({ requirementsDir: dir })), {
      judgeApiKey: null,
    });
    expect(again.graders.structured).toBe(first.graders.structured);
    writeFileSync(join(dir, "zz-added.json"), JSON.stringify({ not: "a fixture" }));
    // The folder's hash changed, so its new content is read, never the kept options.
    const changed = await loadGrading(buildGradingSpec(choice({ requirementsDir: dir })), {
      judgeApiKey: null,
    });
    expect(changed.graders.structured).not.toBe(first.graders.structured);
    expect(changed.graders.structured?.requirements?.problems.map((p) => p.path).join()).toContain(
      "zz-added.json",
    );
    expect(first.graders.structured?.requirements?.problems).toEqual([]);
  });
});

describe("spec hashes", () => {
  const hashes = (c: GradingChoice) => specHashes(buildGradingSpec(c));
  const base = hashes(choice());

  it("are stable, one per selected grader", () => {
    expect(hashes(choice())).toEqual(base);
    expect(Object.keys(base)).toEqual(["tau3", "tau3_corrected", "structured", "structured_strict"]);
    expect(new Set(Object.values(base)).size).toBe(4);
  });

  it("follow the content of the fixtures, not their folder", () => {
    const moved = join(mkdtempSync(join(tmpdir(), "tr-spec-")), "reqs");
    cpSync(BUILTIN_REQUIREMENTS_DIR, moved, { recursive: true });
    expect(hashes(choice({ requirementsDir: moved }))).toEqual(base);
    writeFileSync(
      join(moved, "airline", "head", "47.json"),
      `${JSON.stringify({ domain: "airline", task_version: "head", task_id: "47x", user_preflight_requirements: { action_preconditions: [] } })}\n`,
    );
    const edited = hashes(choice({ requirementsDir: moved }));
    expect(edited.structured).not.toBe(base.structured);
    expect(edited.tau3).toBe(base.tau3);
    expect(edited.tau3_corrected).toBe(base.tau3_corrected);
  });

  it("change with the gates (structured only), the judge and the quirks (every grader)", () => {
    const gated = hashes(choice({ gate: { ...choice().gate, policy_rules: ["action_after_transfer"] } }));
    expect(gated.structured).not.toBe(base.structured);
    expect(gated.tau3).toBe(base.tau3);
    const judged = hashes(choice({ judge: { mode: "http", base_url: "http://127.0.0.1:9/v1", model: "m" } }));
    const otherModel = hashes(
      choice({ judge: { mode: "http", base_url: "http://127.0.0.1:9/v1", model: "n" } }),
    );
    const fixed = hashes(choice({ quirks: { preset: "fixed", overrides: [] } }));
    for (const h of [judged, otherModel, fixed])
      for (const id of ["tau3", "tau3_corrected", "structured", "structured_strict"] as const)
        expect(h[id]).not.toBe(base[id]);
    expect(otherModel.tau3).not.toBe(judged.tau3);
  });

  it("of a grader cover the graders it reads", () => {
    // Without the overlay the structured grader sees no curated NL list: its verdicts may differ.
    const without = hashes(choice({ graders: ["tau3", "structured"] }));
    expect(without.tau3).toBe(base.tau3);
    expect(without.structured).not.toBe(base.structured);
  });

  it("never include the judge's API key", async () => {
    const spec = buildGradingSpec(choice({ judge: { mode: "http", base_url: "http://127.0.0.1:9/v1" } }));
    const loaded = await loadGrading(spec, { judgeApiKey: "sk-secret-123" });
    expect(JSON.stringify(loaded.spec)).not.toContain("sk-secret");
    expect(loaded.hashes).toEqual(specHashes(spec));
  });
});

// Registered last in this file: the messages above list the built-in graders only.
describe("a registered grader", () => {
  const grader = (over: Record<string, unknown> = {}) =>
    defineGrader({
      id: "threshold",
      version: "threshold/1",
      label: "threshold",
      description: "passes when τ³'s reward reaches a threshold",
      config: z.strictObject({ min: z.number().min(0).max(1).default(1) }),
      requires: ["tau3"],
      reads: ["tau3"],
      load: (c: { min: number }) => c.min,
      grade: (_input, min: number, prior: { readonly tau3: { reward: number | null } }) => ({
        pass: (prior.tau3.reward ?? 0) >= min,
      }),
      record: (v: { pass: boolean }) => ({
        pass: v.pass,
        reward: v.pass ? 1 : 0,
        dbMatch: null,
        notes: [],
        judgeFailure: null,
        components: [],
        causes: [],
      }),
      json: (v: { pass: boolean }) => v,
      ...over,
    } as Parameters<typeof defineGrader>[0]);
  const registration = (g: unknown): string => {
    try {
      registerGrader(g as AnyGrader);
    } catch (e) {
      expect(e).toBeInstanceOf(GraderRegistrationError);
      return (e as Error).message;
    }
    throw new Error("registered");
  };

  it.each([
    [{ id: "Threshold" }, /"Threshold": an id is lowercase letters/],
    [{ id: "tau3" }, /"tau3": this id is taken/],
    [{ id: "recorded" }, /"recorded": this id is taken/],
    [{ version: "" }, /version must be a non-empty string/],
    [{ grade: undefined }, /grade must be a function/],
    [{ config: {} }, /config must be a zod schema/],
    [
      { reads: ["tau3", "later"], requires: ["tau3"] },
      /it reads later, which is not a grader registered before it/,
    ],
    [{ reads: [] }, /it requires tau3: list it in reads too/],
    [{ reads: undefined }, /requires and reads must be lists of grader ids/],
  ])("is refused when %j", (over, pattern) => {
    expect(registration(grader(over))).toMatch(pattern);
    expect(isGraderId("threshold")).toBe(false);
  });

  it("is refused when the module exports no grader", () => {
    expect(registration(undefined)).toMatch(/not a grader value/);
  });

  it("runs after the built-in graders, configured through grader_config", async () => {
    const g = grader();
    registerGrader(g);
    registerGrader(g); // the same module imported twice
    expect(GRADER_IDS).toEqual([
      "tau3",
      "tau3_corrected",
      "structured",
      "structured_strict",
      "structured_informed",
      "threshold",
    ]);
    expect(registration(grader())).toMatch(/"threshold": this id is taken/);
    const spec = buildGradingSpec(choice({ graders: ["tau3", "threshold"] }));
    expect(spec.graders).toEqual({ tau3: {}, threshold: { min: 1 } });
    const half = buildGradingSpec(
      choice({ graders: ["tau3", "threshold"], graderConfig: { threshold: { min: 0.5 } } }),
    );
    expect(half.graders.threshold).toEqual({ min: 0.5 });
    // Its spec hash covers its configuration; τ³'s does not depend on it.
    expect(specHashes(half).threshold).not.toBe(specHashes(spec).threshold);
    expect(specHashes(half).tau3).toBe(specHashes(spec).tau3);
    expect((await loadGrading(half, { judgeApiKey: null })).graders.threshold).toBe(0.5);
  });

  it.each([
    [
      { graders: ["tau3", "threshold"], graderConfig: { threshold: { min: 2 } } },
      /^at grader_config\.threshold\.min: /,
    ],
    [
      { graders: ["tau3", "threshold"], graderConfig: { threshold: { max: 1 } } },
      /^at grader_config\.threshold: /,
    ],
    [
      { graders: ["tau3"], graderConfig: { threshold: {} } },
      /^at grader_config\.threshold: grader threshold is not selected/,
    ],
    [
      { graders: ["tau3", "structured", "threshold"], graderConfig: { structured: {} } },
      /^at grader_config\.structured: this grader takes its settings from the experiment's own keys/,
    ],
    [{ graders: ["tau3", "threshold"], graderConfig: { tau3: { x: 1 } } }, /^at grader_config\.tau3: /],
    [{ graders: ["threshold"] }, /grader threshold builds on tau3/],
  ] as const)("rejects %j in one line", (over, pattern) => {
    const m = message(() => buildGradingSpec(choice(over as Partial<GradingChoice>)));
    expect(m).toMatch(pattern);
    expect(m).not.toContain("\n");
  });

  it("is never left out of a spec where it is not registered (a grading thread without its module)", async () => {
    const spec = buildGradingSpec(choice({ graders: ["tau3"] }));
    const foreign = { ...spec, graders: { ...spec.graders, elsewhere: {} } };
    await expect(loadGrading(foreign, { judgeApiKey: null })).rejects.toThrow(/^unknown grader elsewhere \(/);
  });
});
