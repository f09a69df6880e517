/**
 * The informed-write rules on reviewed conversations of the shared corpus (`reviews/informed-writes.json`),
 * graded whole (τ³ and the structured grader, so the money each write moved comes from the replay): each
 * rule's positive cases, and each false-positive class found reading them, or reading `summary_mismatch`'s
 * findings (`reviews/summary-mismatch.json`), which the amount check must not repeat.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import type { Message } from "../../../../src/formats/model.ts";
import { POLICY_RULES, type PolicyInput } from "../../../../src/graders/structured/policy/index.ts";
import { gradeLines } from "../../../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../../../helpers/data.ts";
import { action, agent, call, input, task, user } from "./fixtures.ts";

interface Line {
  readonly simulation_id: string;
  readonly structured: {
    readonly causes: readonly {
      readonly kind: string;
      readonly reference: string;
      readonly gates: boolean;
      readonly evidence?: readonly {
        readonly code: string;
        readonly message_index?: number;
        readonly message: string;
      }[];
    }[];
  };
}

const FILES = {
  gpt41Airline:
    "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_airline_default_gpt-4.1_1trials.json",
  gpt41Retail:
    "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_retail_defautl_gpt-4.1_1trials.json",
  qwenAirline:
    "sierra-tau2-bench__branch-feature-gym__experiments/qwen2.5:7b_airline_default_gpt-4.1-2025-04-14_1trials.json",
  whissle: "sierra-tau2-bench__pr448-whissle/airline_run1.json",
  deepseek:
    "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/ironshell_ironforge_v3_deepseek.json",
  o3: "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/ironshell_ironforge_o3_wave2.json",
  gpt54:
    "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/ironshell_ironforge_v2_gpt54.json",
  button: "sierra-tau2-bench__leaderboard-pr__button-claude-opus-4-6_distyl-ai_2026-03-04/airline.json",
  gptOss:
    "sierra-tau2-bench__leaderboard-pr__gpt-oss-120b_openai_2025-11-26/langchain_agent_airline_2025-11-26_00-37-06.json",
  azure: "sierra-tau2-bench__pr103-judge-viewer/azure-airline-full.json",
} as const;

const graded = new Map<string, readonly Line[]>();
beforeAll(async () => {
  for (const file of Object.values(FILES)) {
    const r = await gradeLines<Line>(join(CORPUS_DIR, file), DATA_DIR);
    expect(r.status, r.stderr).toBe(0);
    graded.set(file, r.lines);
  }
}, 120_000);

/** The findings of the rules named, as `code@message_index`, of one simulation. */
function findings(file: keyof typeof FILES, idPrefix: string, rules: readonly string[]): string[] {
  const line = graded.get(FILES[file])?.find((l) => l.simulation_id.startsWith(idPrefix));
  if (line === undefined) throw new Error(`no simulation ${idPrefix} in ${file}`);
  return line.structured.causes
    .filter((c) => c.kind === "policy_rule" && rules.includes(c.reference))
    .flatMap((c) => (c.evidence ?? []).map((e) => `${e.code}@${e.message_index}`));
}

const AMOUNT = ["informed_amount"];

describe("informed_amount", () => {
  it("a refund twice the one agreed to (two passengers, $207 said): 0522299c #18", () => {
    expect(findings("whissle", "0522299c", AMOUNT)).toEqual(["informed_amount.mismatch@18"]);
  });

  it("a total said for two passengers charged twice ($597 said, $1,194 charged): 386a713a #24", () => {
    expect(findings("whissle", "386a713a", AMOUNT)).toEqual(["informed_amount.mismatch@24"]);
  });

  it("bags said to cost nothing, then charged $100: e6e76f8e #30", () => {
    expect(findings("deepseek", "e6e76f8e", AMOUNT)).toEqual(["informed_amount.said_free@30"]);
  });

  it("no amount stated before the yes, then a charge: 209a47c1 #22", () => {
    expect(findings("gpt41Retail", "209a47c1", AMOUNT)).toEqual(["informed_amount.unstated@22"]);
  });

  it("not a per-passenger price with the passengers stated ('$161 for one passenger', charged 2 × $161): 7b3171bb", () => {
    expect(findings("qwenAirline", "7b3171bb", ["summary_mismatch"])).toEqual(["summary_mismatch.amount@28"]);
    expect(findings("qwenAirline", "7b3171bb", AMOUNT)).toEqual([]);
  });

  it("not a booking's per-seat fare times its passengers ($174, two passengers): 4594c3e7", () => {
    expect(findings("azure", "4594c3e7", ["summary_mismatch"])).toEqual(["summary_mismatch.amount@20"]);
    expect(findings("azure", "4594c3e7", AMOUNT)).toEqual([]);
  });

  it("not a split over payment methods (the card's share in the summary, the total agreed before): 8a872b6e", () => {
    expect(findings("gptOss", "8a872b6e", ["summary_mismatch"])).toEqual(["summary_mismatch.amount@16"]);
    expect(findings("gptOss", "8a872b6e", AMOUNT)).toEqual([]);
  });

  it("not an itemised list adding up to each booking's charge: 535a1ddd", () => {
    expect(findings("gpt54", "535a1ddd", ["summary_mismatch"])).toEqual(["summary_mismatch.amount@35"]);
    expect(findings("gpt54", "535a1ddd", AMOUNT)).toEqual([]);
  });

  it("not a refund of the difference of two prices the agent stated: 51a770ab, 031c0b0c, 2898c0ec", () => {
    for (const id of ["51a770ab", "031c0b0c", "2898c0ec"])
      expect(findings("gpt41Retail", id, AMOUNT), id).toEqual([]);
  });
});

