/** report.html and report.md built from hand-made data whose every string is hostile. */
import { describe, expect, it } from "vitest";
import { NO_REPEATS } from "../../src/analysis/noise-views.ts";
import type { ComparisonSummary } from "../../src/analysis/summary.ts";
import type { ConversationView } from "../../src/report/conversation-data.ts";
import type { ComparisonData, ReportData } from "../../src/report/data.ts";
import type { FlipDrilldown } from "../../src/report/drilldown.ts";
import { escapeHtml, escapeMarkdown } from "../../src/report/escape.ts";
import { chartMinWidth, renderHtml } from "../../src/report/html.ts";
import { capRows, moreLine, renderMarkdown } from "../../src/report/markdown.ts";

const EVIL = `x|y</td><img src=x onerror=alert(1)>\`code\`\n# heading`;

const evidenceBase = {
  sim_key: "k",
  grader: "structured",
  seq: 0,
  message_index: null,
  turn_idx: null,
  tool_call_id: null,
  tool_name: null,
  actor: null,
  arguments: null,
  db: null,
  path: null,
  initial_value: null,
  gold_value: null,
  predicted_value: null,
  quote: null,
  excerpt: null,
};
const causeBase = {
  sim_key: "k",
  grader: "structured",
  gates: true,
  review: null,
  message_index: null,
  turn_idx: null,
  tool_call_id: null,
  tool_name: null,
  actor: null,
};

const flip: FlipDrilldown = {
  flip: {
    comparison: "tau3-vs-structured",
    baseline: "tau3",
    candidate: "structured",
    failing_grader: "structured",
    sim_key: "k".repeat(64),
    simulation_id: EVIL,
    domain: "airline",
    task_version: "head",
    task_id: EVIL,
    trial: 0,
    model: EVIL,
    path: `../${EVIL}.json`,
    direction: "pass_to_fail",
    excluded: false,
    review: "unreviewed",
  },
  causes: [
    {
      ...causeBase,
      seq: 0,
      kind: "requirement",
      reference: EVIL,
      message: EVIL,
      message_index: 16,
      turn_idx: 16,
      tool_call_id: EVIL,
      tool_name: "transfer_to_human_agents",
      actor: "agent",
      evidence: [
        {
          ...evidenceBase,
          cause_seq: 0,
          code: "requirement.violation",
          message: EVIL,
          message_index: 16,
          turn_idx: 16,
          tool_call_id: EVIL,
          tool_name: "transfer_to_human_agents",
          actor: "agent",
          arguments: `{"summary": "${EVIL}"}`,
          quote: EVIL,
          excerpt: EVIL,
        },
      ],
    },
    {
      ...causeBase,
      seq: 1,
      kind: "unlicensed_write",
      reference: "reservations.X.status",
      message: EVIL,
      evidence: [
        {
          ...evidenceBase,
          cause_seq: 1,
          code: "delta_gate.field",
          message: EVIL,
          db: "agent",
          path: "reservations.X.status",
          initial_value: '"active"',
          gold_value: '"active"',
          predicted_value: `"${EVIL}"`,
        },
      ],
    },
    {
      ...causeBase,
      seq: 2,
      kind: "policy_rule",
      reference: "r1",
      message: EVIL,
      message_index: 3,
      turn_idx: 3,
      tool_name: EVIL,
      evidence: [
        {
          ...evidenceBase,
          cause_seq: 2,
          code: "r1",
          message: EVIL,
          message_index: 3,
          turn_idx: 3,
          excerpt: EVIL,
        },
      ],
    },
    {
      ...causeBase,
      seq: 3,
      kind: "format_error",
      reference: "format.empty_message",
      message: EVIL,
      evidence: [],
    },
  ],
  reported: [],
  other: [],
};

const LONG_RESULT = `${EVIL}\n`.repeat(40);

