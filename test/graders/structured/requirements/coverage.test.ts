import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import { coverageReport } from "../../../../src/graders/structured/requirements/coverage.ts";
import { DATA_DIR } from "../../../helpers/data.ts";
import { fixture, tempRequirements } from "./helpers.ts";

const rowFor = (dir: string) =>
  coverageReport(DATA_DIR, dir, [DOMAINS.airline]).rows.find((r) => r.task_version === "head");

describe("coverageReport", () => {
  it("counts rule-covered, rejected, unreviewed and stale candidates", () => {
    const dir = tempRequirements({
      "airline/head/47.json": fixture("47", [{}]),
      "airline/head/_reviewed-candidates.json": [
        {
          task_id: "47",
          field: "task_instructions",
          sentence: "Be persistent and don't provide more information than necessary.",
          reason: "behaviour",
        },
        {
          task_id: "47",
          field: "task_instructions",
          sentence: "A sentence that no longer exists.",
          reason: "x",
        },
      ],
    });
    const row = rowFor(dir);
    expect(row).toMatchObject({ tasks: 50, rules: 1, covered: 1, rejected: 1, stale: 1 });
    expect(row?.unreviewed).toBe((row?.candidates ?? 0) - 2);
  });

  it("a note for every task (*) covers the sentence wherever it appears, and is stale only when it appears nowhere", () => {
    const sentence = "You are reactive to the agent and will not say anything that is not asked.";
    const plain = rowFor(tempRequirements({}));
    const dir = tempRequirements({
      "airline/head/_reviewed-candidates.json": [
        { task_id: "*", field: "task_instructions", sentence, reason: "behaviour" },
        { task_id: "*", field: "task_instructions", sentence: "Nowhere in any task.", reason: "x" },
      ],
    });
    const report = coverageReport(DATA_DIR, dir, [DOMAINS.airline]);
    const row = report.rows.find((r) => r.task_version === "head");
    const occurrences = coverageReport(DATA_DIR, tempRequirements({}), [DOMAINS.airline]).unreviewed.filter(
      (c) => c.task_version === "head" && c.sentence === sentence,
    ).length;
    expect(occurrences).toBeGreaterThan(1);
    expect(row).toMatchObject({ rejected: occurrences, stale: 1 });
    expect(row?.unreviewed).toBe((plain?.unreviewed ?? 0) - occurrences);
    expect(report.unreviewed.some((c) => c.task_version === "head" && c.sentence === sentence)).toBe(false);
  });

  it("reports a malformed review file", () => {
    const dir = tempRequirements({ "airline/head/_reviewed-candidates.json": [{ task_id: "47" }] });
    const report = coverageReport(DATA_DIR, dir, [DOMAINS.airline]);
    expect(report.problems).toEqual([
      expect.stringContaining("_reviewed-candidates.json: at [0].field: Invalid option"),
    ]);
  });
});
