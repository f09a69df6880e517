/**
 * `requirements new` suggests task facts from the `requirements scan --facts` candidates: each quotes its
 * candidate sentence and carries a `_suggested` key, which `requirements verify` refuses (one problem
 * naming the file and `task_facts[i]`) until the author keeps the fact (deletes the key) or deletes it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DomainDef } from "../../../../src/domains/domain.ts";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import type { Task } from "../../../../src/formats/model.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../../../src/graders/structured/folders.ts";
import { verifyRequirementSet } from "../../../../src/graders/structured/requirements/check-all.ts";
import { coverageReport } from "../../../../src/graders/structured/requirements/coverage.ts";
import {
  FACT_VOCABULARY_FILE,
  loadFactVocabulary,
} from "../../../../src/graders/structured/requirements/load.ts";
import { scaffoldFixture } from "../../../../src/graders/structured/requirements/scaffold.ts";
import { scanTask } from "../../../../src/graders/structured/requirements/scan.ts";
import {
  type FactVocabulary,
  type RequirementFixture,
  requirementFixtureSchema,
} from "../../../../src/graders/structured/requirements/schema.ts";
import { taskSet } from "../../../../src/graders/structured/requirements/task-sets.ts";
import { verifyFixture } from "../../../../src/graders/structured/requirements/verify.ts";
import { DATA_DIR } from "../../../helpers/data.ts";
import { tempRequirements } from "./helpers.ts";

function vocabularyOf(domain: string): FactVocabulary {
  const v = loadFactVocabulary(join(BUILTIN_REQUIREMENTS_DIR, domain, FACT_VOCABULARY_FILE));
  if ("message" in v) throw new Error(v.message);
  return v.vocabulary;
}

function headTask(domain: string, id: string): Task {
  const task = taskSet(DATA_DIR, domain, "head")?.byId.get(id);
  if (task === undefined) throw new Error(`${domain} head task ${id} missing`);
  return task;
}

const draftOf = (domain: DomainDef, id: string): RequirementFixture =>
  scaffoldFixture(domain, "head", headTask(domain.name, id), vocabularyOf(domain.name));

/** The draft written to a temp file outside the requirements dir, as `requirements new --out` writes it. */
function written(draft: unknown, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "suggested-")), name);
  writeFileSync(file, `${JSON.stringify(draft, null, 2)}\n`);
  return file;
}

const verify = (file: string) =>
  verifyRequirementSet({ dir: BUILTIN_REQUIREMENTS_DIR, dataDir: DATA_DIR, only: [file] });

const lines = (r: ReturnType<typeof verify>) =>
  r.problems.map((p) => `${p.fixture}\t${p.ruleId ?? "-"}\t${p.message}`);

/** The draft with its rules deleted and only the fact at `index` kept, edited by `edit`. */
function kept(
  draft: RequirementFixture,
  index: number,
  edit: (f: Record<string, unknown>) => void = () => {},
) {
  const { _suggested, ...fact } = draft.task_facts[index] as Record<string, unknown>;
  expect(_suggested).toEqual(expect.any(String));
  edit(fact);
  return { ...draft, user_preflight_requirements: undefined, task_facts: [fact] };
}