/** The flip's conversation, every string hostile: task text, gold actions, messages, tool calls and results. */
const conversation: ConversationView = {
  sim: {
    sim_key: flip.flip.sim_key,
    simulation_id: EVIL,
    path: EVIL,
    domain: "airline",
    task_version: EVIL,
    task_id: EVIL,
    trial: 0,
    model: EVIL,
    excluded: false,
    exclusion_reason: null,
    fingerprint: "f".repeat(64),
  },
  verdicts: [
    { grader: "tau3", pass: true },
    { grader: "structured", pass: false },
  ],
  flips: [
    {
      comparison: "tau3-vs-structured",
      direction: "pass_to_fail",
      failing_grader: "structured",
      review: "unreviewed",
    },
  ],
  task: {
    persona: EVIL,
    instructions: JSON.stringify({ reason_for_call: EVIL, task_instructions: EVIL }),
    ticket: null,
    criteria: JSON.stringify({ actions: [{ name: EVIL, arguments: { x: EVIL }, requestor: "assistant" }] }),
  },
  components: [
    { grader: "tau3", component: "DB", score: 1, in_basis: true, vacuous: false },
    { grader: "tau3", component: "COMMUNICATE", score: 1, in_basis: true, vacuous: true },
  ],
  causes: flip.causes,
  messages: [
    {
      message_index: 0,
      role: "assistant",
      content: EVIL,
      tool_calls: null,
      tool_call_id: null,
      tool_error: null,
      turn_idx: 0,
    },
    {
      message_index: 3,
      role: "assistant",
      content: null,
      tool_calls: JSON.stringify([{ id: EVIL, name: EVIL, arguments: { summary: EVIL } }]),
      tool_call_id: null,
      tool_error: null,
      turn_idx: 3,
    },
    {
      message_index: 4,
      role: "tool",
      content: LONG_RESULT,
      tool_calls: null,
      tool_call_id: EVIL,
      tool_error: true,
      turn_idx: 4,
    },
    {
      message_index: 16,
      role: "assistant",
      content: EVIL,
      tool_calls: null,
      tool_call_id: null,
      tool_error: null,
      turn_idx: 16,
    },
  ],
  writes: new Set([3]),
  nl: [
    {
      seq: 0,
      assertion: "Agent refuses <b>the</b> refund",
      met: false,
      reasoning: EVIL,
      judge_model: "gpt-4.1-2025-04-14",
      cache_key: "ab".repeat(32),
      degenerate: null,
    },
  ],
};

/** One comparison's summary; the headline's rank agreement is τ-b -1 over a bootstrap interval. */
const comparisonSummary = (baseline: string, candidate: string, headline: boolean): ComparisonSummary => ({
  baseline,
  candidate,
  headline,
  paired: 1,
  flips: { pass_to_fail: headline ? 1 : 0, fail_to_pass: 0 },
  flip_rate: { value: headline ? 1 : 0, lo: 0.2, hi: 1 },
  pass_rates: { baseline: 1, candidate: 0 },
  mcnemar: { b: 1, c: 0, method: "exact_binomial", p_value: 1 },
  reviews: { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 1 },
  confirmed_flip_rate: { value: 0, lo: 0, hi: 0.8 },
  precision: { value: null, lo: null, hi: null },
  recall: { value: null, lo: null, hi: null, real_violations: 0, caught: 0 },
  // The headline's sample: 2 missed of 10 judged (Wilson 95% 5.7% to 51.0%); the other has none.
  miss_rate: headline
    ? {
        value: 0.2,
        lo: 0.0567,
        hi: 0.5098,
        sampled: 11,
        clean: 8,
        missed: 2,
        unclear: 1,
        stale: 1,
        both_pass: 300,
        weighted: null,
        seeds: [7],
      }
    : {
        value: null,
        lo: null,
        hi: null,
        sampled: 0,
        clean: 0,
        missed: 0,
        unclear: 0,
        stale: 0,
        both_pass: 0,
        weighted: null,
        seeds: [],
      },
  reward_agreement: { with_baseline_reward: 1, same_reward: 0 },
  rankings: {
    airline: {
      task_version: "head",
      kendall_tau_b: headline ? -1 : 1,
      kendall_tau_b_ci: headline ? [-1, 0.5] : [1, 1],
      swapped_pairs: headline ? [[EVIL, "other"]] : [],
    },
  },
});

