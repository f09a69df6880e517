/**
 * Fixtures follow the task's text, not its label: a fixture applies wherever every quote it relies on
 * stands in the simulation's own task (a fork's task set that differs by a sentence, a policy variant),
 * and each simulation's coverage says what applied and what was skipped, with why. Built at test time
 * from the shared whissle airline run (head task set): one task gains a sentence, so the file equals no
 * known task set, and another loses the words its fixture quotes.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../../src/analysis/rows.ts";
import { installAnalyses } from "../../../src/analysis/run.ts";
import { VerdictStore } from "../../../src/store/store.ts";
import { cliInProcess, gradeLines } from "../../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../../helpers/data.ts";
import { writeExperiment } from "../../helpers/small-run.ts";

const VARIANT = "airline_fork_policy";
const ADDED = "You are in a hurry and would like short answers.";
/** Task 6's fixture quotes it; the changed task says it otherwise. */
const QUOTE_6 = "Under no circumstances do you want to be transferred to another agent";

interface Coverage {
  fixtures: string[];
  facts: number;
  clauses: number;
  skipped: { fixture: string | null; reason: string }[];
}
interface Line {
  task_id: string;
  task_version: string;
  structured: {
    pass: boolean | null;
    causes: { kind: string; reference: string }[];
    requirements: { fixture: string | null; facts: { name: string }[] };
    coverage: Coverage;
  };
}