describe("informed_record", () => {
  it("not a write the yes itself added ('I also wanted to return the hiking boots'): 4bd80885 #33", () => {
    expect(findings("gpt41Retail", "4bd80885", ["summary_mismatch"])).toContain("summary_mismatch.record@33");
    expect(findings("gpt41Retail", "4bd80885", ["informed_record"])).toEqual([]);
  });
});

describe("informed_payment", () => {
  it("a refund to a card the user never offered: 12e551ec #17", () => {
    expect(findings("gpt41Airline", "12e551ec", ["informed_payment"])).toEqual([
      "informed_payment.method@17",
    ]);
  });

  it("PayPal charged after the user agreed to a gift card: e7d583ab #21", () => {
    expect(findings("gpt41Retail", "e7d583ab", ["informed_payment"])).toEqual(["informed_payment.method@21"]);
  });

  it("not a method the agent named by its id and the user said yes to: ca526002 #47", () => {
    expect(findings("qwenAirline", "ca526002", ["informed_payment"])).toEqual([]);
  });

  it("not a method the user left to the agent ('my default payment method on file'): 3a0273de #30", () => {
    expect(findings("o3", "3a0273de", ["informed_payment"])).toEqual([]);
  });

  it("not the original method, after the user said yes to refunding 'your original payment method': 51a770ab", () => {
    expect(findings("gpt41Retail", "51a770ab", ["informed_payment"])).toEqual([]);
  });
});

describe("informed_consent", () => {
  it("a booking called right after the user asked for the total first, refused by the tool: cac906ed #21", () => {
    expect(findings("qwenAirline", "cac906ed", ["informed_consent"])).toEqual(["informed_consent@21"]);
  });

  it("not a yes with a side question ('go ahead … before you finalize, no change fees, right?'): 02a060dd", () => {
    expect(findings("button", "02a060dd", ["informed_consent"])).toEqual([]);
  });
});

describe("misreported_amount", () => {
  it("a refund reported as $207 that was $414: 0522299c #20", () => {
    expect(findings("whissle", "0522299c", ["misreported_amount"])).toEqual(["misreported_amount@20"]);
  });

  it("not a quote for the next step ('Refund: $510 back', then asking to confirm): 916b9143", () => {
    expect(findings("button", "916b9143", ["misreported_amount"])).toEqual([]);
  });

  it("not a plan for a later booking ('$1,786 would be charged'): 2904b9d6", () => {
    expect(findings("deepseek", "2904b9d6", ["misreported_amount"])).toEqual([]);
  });
});

describe("unneeded_transfer", () => {
  const POLICY =
    "You should transfer the user to a human agent if and only if the request cannot be handled within the scope of your actions.";
  const airline = {
    domain: DOMAINS.airline,
    shouldTransfer: 0 as const,
    policyText: `# Airline\n\n${POLICY} To transfer, …`,
  };
  const transfer = (summary: string) => agent(null, [call("t1", "transfer_to_human_agents", { summary })]);
  const check = (messages: Message[], over: Partial<PolicyInput> = {}) =>
    POLICY_RULES.unneeded_transfer
      .check(input(messages, { ...airline, ...over }))
      .map((e) => [e.messageIndex, e.quote]);

  it("a transfer instead of denying an ineligible cancellation, quoting the policy: 74ac6290 #8", () => {
    expect(findings("whissle", "74ac6290", ["unneeded_transfer"])).toEqual(["unneeded_transfer@8"]);
    expect(check([user("I need to cancel my reservation SI5UKW."), transfer("wants a refund")])).toEqual([
      [1, POLICY],
    ]);
  });

  it("not a transfer the policy asks for, a flight already flown (said in the transfer's summary): be496f78", () => {
    expect(findings("whissle", "be496f78", ["unneeded_transfer"])).toEqual([]);
  });

  it("not a request the user declines ('I really don’t want to cancel and rebook')", () => {
    expect(check([user("I really don’t want to cancel and rebook."), transfer("upset")])).toEqual([]);
  });

  it("not where the reference solution does what was asked, or the label says transfer", () => {
    const messages = [user("Please cancel my reservation."), transfer("cancel")];
    expect(check(messages, { task: task([action("cancel_reservation", { reservation_id: "X" })]) })).toEqual(
      [],
    );
    expect(check(messages, { shouldTransfer: 1 })).toEqual([]);
    expect(check(messages, { policyText: "No sentence on transfers." })).toEqual([]);
  });
});