const section = (seq: number, baseline: string, candidate: string): ComparisonData => {
  const comparison = `${baseline}-vs-${candidate}`;
  return {
    ref: { seq, comparison, baseline, candidate },
    headline: seq === 1,
    flipCount: seq === 1 ? 1 : 0,
    domains: [],
    coverage: [],
    noise: [],
    rankingNoise: [
      {
        model_a: EVIL,
        model_b: "m2",
        baseline_a: 0.5,
        baseline_b: 0.25,
        grader_swaps: true,
        rerun_swap_share: seq === 1 ? 0.25 : null,
      },
      {
        model_a: "m2",
        model_b: "m3",
        baseline_a: 0.25,
        baseline_b: 0.5,
        grader_swaps: false,
        rerun_swap_share: seq === 1 ? 0.1 : null,
      },
      {
        model_a: "m3",
        model_b: "m4",
        baseline_a: 0.5,
        baseline_b: 0.5,
        grader_swaps: false,
        rerun_swap_share: null,
      },
    ].map((r) => ({
      ...r,
      comparison,
      domain: "airline",
      task_version: "head",
      repeated: seq === 1 && r.model_b !== "m4",
    })),
    flipRates: [],
    mcnemar: [],
    ranking: [
      {
        domain: "airline",
        task_version: "head",
        model: EVIL,
        baseline_pass1: 1,
        baseline_lo: 0.2,
        baseline_hi: 1,
        baseline_rank: 1,
        candidate_pass1: 0,
        candidate_lo: 0,
        candidate_hi: 0.8,
        candidate_rank: 2,
      },
    ],
    agreement: [],
    swapped:
      seq === 1
        ? [{ comparison, domain: "airline", task_version: "head", model_a: EVIL, model_b: "other" }]
        : [],
    flipsByCause: [],
    causeKinds: [],
    actions: [],
    missRates:
      seq === 1
        ? [
            {
              comparison,
              domain: EVIL,
              both_pass: 300,
              sampled: 11,
              clean: 8,
              missed: 2,
              unclear: 1,
              miss_rate: 0.2,
              miss_rate_lo: 0.0567,
              miss_rate_hi: 0.5098,
              stale: 1,
              seeds: "7",
            },
          ]
        : [],
  };
};

const data: ReportData = {
  summary: {
    run: null,
    simulations: 1,
    graded: 1,
    errors: 0,
    flips: { pass_to_fail: 1, fail_to_pass: 0 },
    excluded_files: [{ path: EVIL, reason: EVIL, simulations: 3 }],
    excluded_tasks: [{ domain: "airline", task_version: null, task_id: EVIL, reason: EVIL, simulations: 2 }],
    published_vs_reproduced: [
      {
        submission: EVIL,
        model_name: EVIL,
        domain: "airline",
        published_pass_1: 0.9,
        baseline: "tau3",
        baseline_pass_1: 0.5,
        baseline_lo: 0.4,
        baseline_hi: 0.6,
        baseline_difference: -0.4,
        candidate: "structured",
        candidate_pass_1: 0.45,
        candidate_lo: 0.35,
        candidate_hi: 0.55,
        candidate_difference: -0.45,
        simulations: 50,
        tasks: 50,
        set_tasks: 50,
        min_trials: 1,
        max_trials: 1,
        files: 1,
        task_versions: EVIL,
        infrastructure_errors: "drop",
        reproduced: false,
        reason: EVIL,
        verdict: "no",
      },
      {
        submission: "cascade",
        model_name: EVIL,
        domain: "airline",
        published_pass_1: 0.98,
        baseline: "tau3",
        baseline_pass_1: 1,
        baseline_lo: 0.93,
        baseline_hi: 1,
        baseline_difference: 0.02,
        candidate: "structured",
        candidate_pass_1: 0.96,
        candidate_lo: 0.86,
        candidate_hi: 0.99,
        candidate_difference: -0.02,
        simulations: 49,
        tasks: 49,
        set_tasks: 50,
        min_trials: 1,
        max_trials: 1,
        files: 1,
        task_versions: "head",
        infrastructure_errors: "drop",
        reproduced: null,
        reason: null,
        verdict: `not judged (excluded: ${EVIL})`,
      },
      {
        submission: "cascade",
        model_name: EVIL,
        domain: "retail",
        published_pass_1: 0.9825,
        baseline: "tau3",
        baseline_pass_1: null,
        baseline_lo: null,
        baseline_hi: null,
        baseline_difference: null,
        candidate: "structured",
        candidate_pass_1: null,
        candidate_lo: null,
        candidate_hi: null,
        candidate_difference: null,
        simulations: 0,
        tasks: 0,
        set_tasks: null,
        min_trials: null,
        max_trials: null,
        files: 0,
        task_versions: null,
        infrastructure_errors: "drop",
        reproduced: null,
        reason: null,
        verdict: "no trajectories for this domain",
      },
    ],
    submissions_without_trajectories: [
      {
        submission: EVIL,
        model_name: EVIL,
        submitting_organization: EVIL,
        submission_date: "2026-01-01",
        published_pass_1: EVIL,
        error: null,
      },
    ],
    reviews: {
      confirmed: 0,
      false_positive: 0,
      unclear: 0,
      unreviewed: 4,
      stale: 0,
      flips: { confirmed: 0, false_positive: 0, unclear: 0, unreviewed: 1 },
      gates: {},
    },
    vacuous_passes: [],
    by_domain: { airline: { tau3_pass_rate: 1, structured_pass_rate: 0, pass_to_fail: 1, fail_to_pass: 0 } },
    ranking: {
      airline: {
        task_version: "head",
        models: [{ model: EVIL, tau3_pass1: 1, structured_pass1: 0, tau3_rank: 1, structured_rank: 2 }],
        kendall_tau_b: -1,
        kendall_tau_b_ci: [-1, 0.5],
        swapped_pairs: [[EVIL, "other"]],
      },
    },
    comparisons: {
      "tau3-vs-structured": comparisonSummary("tau3", "structured", true),
      "structured-vs-structured_strict": comparisonSummary("structured", "structured_strict", false),
    },
  },
  comparisons: [section(1, "tau3", "structured"), section(2, "structured", "structured_strict")],
  flipCount: 1,
  vacuous: [],
  probeCensus: null,
  drilldown: [flip],
  meta: { writtenAt: "2026-12-01T00:00:00.000Z", reviewsSource: EVIL, allConversations: false },
  precisionByKind: [],
  precisionByRule: [],
  staleReviews: [],
  errorList: [],
  errorCauses: [],
  notTrajectories: [],
  conversations: [conversation],
};