const dir = mkdtempSync(join(tmpdir(), "tr-fixture-coverage-"));
const data = join(dir, "data");
const source = JSON.parse(
  readFileSync(join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json"), "utf8"),
) as {
  info: { environment_info: Record<string, unknown> };
  tasks: { id: string; user_scenario: { instructions: Record<string, string> } }[];
};

/** The run relabelled as `domain`, with `tasks` embedded. */
function runFile(name: string, domain: string, tasks: unknown[]): string {
  const path = join(dir, name);
  const info = { ...source.info, environment_info: { ...source.info.environment_info, domain_name: domain } };
  writeFileSync(path, JSON.stringify({ ...source, info, tasks }));
  return path;
}

async function grade(path: string, ...extra: string[]): Promise<Map<string, Line>> {
  const r = await gradeLines<Line>(path, data, ...extra);
  expect(r.status, r.stderr).toBe(0);
  return new Map(r.lines.map((l) => [l.task_id, l]));
}

const taskOf = (tasks: typeof source.tasks, id: string) => {
  const t = tasks.find((x) => x.id === id);
  if (t === undefined) throw new Error(`no task ${id}`);
  return t;
};

let asLabelled: Map<string, Line>;
let forked: Map<string, Line>;
let variant: Map<string, Line>;
beforeAll(async () => {
  mkdirSync(join(data, "domains", VARIANT), { recursive: true });
  symlinkSync(join(DATA_DIR, "domains", "airline"), join(data, "domains", "airline"));
  const tasks = structuredClone(source.tasks);
  // Task 47 gains a sentence: its fixture's quotes all remain. Task 6 loses the words its fixture quotes.
  taskOf(tasks, "47").user_scenario.instructions.task_instructions += `\n\n${ADDED}`;
  const six = taskOf(tasks, "6").user_scenario.instructions;
  expect(six.task_instructions).toContain(QUOTE_6);
  six.task_instructions = (six.task_instructions as string).replace(
    QUOTE_6,
    "You would rather not be passed on",
  );
  writeFileSync(join(data, "domains", VARIANT, "variant.json"), JSON.stringify({ extends: "airline" }));
  writeFileSync(join(data, "domains", VARIANT, "tasks.json"), JSON.stringify(tasks));
  asLabelled = await grade(runFile("head.json", "airline", source.tasks));
  forked = await grade(runFile("fork.json", "airline", tasks));
  // A fork's policy variant named on the command line: no folder of its own, its tasks a fork's.
  variant = await grade(
    runFile("variant.json", "airline_tighter", tasks),
    "--domain-as",
    "airline_tighter=airline",
  );
}, 300_000);

const line = (m: Map<string, Line>, id: string): Line => {
  const l = m.get(id);
  if (l === undefined) throw new Error(`no simulation of task ${id}`);
  return l;
};

describe("fixtures follow the task's text", () => {
  it("the changed file equals no known task set", () => {
    expect(line(forked, "47").task_version).toBe("unknown");
    expect(line(asLabelled, "47").task_version).toBe("head");
  });

  it("a task whose text differs from every known set but holds the fixture's quotes gets the fixture", () => {
    const l = line(forked, "47");
    expect(l.structured.requirements.fixture).toBe("requirements/airline/head/47.json");
    expect(l.structured.coverage.fixtures).toEqual(["requirements/airline/head/47.json"]);
    // The same findings as under its own label: the transfer the user refused, and the fact.
    expect(l.structured.causes).toEqual(line(asLabelled, "47").structured.causes);
    expect(l.structured.causes.some((c) => c.reference === "airline.47.no_transfer")).toBe(true);
    expect(l.structured.requirements.facts.map((f) => f.name)).toEqual(["cancellation_reason"]);
    expect(l.structured.coverage.facts).toBe(1);
  });

  it("an unchanged task of such a file keeps its fixture", () => {
    const l = line(forked, "10");
    expect(l.structured.requirements.fixture).toBe("requirements/airline/head/10.json");
    expect(l.structured.causes).toEqual(line(asLabelled, "10").structured.causes);
  });

  it("a fixture whose quote the task no longer holds is skipped, with that reason in the coverage", () => {
    const l = line(forked, "6");
    expect(l.structured.requirements.fixture).toBeNull();
    expect(l.structured.coverage.fixtures).toEqual([]);
    // Each version's fixture for the task was tried (head's, then the pre-τ³ set's): none holds.
    expect(l.structured.coverage.skipped).toContainEqual({
      fixture: "requirements/airline/head/6.json",
      reason: expect.stringMatching(
        /^airline\.6\.no_transfer: source_quote not found verbatim in task_instructions/,
      ),
    });
    expect(l.structured.coverage.skipped.every((s) => s.fixture !== null)).toBe(true);
    // Under its own label the rule ran and failed the run; here it cannot, and says so.
    expect(line(asLabelled, "6").structured.causes.some((c) => c.kind === "requirement")).toBe(true);
    expect(l.structured.causes.some((c) => c.kind === "requirement")).toBe(false);
  });

  it("a task with no fixture says so", () => {
    const l = line(asLabelled, "0");
    expect(l.structured.coverage.fixtures).toEqual([]);
    expect(l.structured.coverage.skipped).toEqual([{ fixture: null, reason: "no fixture for this task" }]);
  });

  it("counts the policy clauses verified for the domain", () => {
    expect(line(asLabelled, "0").structured.coverage.clauses).toBeGreaterThan(0);
  });
});

describe("a variant", () => {
  it("gets the base's fixture where the quotes stand in the variant's task", () => {
    expect(line(variant, "47").task_version).toBe("unknown");
    const l = line(variant, "47");
    expect(l.structured.requirements.fixture).toBe("requirements/airline/head/47.json");
    expect(l.structured.causes.some((c) => c.reference === "airline.47.no_transfer")).toBe(true);
  });

  it("skips the base's fixture where they do not", () => {
    const l = line(variant, "6");
    expect(l.structured.requirements.fixture).toBeNull();
    expect(l.structured.coverage.skipped.map((s) => s.fixture)).toContain("requirements/airline/head/6.json");
  });
});

describe("the report's coverage table", () => {
  it("counts, per comparison side and domain, simulations with a fixture, with facts, with none, and skipped", async () => {
    const runDir = join(dir, "run");
    mkdirSync(join(runDir, "corpus"), { recursive: true });
    for (const f of ["head.json", "fork.json"])
      writeFileSync(join(runDir, "corpus", f), readFileSync(join(dir, f)));
    const experiment = writeExperiment(join(runDir, "x.json"), { graders: ["tau3", "structured"] }, { data });
    const db = join(runDir, "x.duckdb");
    const r = await cliInProcess(["run", experiment, "--db", db]);
    expect(r.status, r.stderr).toBe(0);
    const store = await VerdictStore.open(db, { readOnly: true });
    try {
      await installAnalyses(store);
      const got = await rows(
        store,
        `SELECT side, grader, domain, simulations, graded, with_fixture, with_facts, with_none, fixture_skipped
         FROM coverage_by_domain WHERE comparison = 'tau3-vs-structured' ORDER BY domain`,
      );
      // What the graded lines say, counted here from them: each file's 50 simulations once.
      const all = [...asLabelled.values(), ...forked.values()];
      const count = (p: (l: Line) => boolean) => all.filter(p).length;
      const row = {
        side: "candidate",
        grader: "structured",
        simulations: all.length,
        graded: all.length,
        with_fixture: count((l) => l.structured.coverage.fixtures.length > 0),
        with_facts: count((l) => l.structured.coverage.facts > 0),
        with_none: count(
          (l) => l.structured.coverage.fixtures.length === 0 && l.structured.coverage.facts === 0,
        ),
        fixture_skipped: count(
          (l) =>
            l.structured.coverage.fixtures.length === 0 &&
            l.structured.coverage.skipped.some((s) => s.fixture !== null),
        ),
      };
      expect(row.fixture_skipped).toBe(1);
      expect(got).toEqual([
        { ...row, domain: "airline" },
        { ...row, domain: "all" },
      ]);
    } finally {
      await store.close();
    }
  }, 300_000);
});

describe("corpus inspect", () => {
  it("shows per file how many of its tasks a fixture applies to, as the grader finds them", async () => {
    const withFixture = (m: Map<string, Line>) =>
      [...m.values()].filter((l) => l.structured.requirements.fixture !== null).length;
    const r = await cliInProcess([
      "corpus",
      "inspect",
      "--json",
      "--data-dir",
      data,
      join(dir, "head.json"),
      join(dir, "fork.json"),
    ]);
    const files = (JSON.parse(r.stdout) as { files: { path: string; fixtures: unknown }[] }).files;
    const of = (name: string) => files.find((f) => f.path.endsWith(name))?.fixtures;
    expect(of("head.json")).toEqual({ tasks: 50, with_fixture: withFixture(asLabelled) });
    // Task 6 lost its quote: one fixture fewer.
    expect(of("fork.json")).toEqual({ tasks: 50, with_fixture: withFixture(asLabelled) - 1 });
    expect(withFixture(forked)).toBe(withFixture(asLabelled) - 1);
  });
});
