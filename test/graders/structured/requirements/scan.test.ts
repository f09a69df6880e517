import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import { instructionField, locateQuote } from "../../../../src/graders/structured/requirements/quote.ts";
import { cuesIn, scanTask, toolsHintedBy } from "../../../../src/graders/structured/requirements/scan.ts";
import { splitSentences } from "../../../../src/graders/structured/requirements/sentences.ts";
import { taskSet } from "../../../../src/graders/structured/requirements/task-sets.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

describe("splitSentences", () => {
  it("splits at sentence ends and line breaks, keeping abbreviations and decimals", () => {
    const text = 'Fly at 9 a.m. today. Refuel 2.0 GB, e.g. now!\n\nNo way? "Fine." End';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      "Fly at 9 a.m. today.",
      "Refuel 2.0 GB, e.g. now!",
      "No way?",
      '"Fine."',
      "End",
    ]);
  });

  it("reports code-point offsets", () => {
    const text = "Café 🛫 ok. You don't want it.";
    const [, second] = splitSentences(text);
    expect(second).toEqual({ text: "You don't want it.", start: 11, end: 29 });
    expect([...text].slice(11, 29).join("")).toBe("You don't want it.");
  });
});

describe("cues and tool hints", () => {
  it("flags negated wants and not plain statements", () => {
    expect(cuesIn("You are not willing to pay more than $100.")).toEqual(["not willing"]);
    expect(cuesIn("You refuse any voucher.")).toEqual(["refuse"]);
    expect(cuesIn("You want to book a flight.")).toEqual([]);
  });

  it("maps keywords to the domain's own tool names", () => {
    expect(toolsHintedBy("You don't want to be transferred to a human.", DOMAINS.airline)).toEqual([
      "transfer_to_human_agents",
    ]);
    expect(toolsHintedBy("Do not cancel or return anything.", DOMAINS.retail)).toEqual([
      "cancel_pending_order",
      "return_delivered_order_items",
    ]);
    expect(toolsHintedBy("You never want roaming or a data refuel.", DOMAINS.telecom)).toEqual([
      "enable_roaming",
      "disable_roaming",
      "refuel_data",
    ]);
  });
});

describe("scanTask", () => {
  it("finds airline task 47's refusal to be transferred, with offsets of its field", () => {
    const set = taskSet(DATA_DIR, "airline", "v0.2.0_f8de30c");
    const task = set?.byId.get("47");
    expect(task).toBeDefined();
    if (task === undefined) return;
    const candidates = scanTask(task, DOMAINS.airline, "v0.2.0_f8de30c");
    const hit = candidates.find((c) =>
      c.sentence.includes("you don't want to be transferred to another agent"),
    );
    expect(hit).toMatchObject({
      domain: "airline",
      task_version: "v0.2.0_f8de30c",
      task_id: "47",
      field: "task_instructions",
      sentence:
        "You want to get a full refund for the flight and you don't want to be transferred to another agent.",
      tools: ["cancel_reservation", "transfer_to_human_agents"],
    });
    const text = instructionField(task, "task_instructions");
    const loc = locateQuote(text, hit?.sentence ?? "");
    expect(loc).toEqual({ found: true, start: hit?.start, end: hit?.end });
  });

  it("scans a plain-string scenario as the `instructions` field", () => {
    const task = {
      id: "x",
      user_scenario: { persona: null, instructions: "Book it. You do not want insurance." },
      ticket: null,
      initial_state: null,
      evaluation_criteria: null,
    };
    expect(scanTask(task, DOMAINS.airline, "head")).toMatchObject([
      { field: "instructions", sentence: "You do not want insurance.", start: 9, end: 35 },
    ]);
  });
});
