/**
 * A project's own requirements, policies and corrections over the tool's curated sets: each file of the
 * project hides the curated file of the same relative path, the rest of the curated set still applies, the
 * spec hash follows the files read, and the sources are named with what each layer gave.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCorrectionsDir } from "../../src/graders/corrections/builtin.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../../src/graders/corrections/folder.ts";
import { contentIdentity, folderRef } from "../../src/graders/fingerprint.ts";
import { describeSource, runSources } from "../../src/graders/sources.ts";
import { buildGradingSpec, type GradingChoice } from "../../src/graders/spec.ts";
import { loadClauses } from "../../src/graders/structured/clauses/load.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { NO_EXTRA_GATES } from "../../src/graders/structured/gates.ts";
import { requirementsRef } from "../../src/graders/structured/grader.ts";
import { loadRequirements } from "../../src/graders/structured/requirements/load.ts";
import { layerOver } from "../../src/util/layers.ts";
import { TOOL_VERSION } from "../../src/util/package.ts";

const CURATED_35 = "airline/v0.2.0_f8de30c/35.json";

/** A project folder with `<kind>/<rel>` files. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-project-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const ownFixture35 = () => {
  const curated = JSON.parse(readFileSync(join(BUILTIN_REQUIREMENTS_DIR, CURATED_35), "utf8"));
  curated.user_preflight_requirements.action_preconditions[0].id = "airline.35.project_rule";
  return `${JSON.stringify(curated, null, 2)}\n`;
};

describe("requirements over the curated set", () => {
  it("take the project's fixture where it has the same relative path, and every other curated one", () => {
    const dir = project({ [`requirements/${CURATED_35}`]: ownFixture35() });
    const curated = loadRequirements(BUILTIN_REQUIREMENTS_DIR);
    const layered = loadRequirements(layerOver(join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR));
    expect(layered.problems).toEqual([]);
    expect(layered.fixtures).toHaveLength(curated.fixtures.length);
    const f = layered.find("airline", "v0.2.0_f8de30c", "35");
    expect(f?.fixture.user_preflight_requirements.action_preconditions.map((r) => r.id)).toEqual([
      "airline.35.project_rule",
    ]);
    expect(f?.path).toBe(join(dir, "requirements", CURATED_35));
    expect(layered.find("airline", "head", "2")?.path).toBe(curated.find("airline", "head", "2")?.path);
    expect(layered.vocabulary("airline")).toEqual(curated.vocabulary("airline"));
  });

  it("hash as a folder holding the files read would, and name the layers in the spec", () => {
    const dir = project({ [`requirements/${CURATED_35}`]: ownFixture35() });
    const merged = project({});
    const layers = layerOver(join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR);
    const ref = requirementsRef(layers);
    expect(ref.path).toBe(join(dir, "requirements"));
    expect(ref.over).toEqual([BUILTIN_REQUIREMENTS_DIR]);
    // The same files in one folder: the same content, the same hash (only content enters a spec hash).
    const copy = join(merged, "requirements");
    const include = (n: string) => n.endsWith(".json") && (!n.startsWith("_") || n === "_facts.json");
    const walk = (from: string, to: string) => {
      for (const f of folderFiles(from, include)) {
        mkdirSync(join(to, f, ".."), { recursive: true });
        writeFileSync(join(to, f), readFileSync(join(from, f)));
      }
    };
    walk(BUILTIN_REQUIREMENTS_DIR, copy);
    writeFileSync(join(copy, CURATED_35), ownFixture35());
    expect(contentIdentity(ref)).toBe(folderRef(copy, include).sha256);
    expect(ref.sha256).not.toBe(requirementsRef(BUILTIN_REQUIREMENTS_DIR).sha256);
    // One folder keeps the ref it always had: no layers key, the same hash.
    expect(Object.keys(requirementsRef(BUILTIN_REQUIREMENTS_DIR)).sort()).toEqual(["path", "sha256"]);
  });
});

/** Relative paths of the files below `dir` that `include` accepts. */
function folderFiles(dir: string, include: (name: string) => boolean, rel = ""): string[] {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const r = rel === "" ? name : join(rel, name);
    if (statSync(join(dir, r)).isDirectory()) return folderFiles(dir, include, r);
    return include(name) ? [r] : [];
  });
}

