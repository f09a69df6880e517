/**
 * Domain variants: a data dir's `domains/<name>/variant.json` (`{"extends": "airline"}`) grades files of
 * domain `<name>` with the base's tools on the variant's own documents. Built here from the shared airline
 * data: another policy (one eligibility line removed), another task text (one task with a sentence more).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyRequirementSet } from "../../src/graders/structured/requirements/check-all.ts";
import { gradeLines } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const VARIANT = "airline_tighter_policy";
const REMOVED = "- The user has travel insurance and the reason for cancellation is covered by insurance.\n";
const ADDED = "You do not want the agent to look up your reservation details.";
const NOT_ELIGIBLE = "airline.cancel_reservation.not_eligible";

const dir = mkdtempSync(join(tmpdir(), "tr-variants-"));
const data = join(dir, "data");
const source = JSON.parse(
  readFileSync(join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json"), "utf8"),
);

/** The whissle airline run relabelled as `domain`, with `tasks` embedded. */
function runFile(name: string, domain: string, tasks: unknown[]): string {
  const path = join(dir, name);
  const info = { ...source.info, environment_info: { ...source.info.environment_info, domain_name: domain } };
  writeFileSync(path, JSON.stringify({ ...source, info, tasks }));
  return path;
}

interface Line {
  simulation_id: string;
  task_id: string;
  error?: string;
  tau3: { reward: number | null };
  structured: {
    pass: boolean | null;
    causes: { kind: string; reference: string }[];
    rejected_clauses?: { clause: string; message: string }[];
  };
}
async function grade(path: string, ...extra: string[]): Promise<Line[]> {
  const r = await gradeLines<Line>(path, data, ...extra);
  expect(r.stderr).not.toMatch(/[1-9]\d* file\(s\) failed to load/);
  return r.lines;
}

let variantTasks: { id: string; user_scenario: { instructions: Record<string, string> } }[];
let base: Line[];
beforeAll(async () => {
  mkdirSync(join(data, "domains", VARIANT), { recursive: true });
  symlinkSync(join(DATA_DIR, "domains", "airline"), join(data, "domains", "airline"));
  const policy = readFileSync(join(DATA_DIR, "domains/airline/policy.md"), "utf8");
  expect(policy).toContain(REMOVED);
  writeFileSync(join(data, "domains", VARIANT, "variant.json"), JSON.stringify({ extends: "airline" }));
  writeFileSync(join(data, "domains", VARIANT, "policy.md"), policy.replace(REMOVED, ""));
  variantTasks = structuredClone(source.tasks);
  const task0 = variantTasks.find((t) => t.id === "0");
  if (task0 === undefined) throw new Error("no task 0");
  task0.user_scenario.instructions.task_instructions += `\n\n${ADDED}`;
  writeFileSync(join(data, "domains", VARIANT, "tasks.json"), JSON.stringify(variantTasks));
  base = await grade(runFile("base.json", "airline", source.tasks));
}, 300_000);

describe("a policy variant: same tools, another policy", () => {
  it("grades every simulation with the base's tools: τ³ as for the base", async () => {
    const variant = await grade(runFile("variant.json", VARIANT, variantTasks));
    expect(variant.filter((l) => l.error !== undefined)).toEqual([]);
    expect(variant.map((l) => [l.simulation_id, l.tau3.reward])).toEqual(
      base.map((l) => [l.simulation_id, l.tau3.reward]),
    );
  });

  it("reports a clause whose quote the variant's policy removed as not applicable, and never applies it", async () => {
    const inBase = base.filter((l) => l.structured.causes.some((c) => c.reference === NOT_ELIGIBLE));
    expect(inBase.length).toBeGreaterThan(0);
    expect(base.every((l) => l.structured.rejected_clauses === undefined)).toBe(true);
    const variant = await grade(runFile("variant.json", VARIANT, variantTasks));
    expect(variant.some((l) => l.structured.causes.some((c) => c.reference === NOT_ELIGIBLE))).toBe(false);
    const rejected = variant[0]?.structured.rejected_clauses ?? [];
    expect(rejected.map((r) => r.clause)).toEqual([NOT_ELIGIBLE]);
    expect(rejected[0]?.message).toBe(
      `not applicable in ${VARIANT}: its source_quote is not in ${VARIANT}'s policy.md`,
    );
    // The other clauses still apply, their quotes found where the shorter policy has them.
    const others = (l: Line[]) =>
      l.flatMap((x) =>
        x.structured.causes
          .filter((c) => c.kind === "policy_clause" && c.reference !== NOT_ELIGIBLE)
          .map((c) => `${x.simulation_id} ${c.reference}`),
      );
    expect(others(variant)).toEqual(others(base));
  });

  it("grades a requirement that quotes the variant's own task text", async () => {
    const reqs = join(dir, "requirements");
    mkdirSync(join(reqs, VARIANT, "head"), { recursive: true });
    writeFileSync(
      join(reqs, VARIANT, "head", "0.json"),
      JSON.stringify({
        domain: VARIANT,
        task_version: "head",
        task_id: "0",
        user_preflight_requirements: {
          action_preconditions: [
            {
              id: `${VARIANT}.0.no_lookup`,
              action: "get_reservation_details",
              rule: "Do not look up the user's reservation.",
              source_field: "task_instructions",
              source_quote: ADDED,
              arguments: null,
            },
          ],
        },
      }),
    );
    // `requirements verify` checks it against the variant's task text, as grading does.
    expect(verifyRequirementSet({ dir: reqs, dataDir: data }).problems).toEqual([]);
    const lines = await grade(runFile("variant.json", VARIANT, variantTasks), "--requirements", reqs);
    const task0 = lines.filter((l) => l.task_id === "0");
    expect(task0.length).toBeGreaterThan(0);
    for (const l of task0)
      expect(l.structured.causes.map((c) => `${c.kind}:${c.reference}`)).toContain(
        `requirement:${VARIANT}.0.no_lookup`,
      );
  });
});

describe("naming a variant", () => {
  it("--domain-as grades a name without a folder as its base", async () => {
    const lines = await grade(
      runFile("mapped.json", "airline_renamed", source.tasks),
      "--domain-as",
      "airline_renamed=airline",
    );
    expect(lines.map((l) => [l.simulation_id, l.tau3, l.structured])).toEqual(
      base.map((l) => [l.simulation_id, l.tau3, l.structured]),
    );
  });

  it("without it, the name is not supported, and the error says how to declare it", async () => {
    const [first] = await grade(runFile("unknown.json", "airline_renamed", source.tasks));
    expect(first?.error).toMatch(
      /domain airline_renamed is not supported \(a variant of a supported domain: declare it in the data dir's domains\/airline_renamed\/variant.json, or map it with --domain-as airline_renamed=<domain>\)/,
    );
  });

  it("a variant.json that extends no known domain is one line naming the file and the key", async () => {
    mkdirSync(join(data, "domains", "airline_bad"), { recursive: true });
    writeFileSync(
      join(data, "domains", "airline_bad", "variant.json"),
      JSON.stringify({ extends: "airplane" }),
    );
    const [first] = await grade(runFile("bad.json", "airline_bad", source.tasks));
    expect(first?.error).toContain(join(data, "domains", "airline_bad", "variant.json"));
    expect(first?.error).toMatch(/extends.*"airplane" is not a domain this tool grades/);
  });
});