describe("renderHtml", () => {
  const page = renderHtml(data, []);

  it("escapes every untrusted string", () => {
    expect(page).not.toContain("<img");
    expect(page).not.toContain("</td><img");
    expect(page.match(/<script/g)?.length).toBe(1);
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("sets the grader's swaps of ranked pairs beside re-running's, or says no entry was re-run", () => {
    const [first, second] = page.split('<section class="comparison"').slice(1);
    expect(first).toContain("changing the grader swaps 1 of 3 pair(s) of ranked entries");
    expect(first).toMatch(/<td>yes<\/td><td[^>]*>25\.0%<\/td>/);
    expect(first).toContain("m3 &gt; m2");
    expect(first).not.toContain("m4");
    expect(second).toContain(`No ranked entry ran a task more than once: <strong>${NO_REPEATS}</strong>`);
  });

  it("shows each cause with its evidence: requirement quote, field values, policy rule, format error", () => {
    expect(page.match(/<tr class="flip">/g)?.length).toBe(1);
    for (const kind of ["requirement", "unlicensed_write", "policy_rule", "format_error"])
      expect(page).toContain(`ev gating ${kind}`);
    expect(page).toContain("(turn 16, message 16, tool call");
    expect(page).toContain("by the agent");
    expect(page).toContain('initial <code>"active"</code>'); // element text: quotes need no escaping
  });

  it("shows the conversation with an anchor per message, evidence turns marked and long tool results folded", () => {
    const key = flip.flip.sim_key.slice(0, 16);
    expect(page).toContain(`<section class="conv" id="sim-${key}">`);
    for (const i of [0, 3, 4, 16]) expect(page).toContain(`id="m-${key}-${i}"`);
    // The requirement cause (turn 16) and the policy rule (turn 3) link to their turns; those are highlighted.
    expect(page).toContain(`href="#m-${key}-16"`);
    expect(page).toMatch(new RegExp(`id="m-${key}-16" class="msg assistant hit"`));
    expect(page).toMatch(new RegExp(`id="m-${key}-3" class="msg assistant hit write"`));
    expect(page).toMatch(new RegExp(`id="m-${key}-0" class="msg assistant"`));
    expect(page).toContain(`<details><summary>tool result, ${LONG_RESULT.length} characters`);
    expect(page).toContain('<span class="badge vacuous"');
    expect(page).toContain("Gold actions (1)");
  });

  it("shows the live judge's verdict and reasoning per NL assertion, escaped", () => {
    expect(page).toContain("NL assertions as the judge (gpt-4.1-2025-04-14) judged them");
    expect(page).toContain("Agent refuses &lt;b&gt;the&lt;/b&gt; refund");
    expect(page).toContain('<td class="fail">no</td>');
    expect(page).toContain(`reply <code>${"ab".repeat(6)}</code>`);
  });

  it("has a section per comparison, the headline first, each opening with its headline numbers", () => {
    const sections = [...page.matchAll(/<section class="comparison" id="([^"]+)">\n<h2>([^<]*)/g)];
    expect(sections.map((m) => [m[1], m[2]])).toEqual([
      ["cmp-tau3-vs-structured", "τ³ → structured "],
      ["cmp-structured-vs-structured_strict", "structured → structured, strict gate "],
    ]);
    const first = page.slice(sections[0]!.index, sections[1]!.index);
    expect(first).toContain('<span class="badge">headline</span>');
    // Its numbers before anything else of the section: the headline boxes, then the tables and charts.
    const boxes = first.indexOf('<div class="headline">');
    expect(boxes).toBeGreaterThan(0);
    expect(first.indexOf("<table")).toBeGreaterThan(boxes);
    const block = first.slice(boxes, first.indexOf("<table"));
    for (const label of [
      "flips pass → fail",
      "flip rate",
      "McNemar p",
      "Kendall τ-b, airline",
      "swapped pairs",
      "confirmed-only flip rate",
      "precision",
      "recall",
    ])
      expect(block, label).toContain(`</b>${label}`);
    expect(first).toContain('<b>-1.000</b>Kendall τ-b, airline <span class="muted">[-1.000, 0.500]</span>');
    // The second comparison's flips are its own (none), its ranking names its own sides.
    const second = page.slice(sections[1]!.index);
    expect(second).toContain("<b>0</b>flips pass → fail");
    expect(second).toContain("structured, strict gate rank");
    expect(page.indexOf("cmp-tau3-vs-structured")).toBeLessThan(
      page.indexOf("cmp-structured-vs-structured_strict"),
    );
  });

  it("shows each comparison's miss rate from sampled reviews next to its precision, and per domain", () => {
    const sections = [...page.matchAll(/<section class="comparison" id="([^"]+)">/g)];
    const first = page.slice(sections[0]!.index, sections[1]!.index);
    const second = page.slice(sections[1]!.index);
    const boxes = first.slice(first.indexOf('<div class="headline">'), first.indexOf("<table"));
    expect(boxes).toContain(
      '<b>20.0%</b>miss rate (2 missed / 10 sampled) <span class="muted">[5.7%, 51.0%]</span>',
    );
    expect(boxes.indexOf("</b>miss rate")).toBeGreaterThan(boxes.indexOf("</b>precision"));
    expect(first).toContain("Miss rate per domain (sampled simulations both sides pass)");
    expect(first).toContain(
      '<td class="num">300</td><td class="num">11</td><td class="num">8</td><td class="num">2</td>',
    );
    expect(first).toContain('<td data-sort="0.2" class="num">20.0% [5.7%, 51.0%]</td>');
    expect(second).toContain('<b>–</b>miss rate <span class="muted">no sampled review</span>');
    expect(second).not.toContain("Miss rate per domain");
  });

  it("states a not-judged domain and a published domain without trajectories in the published table", () => {
    const published = page.slice(
      page.indexOf('id="published-table"'),
      page.indexOf('id="published-without"'),
    );
    // The last cell of each row: its text (a cell carries data-sort only where it differs from the text).
    const verdicts = [...published.matchAll(/<td>([^<]*)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(verdicts).toEqual([
      `no: ${escapeHtml(EVIL)}`,
      `not judged (excluded: ${escapeHtml(EVIL)})`,
      "no trajectories for this domain",
    ]);
  });

  it("forbids network access and any inline script but its own", () => {
    // The attribute value is escaped like any other: &#39; is a quote once parsed.
    const csp = /Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]?.replaceAll("&#39;", "'");
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'; img-src data: 'self'$/,
    );
    expect(page).not.toMatch(/\s(src|href)="(https?:)?\/\//);
  });
});

describe("renderMarkdown", () => {
  const md = renderMarkdown(data, []);
  it("states a not-judged domain with the exclusion's reason and a published domain without trajectories", () => {
    const published = md.slice(md.indexOf("## Published"), md.indexOf("Submissions without trajectories"));
    const cells = (domain: string) =>
      published
        .split("\n")
        .find((l) => l.includes(`(cascade) | ${domain} |`))
        ?.split(/(?<!\\)\|/)
        .map((c) => c.trim());
    expect(cells("airline")?.[9]).toBe(`not judged (excluded: ${escapeMarkdown(EVIL)})`);
    expect(cells("retail")?.slice(3, 10)).toEqual([
      "98.3%",
      "–",
      "–",
      "0",
      "0",
      "–",
      "no trajectories for this domain",
    ]);
    expect(published).not.toMatch(/\| yes \|/);
  });

  it("keeps every table row at its column count and no raw HTML", () => {
    const flipRow = md.split("\n").find((l) => l.startsWith("| airline | x"));
    expect(flipRow).toBeDefined();
    expect(flipRow!.match(/(?<!\\)\|/g)?.length).toBe(9); // eight columns (the review is the last)
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md.split("\n").filter((l) => l.startsWith("# ")).length).toBe(1); // only the title
  });

  it("states the grader's swaps of ranked pairs beside re-running's in one line", () => {
    expect(md).toContain(
      "the grader swaps 1 of 3 ranked pair(s); a re-run swaps a pair with repeated runs in 17.5% of resamples (median of 2)",
    );
    expect(md.match(/Ranking beside re-running/g)).toHaveLength(1);
  });

  it("states the headline numbers and the rank agreement", () => {
    expect(md).toContain("**1** simulations");
    expect(md).toContain("Kendall τ-b -1.000 (bootstrap 95% CI -1.000 to 0.500)");
  });

  it("states each comparison's miss rate with its sample, and a table per domain where one was sampled", () => {
    const heads = md.split("\n").filter((l) => l.startsWith("## ") && l.includes("→"));
    const first = md.slice(md.indexOf(heads[0]!), md.indexOf(heads[1]!));
    const second = md.slice(md.indexOf(heads[1]!));
    expect(first).toContain(
      "miss rate 20.0% [5.7%, 51.0%] (2 missed of 10 sampled both-pass simulations judged, 1 unclear, 1 stale; seeds 7)",
    );
    expect(first.indexOf("miss rate 20.0%")).toBeGreaterThan(first.indexOf("precision "));
    expect(first).toContain(
      "| domain | both pass | sampled | clean | missed | unclear | miss rate [95% CI] | stale | seeds |",
    );
    expect(first).toContain("| 300 | 11 | 8 | 2 | 1 | 20.0% [5.7%, 51.0%] | 1 | 7 |");
    expect(second).toContain("miss rate not measured (no sampled review)");
    expect(second).not.toContain("| both pass |");
  });

  it("has a section per comparison, the headline first", () => {
    const heads = md.split("\n").filter((l) => l.startsWith("## ") && l.includes("→"));
    expect(heads).toEqual([
      "## τ³ → structured (`tau3-vs-structured`) — headline",
      "## structured → structured, strict gate (`structured-vs-structured_strict`)",
    ]);
    // The headline's rank agreement is in its own section, before the second one.
    expect(md.indexOf("Kendall τ-b -1.000")).toBeLessThan(md.indexOf(heads[1]!));
    expect(md.indexOf("Kendall τ-b 1.000")).toBeGreaterThan(md.indexOf(heads[1]!));
  });
});

describe("a lighter report", () => {
  it("caps a Markdown table, the rows picked first ahead, and says how many more the exports hold", () => {
    const rows = [1, 2, 3, 4, 5, 6];
    expect(capRows(rows, 3, (r) => r % 2 === 0)).toEqual({ shown: [2, 4, 6], more: 3 });
    expect(capRows(rows, 10)).toEqual({ shown: rows, more: 0 });
    expect(moreLine(3, "flips", "report.html")).toEqual(["3 more flips in report.html.", ""]);
    expect(moreLine(0, "flips", "report.html")).toEqual([]);
  });

  it("keeps a chart wide enough that its smallest text stays at 10 px", () => {
    const svg =
      '<svg width="800" height="400"><text font-size="11px">a</text><text font-size="8px">b</text></svg>';
    expect(chartMinWidth(svg)).toBe(1000); // 8 px text needs 10/8 of the width
    expect(chartMinWidth(svg.replace('"8px"', '"12px"'))).toBe(728); // 11 px text may shrink to 10
    expect(chartMinWidth('<svg width="10" height="10"></svg>')).toBeNull();
  });
});