describe("policy clauses over the curated set", () => {
  it("take the project's clause file in place of the curated file of that name", () => {
    const baggage = JSON.parse(readFileSync(join(BUILTIN_POLICIES_DIR, "airline/baggage.json"), "utf8"));
    const kept = baggage.clauses.slice(0, 1);
    const dir = project({
      "policies/airline/baggage.json": JSON.stringify({ domain: "airline", clauses: kept }),
    });
    const curated = loadClauses(BUILTIN_POLICIES_DIR);
    const layered = loadClauses(layerOver(join(dir, "policies"), BUILTIN_POLICIES_DIR));
    expect(layered.problems).toEqual([]);
    expect(layered.clauses.length).toBe(curated.clauses.length - baggage.clauses.length + 1);
    const baggageFrom = layered.clauses.filter((c) => c.path.endsWith("baggage.json")).map((c) => c.path);
    expect(baggageFrom).toHaveLength(1);
    expect(baggageFrom[0]?.endsWith(join(basename(dir), "policies/airline/baggage.json"))).toBe(true);
  });
});

describe("corrections over the curated set", () => {
  it("take the project's overlay of a domain in place of the curated one", () => {
    const airline = JSON.parse(readFileSync(join(BUILTIN_CORRECTIONS_DIR, "airline.json"), "utf8"));
    const dir = project({
      "corrections/airline.json": JSON.stringify({ ...airline, version: "project.1", tasks: {} }),
    });
    const layered = loadCorrectionsDir(layerOver(join(dir, "corrections"), BUILTIN_CORRECTIONS_DIR));
    expect(layered.get("airline")?.version).toBe("project.1");
    expect(loadCorrectionsDir().get("airline")?.version).toBe(airline.version);
  });
});

describe("the sources named", () => {
  const curatedCount = folderFiles(
    BUILTIN_REQUIREMENTS_DIR,
    (n) => n.endsWith(".json") && !n.startsWith("_"),
  ).length;
  const curated = `tau-rescore ${TOOL_VERSION}'s curated set`;

  it("say the project's folder, its files, and the curated set below it", () => {
    const dir = project({ [`requirements/${CURATED_35}`]: ownFixture35() });
    expect(
      describeSource("requirements", layerOver(join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR), dir),
    ).toBe(`requirements: project requirements/ (1 file) over ${curated} (${curatedCount} files)`);
  });

  it("say the curated set alone, and a folder given alone by its path", () => {
    expect(describeSource("requirements", BUILTIN_REQUIREMENTS_DIR)).toBe(
      `requirements: ${curated} (${curatedCount} files)`,
    );
    const dir = project({ "mine/airline/head/2.json": "{}" });
    expect(describeSource("requirements", join(dir, "mine"), dir)).toBe("requirements: mine/ (1 file)");
  });

  it("of a run are read from its grading spec: requirements, policies and corrections when it has them", () => {
    const dir = project({ [`requirements/${CURATED_35}`]: ownFixture35() });
    const choice: GradingChoice = {
      graders: ["tau3", "tau3_corrected", "structured"],
      quirks: { preset: "tau2", overrides: [] },
      judge: { mode: "recorded" },
      fallbackTaskVersion: "head",
      requirementsDir: layerOver(join(dir, "requirements"), BUILTIN_REQUIREMENTS_DIR),
      policiesDir: BUILTIN_POLICIES_DIR,
      correctionsDir: BUILTIN_CORRECTIONS_DIR,
      handoffOverrides: null,
      gate: NO_EXTRA_GATES,
    };
    const spec = JSON.parse(JSON.stringify(buildGradingSpec(choice)));
    const lines = runSources(spec, dir);
    expect(lines).toEqual([
      `requirements: project requirements/ (1 file) over ${curated} (${curatedCount} files)`,
      expect.stringMatching(new RegExp(`^policies: ${curated} \\(\\d+ files\\)$`)),
      `corrections: ${curated} (1 file)`,
    ]);
    expect(runSources({}, dir)).toEqual([]);
  });
});
