/**
 * Every file of the shared corpus loads, with every simulation accounted for. Expected values are the
 * facts in corpus/PROVENANCE.md (simulation counts, recorded passes, task versions).
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadJsonFile, loadTrajectoryFile } from "../../src/formats/load.ts";
import type { TrajectoryFile } from "../../src/formats/model.ts";
import { detectTaskVersion } from "../../src/formats/task-version.ts";
import { PyFloat } from "../../src/py/value.ts";
import { CORPUS_DIR, corpusFile, DATA_DIR } from "./paths.ts";

interface Expected {
  variant: TrajectoryFile["variant"];
  domain: string;
  agent: string | null;
  user: string | null;
  sims: number;
  passes: number;
  version: string;
}

const V0 = "v0.2.0_f8de30c";
const FG = "sierra-tau2-bench__branch-feature-gym__experiments/";
const IRON = "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/";
const TRACE = "sierra-tau2-bench__pr170-tau2-trace/";
const r = (
  domain: string,
  agent: string,
  user: string,
  sims: number,
  passes: number,
  version = V0,
): Expected => ({
  variant: "tau2-results",
  domain,
  agent,
  user,
  sims,
  passes,
  version,
});

const EXPECTED: Record<string, Expected> = {
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json": r(
    "airline",
    "gemini/gemini-2.5-flash",
    "gemini/gemini-2.5-flash",
    20,
    12,
  ),
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t_context_agent.json": r(
    "airline",
    "gemini/gemini-2.5-flash",
    "gemini/gemini-2.5-flash",
    20,
    12,
  ),
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t_enhanced_agent.json": r(
    "airline",
    "gemini/gemini-2.5-flash",
    "gemini/gemini-2.5-flash",
    20,
    11,
  ),
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t_retry_agent.json": r(
    "airline",
    "gemini/gemini-2.5-flash",
    "gemini/gemini-2.5-flash",
    20,
    12,
  ),
  "sierra-tau-bench-v1__historical_trajectories/gpt-4o-airline.json": {
    variant: "tau-bench-v1",
    domain: "airline",
    agent: "gpt-4o",
    user: null,
    sims: 200,
    passes: 84,
    version: "tau-bench-v1",
  },
  [`${FG}ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm_airline_default_gpt-4.1_1trials.json`]: r(
    "airline",
    "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm",
    "gpt-4.1",
    20,
    13,
  ),
  [`${FG}ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm_telecom_no-user_gpt-4.1_1trials.json`]: r(
    "telecom",
    "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm",
    "gpt-4.1",
    40,
    34,
  ),
  [`${FG}gpt-4.1-2025-04-14_telecom_no-user_gpt-4.1-2025-04-14_4trials_5tasks.json`]: r(
    "telecom",
    "gpt-4.1-2025-04-14",
    "gpt-4.1-2025-04-14",
    20,
    16,
  ),
  [`${FG}gpt-4.1_airline_default_gpt-4.1_1trials.json`]: r("airline", "gpt-4.1", "gpt-4.1", 20, 10),
  [`${FG}gpt-4.1_retail_defautl_gpt-4.1_1trials.json`]: r("retail", "gpt-4.1", "gpt-4.1", 40, 34),
  [`${FG}gpt-4.1_telecom_default_gpt-4.1_1trials.json`]: r("telecom", "gpt-4.1", "gpt-4.1", 40, 18),
  [`${FG}gpt-4.1_telecom_no-user_gpt-4.1_1trials.json`]: r("telecom", "gpt-4.1", "gpt-4.1", 40, 20),
  [`${FG}qwen2.5:7b_airline_default_gpt-4.1-2025-04-14_1trials.json`]: r(
    "airline",
    "ollama_chat/qwen2.5:7b",
    "gpt-4.1-2025-04-14",
    50,
    9,
  ),
  "sierra-tau2-bench__leaderboard-pr__adaptive-agent_community_2026-03-23/adaptive_agent_airline_opus46_cascata.json":
    {
      variant: "domain-simulations",
      domain: "airline",
      agent: "claude-opus-4-6",
      user: null,
      sims: 50,
      passes: 49,
      version: "none",
    },
  "sierra-tau2-bench__leaderboard-pr__adaptive-agent_ironshell-ui_2026-03-22/adaptive-agent_airline_claude-opus-4-6_1trial.json":
    {
      variant: "bare-simulations",
      domain: "airline",
      agent: null,
      user: null,
      sims: 50,
      passes: 49,
      version: "none",
    },
  "sierra-tau2-bench__leaderboard-pr__button-claude-opus-4-6_distyl-ai_2026-03-04/airline.json": r(
    "airline",
    "claude-opus-4-6",
    "gpt-4.1",
    50,
    38,
  ),
  "sierra-tau2-bench__leaderboard-pr__claude-sonnet-4-5_aide-platform_2025-10-31/claude-sonnet-4-5_airline_default_gpt4.1_1trials.json":
    r("airline", "claude-sonnet-4-5", "gpt-4.1", 50, 36),
  "sierra-tau2-bench__leaderboard-pr__gpt-oss-120b_openai_2025-11-26/langchain_agent_airline_2025-11-26_00-37-06.json":
    r("airline", "openai/gpt-oss-120b", "openai/gpt-oss-120b", 50, 19),
  [`${IRON}ironshell_airline_opus46_run1.json`]: r("airline", "claude-opus-4-6", "gpt-4.1", 44, 31),
  [`${IRON}ironshell_ironforge_grok3_wave2.json`]: r("airline", "xai/grok-3", "gpt-4.1", 8, 2),
  [`${IRON}ironshell_ironforge_o3_wave2.json`]: r("airline", "o3", "gpt-4.1", 9, 3),
  [`${IRON}ironshell_ironforge_v2_gpt54.json`]: r("airline", "gpt-5.4", "gpt-4.1", 7, 2),
  [`${IRON}ironshell_ironforge_v2_sonnet46.json`]: r("airline", "claude-sonnet-4-6", "gpt-4.1", 7, 2),
  [`${IRON}ironshell_ironforge_v3_deepseek.json`]: r("airline", "deepseek/deepseek-chat", "gpt-4.1", 4, 1),
  "sierra-tau2-bench__leaderboard-pr__toolorchestra_nvidia_2025-12-02/toolorchestra_retail_gpt-5_1trial.json":
    r("retail", "gpt-4.1-mini-2025-04-14", "gpt-4.1-2025-04-14", 114, 96),
  "sierra-tau2-bench__pr103-judge-viewer/azure-airline-full.json": r(
    "airline",
    "azure/gpt-4o-2024-11-20",
    "azure/gpt-4o-2024-11-20",
    50,
    23,
  ),
  "sierra-tau2-bench__pr17-telecom-gpt-4o/2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json":
    r("telecom", "gpt-4o", "gpt-4o", 20, 14, "head/tasks_small"),
  // The one airline task of this file is unchanged between v0.x and HEAD; the tie rule prefers head.
  [`${TRACE}e2e_airline_baseline.json`]: r("airline", "gpt-4.1-mini", "gpt-4.1-mini", 1, 1, "head"),
  [`${TRACE}e2e_mock_baseline.json`]: r("mock", "gpt-4.1-mini", "gpt-4.1-mini", 1, 1, "head"),
  [`${TRACE}e2e_retail_baseline.json`]: r("retail", "gpt-4.1-mini", "gpt-4.1-mini", 1, 1),
  [`${TRACE}e2e_telecom_adversarial.json`]: r(
    "telecom",
    "gpt-4.1-mini",
    "gpt-4.1-mini",
    1,
    0,
    "head/tasks_small",
  ),
  [`${TRACE}e2e_telecom_baseline.json`]: r(
    "telecom",
    "gpt-4.1-mini",
    "gpt-4.1-mini",
    1,
    1,
    "head/tasks_small",
  ),
  "sierra-tau2-bench__pr448-whissle/airline_run1.json": {
    ...r("airline", "whissle", "gpt-4o", 50, 28, "head"),
    variant: "tau2-runner",
  },
};

function allJsonFiles(): string[] {
  return readdirSync(CORPUS_DIR, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".json"))
    .sort();
}

const passes = (f: TrajectoryFile): number =>
  f.simulations.filter((s) => s.reward_info?.reward != null && Math.abs(s.reward_info.reward - 1) <= 1e-6)
    .length;

describe("corpus: every trajectory file loads with all simulations", () => {
  for (const [relative, expected] of Object.entries(EXPECTED)) {
    it(relative, () => {
      const file = loadTrajectoryFile(corpusFile(relative));
      expect(file.rejected).toEqual([]);
      expect({
        variant: file.variant,
        domain: file.info.domain,
        agent: file.info.agent_model,
        user: file.info.user_model,
        sims: file.simulations.length,
        passes: passes(file),
        version: detectTaskVersion(file, DATA_DIR).version,
      }).toEqual(expected);
    });
  }

  it("classifies every other JSON file of the corpus as not-trajectories", () => {
    const others = allJsonFiles().filter((p) => !(p in EXPECTED));
    // 52 head submission.json + 7 PR submission.json + 4 judge summaries + 4 JSONL judge outputs + pr344 example
    expect(others).toHaveLength(68);
    const reasons = new Map<string, string>();
    for (const p of others) {
      const loaded = loadJsonFile(corpusFile(p));
      expect(loaded.variant, p).toBe("not-trajectories");
      if (loaded.variant === "not-trajectories") reasons.set(p, loaded.reason);
    }
    expect(
      reasons.get("sierra-tau2-bench__pr103-judge-viewer/airline-multi-judge-full_quick_triage_v1.json"),
    ).toBe("JSON Lines (50 records), not a results file");
    expect(reasons.get("sierra-tau2-bench__pr344-example/tau2_retail_example_trajectory.json")).toMatch(
      /annotated example/,
    );
  });

  it("accounts for every corpus trajectory file", () => {
    const trajectoryFiles = allJsonFiles().filter((p) => p in EXPECTED);
    expect(trajectoryFiles).toHaveLength(Object.keys(EXPECTED).length);
    expect(trajectoryFiles).toHaveLength(33);
  });
});

describe("corpus: details the graders rely on", () => {
  it("keeps termination reasons, solo mode and the one null reward_info of the cascata file", () => {
    const qwen = loadTrajectoryFile(
      corpusFile(`${FG}qwen2.5:7b_airline_default_gpt-4.1-2025-04-14_1trials.json`),
    );
    const reasons = qwen.simulations.map((s) => s.termination_reason);
    expect(reasons.filter((x) => x === "agent_error")).toHaveLength(9);
    const solo = loadTrajectoryFile(corpusFile(`${FG}gpt-4.1_telecom_no-user_gpt-4.1_1trials.json`));
    expect(solo.info).toMatchObject({
      agent_implementation: "llm_agent_solo",
      user_implementation: "dummy_user",
      solo: true,
    });
    const cascata = loadTrajectoryFile(
      corpusFile(
        "sierra-tau2-bench__leaderboard-pr__adaptive-agent_community_2026-03-23/adaptive_agent_airline_opus46_cascata.json",
      ),
    );
    const missing = cascata.simulations.filter((s) => s.reward_info === null);
    expect(missing.map((s) => [s.id, s.termination_reason, s.messages.length])).toEqual([
      ["c7c2fb25-8634-4bd3-b30b-78e52e9c192e", "infrastructure_error", 0],
    ]);
  });

  it("defaults the missing tool-message `error` flag of trimmed ToolOrchestra files to false", () => {
    const file = loadTrajectoryFile(
      corpusFile(
        "sierra-tau2-bench__leaderboard-pr__toolorchestra_nvidia_2025-12-02/toolorchestra_retail_gpt-5_1trial.json",
      ),
    );
    const toolMessages = file.simulations.flatMap((s) => s.messages.filter((m) => m.role === "tool"));
    expect(toolMessages.length).toBeGreaterThan(0);
    expect(
      toolMessages.every((m) => m.role === "tool" && m.error === false && m.requestor !== undefined),
    ).toBe(true);
  });

  it("keeps Python float types of tool-call arguments and gold actions (telecom refuel_data 2.0)", () => {
    const file = loadTrajectoryFile(
      corpusFile(
        "sierra-tau2-bench__pr17-telecom-gpt-4o/2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json",
      ),
    );
    const refuels = file.simulations.flatMap((s) =>
      s.messages.flatMap((m) =>
        (m.role === "assistant" ? (m.tool_calls ?? []) : []).filter((c) => c.name === "refuel_data"),
      ),
    );
    expect(refuels.map((c) => c.arguments)).toEqual([
      { customer_id: "C1001", line_id: "L1001", gb_amount: new PyFloat(2) },
      { customer_id: "C1001", line_id: "L1001", gb_amount: new PyFloat(2) },
    ]);
    for (const c of refuels)
      expect((c.arguments as { gb_amount: unknown }).gb_amount).toBeInstanceOf(PyFloat);
    const gold = file.tasks!.flatMap((t) =>
      (t.evaluation_criteria?.actions ?? []).filter((a) => a.name === "refuel_data"),
    );
    expect(gold.length).toBeGreaterThan(0);
    for (const a of gold) expect(a.arguments.gb_amount).toBeInstanceOf(PyFloat);
    // Other numbers outside arguments stay plain JS numbers.
    expect(typeof file.simulations[0]!.reward_info!.reward).toBe("number");
  });

  it("converts the τ-bench v1 file: 50 tasks, 4 trials, no system prompt, parsed arguments", () => {
    const file = loadTrajectoryFile(
      corpusFile("sierra-tau-bench-v1__historical_trajectories/gpt-4o-airline.json"),
    );
    expect(file.tasks).toHaveLength(50);
    expect(new Set(file.simulations.map((s) => s.trial))).toEqual(new Set([0, 1, 2, 3]));
    const first = file.simulations[0]!;
    expect(first.messages.some((m) => m.role === "system")).toBe(false);
    expect(first.reward_info).toMatchObject({ reward: 0, db_match: false });
    const call = first.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : []))[0];
    expect(call).toEqual({
      id: "call_oIHazX6yQrB8hUwl4cRilFKj",
      name: "get_user_details",
      arguments: { user_id: "mia_li_3668" },
      requestor: "assistant",
    });
    const task0 = file.tasks!.find((t) => t.id === "0")!;
    expect(task0.evaluation_criteria).toMatchObject({
      reward_basis: ["DB", "COMMUNICATE"],
      communicate_info: [],
      actions: [{ action_id: "0", requestor: "assistant", name: "book_reservation", compare_args: null }],
    });
    const payments = task0.evaluation_criteria!.actions![0]!.arguments.payment_methods;
    expect(payments).toEqual([
      { payment_id: "certificate_7504069", amount: 250 },
      { payment_id: "credit_card_4421486", amount: 5 },
    ]);
  });
});