describe("requirements new: suggested task facts", () => {
  it("suggests a fact per fact candidate, quoting its sentence verbatim, with the amount it writes", () => {
    const draft = draftOf(DOMAINS.airline, "8");
    expect(requirementFixtureSchema.safeParse(draft).success).toBe(true);
    const sentences = scanTask(headTask("airline", "8"), DOMAINS.airline, "head", "facts").map(
      (c) => c.sentence,
    );
    expect(draft.task_facts.map((f) => f.source_quote)).toEqual(sentences);
    expect(draft.task_facts[0]).toEqual({
      _suggested: expect.stringMatching(/^keep or delete: cues amount, budget; 500 read from the sentence\./),
      id: "airline.8.max_charge",
      name: "max_charge",
      type: "number",
      value: 500,
      source_field: "task_instructions",
      source_quote: "You are willing to pay up to $500 for the purchase.",
    });
    // A second suggestion of the same name gets its own id.
    expect(draft.task_facts[1]).toMatchObject({ id: "airline.8.max_charge_2", name: "max_charge" });
  });

  it("reads an enum value where the sentence's words name one, and leaves it TODO where none does", () => {
    expect(draftOf(DOMAINS.airline, "7").task_facts).toMatchObject([
      { name: "cancellation_reason", type: "enum", value: "health", source_quote: "You are sick." },
    ]);
    expect(draftOf(DOMAINS.retail, "78").task_facts).toContainEqual(
      expect.objectContaining({ name: "cancellation_reason", value: "ordered by mistake" }),
    );
    const undecided = draftOf(DOMAINS.airline, "43").task_facts[0];
    expect(undecided).toMatchObject({
      name: "cancellation_reason",
      value: expect.stringMatching(/^TODO: one of /),
    });
  });

  it("names a fact todo_name where no vocabulary name fits its cues (a booking time)", () => {
    expect(draftOf(DOMAINS.airline, "48").task_facts).toContainEqual(
      expect.objectContaining({
        id: "airline.48.todo_name",
        name: "todo_name",
        source_field: "known_info",
        source_quote: "You booked the flight about 10 hours ago.",
      }),
    );
  });

  it("leaves the rules part as it was, and suggests no fact in a domain without a vocabulary", () => {
    const task = headTask("airline", "8");
    const plain = scaffoldFixture(DOMAINS.airline, "head", task);
    const withFacts = scaffoldFixture(DOMAINS.airline, "head", task, vocabularyOf("airline"));
    expect(withFacts.user_preflight_requirements).toEqual(plain.user_preflight_requirements);
    expect(plain.task_facts).toEqual([]);
  });

  it("refuses an unedited suggestion: one line naming the file and task_facts[i], and it never grades", () => {
    const draft = draftOf(DOMAINS.airline, "8");
    const file = written(draft, "8.json");
    const out = lines(verify(file));
    expect(out).toContain(
      `${file}\tairline.8.max_charge\ttask_facts[0] is still a suggestion of requirements new: keep it (check it, then delete its _suggested key) or delete the entry`,
    );
    expect(out.filter((l) => l.includes("task_facts[1] is still a suggestion"))).toHaveLength(1);
    // What the grader reads: no fact verifies while it is a suggestion.
    const v = verifyFixture(file, draft, headTask("airline", "8"), DOMAINS.airline, vocabularyOf("airline"));
    expect(v.facts).toEqual([]);
    expect(v.problems.map((p) => p.message)).toContain(
      "task_facts[0] is still a suggestion of requirements new: keep it (check it, then delete its _suggested key) or delete the entry",
    );
  });

  it("verifies a kept suggestion: the _suggested key deleted, the rest as suggested", () => {
    const r = verify(written(kept(draftOf(DOMAINS.airline, "8"), 0), "8.json"));
    expect(r.problems, lines(r).join("\n")).toEqual([]);
    expect(r).toMatchObject({ fixtures: 1, rules: 0, facts: 1 });

    const reason = verify(written(kept(draftOf(DOMAINS.airline, "7"), 0), "7.json"));
    expect(reason.problems, lines(reason).join("\n")).toEqual([]);
  });

  it("refuses a kept suggestion whose TODO value was not chosen", () => {
    const file = written(kept(draftOf(DOMAINS.airline, "43"), 0), "43.json");
    expect(lines(verify(file))).toContainEqual(
      expect.stringMatching(
        /\tairline\.43\.cancellation_reason\tunedited scaffold: value still reads "TODO: one of /,
      ),
    );
    const chosen = written(
      kept(draftOf(DOMAINS.airline, "43"), 0, (f) => {
        f.value = "other";
      }),
      "43.json",
    );
    expect(verify(chosen).problems).toEqual([]);
  });

  it("does not count a suggestion as covering its candidate in the facts coverage", () => {
    const vocabulary = vocabularyOf("airline");
    const draft = draftOf(DOMAINS.airline, "8");
    const row = (fixture: unknown) => {
      const dir = tempRequirements({ "airline/_facts.json": vocabulary, "airline/head/8.json": fixture });
      const report = coverageReport(DATA_DIR, dir, [DOMAINS.airline], "facts");
      const head = report.rows.find((r) => r.task_version === "head");
      return {
        head,
        unreviewed: report.unreviewed
          .filter((c) => c.task_version === "head" && c.task_id === "8")
          .map((c) => c.sentence),
      };
    };
    const suggested = row(draft);
    expect(suggested.unreviewed).toContain("You are willing to pay up to $500 for the purchase.");
    const keptOne = row(kept(draft, 0));
    expect(keptOne.unreviewed).not.toContain("You are willing to pay up to $500 for the purchase.");
    expect(keptOne.head?.covered).toBe((suggested.head?.covered ?? 0) + 1);
  });
});
