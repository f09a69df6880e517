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

  it("reports a malformed review file", () => {
    const dir = tempRequirements({ "airline/head/_reviewed-candidates.json": [{ task_id: "47" }] });
    const report = coverageReport(DATA_DIR, dir, [DOMAINS.airline]);
    expect(report.problems).toEqual([
      expect.stringContaining("_reviewed-candidates.json: at [0].field: Invalid option"),
    ]);
  });
});
