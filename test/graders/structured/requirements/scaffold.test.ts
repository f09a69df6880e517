import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import { ruleIdTaskSegment } from "../../../../src/graders/structured/requirements/paths.ts";
import { scaffoldFixture } from "../../../../src/graders/structured/requirements/scaffold.ts";
import { requirementFixtureSchema } from "../../../../src/graders/structured/requirements/schema.ts";
import { taskSet } from "../../../../src/graders/structured/requirements/task-sets.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

describe("scaffoldFixture", () => {
  it("drafts one rule per tool-hinting candidate of the task, in the fixture format", () => {
    const task = taskSet(DATA_DIR, "airline", "head")?.byId.get("47");
    if (task === undefined) throw new Error("airline head task 47 missing");
    const draft = scaffoldFixture(DOMAINS.airline, "head", task);
    expect(requirementFixtureSchema.safeParse(draft).success).toBe(true);
    expect(draft.user_preflight_requirements.action_preconditions).toMatchObject([
      {
        id: "airline.47.todo_1",
        action: "cancel_reservation",
        source_field: "task_instructions",
        source_quote:
          "You want to get a full refund for the flight and you don't want to be transferred to another agent.",
      },
      {
        id: "airline.47.todo_2",
        source_quote: "You do not want to cancel the flight if you cannot get the full refund.",
      },
    ]);
  });

  it("turns telecom task ids into valid rule-id segments", () => {
    expect(ruleIdTaskSegment("[service_issue]airplane_mode_on[PERSONA:None]")).toBe(
      "service_issue_airplane_mode_on_PERSONA_None",
    );
    expect(ruleIdTaskSegment("47")).toBe("47");
  });
});
