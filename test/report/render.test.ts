/** report.html and report.md built from hand-made data whose every string is hostile. */
import { describe, expect, it } from "vitest";
import type { ReportData } from "../../src/report/data.ts";
import type { FlipDrilldown } from "../../src/report/drilldown.ts";
import { renderHtml } from "../../src/report/html.ts";
import { renderMarkdown } from "../../src/report/markdown.ts";

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
  message_index: null,
  turn_idx: null,
  tool_call_id: null,
  tool_name: null,
  actor: null,
};

const flip: FlipDrilldown = {
  flip: {
    sim_key: "k".repeat(64),
    simulation_id: EVIL,
    domain: "airline",
    task_version: "head",
    task_id: EVIL,
    trial: 0,
    model: EVIL,
    path: `../${EVIL}.json`,
    direction: "pass_to_fail",
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
      kind: "delta_gate_field",
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
  tau3: [],
};

const data: ReportData = {
  summary: {
    run: null,
    simulations: 1,
    graded: 1,
    errors: 0,
    flips: { pass_to_fail: 1, fail_to_pass: 0 },
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
  },
  flipCount: 1,
  flipRates: [],
  ranking: [],
  agreement: [],
  swapped: [{ domain: "airline", task_version: "head", model_a: EVIL, model_b: "other" }],
  flipsByCause: [],
  actions: [],
  mcnemar: [],
  vacuous: [],
  probeCensus: null,
  drilldown: [flip],
};

describe("renderHtml", () => {
  const page = renderHtml(data, []);

  it("escapes every untrusted string", () => {
    expect(page).not.toContain("<img");
    expect(page).not.toContain("</td><img");
    expect(page.match(/<script/g)?.length).toBe(1);
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("shows each cause with its evidence: requirement quote, field values, policy rule, format error", () => {
    expect(page.match(/<tr class="flip">/g)?.length).toBe(1);
    for (const kind of ["requirement", "delta_gate_field", "policy_rule", "format_error"])
      expect(page).toContain(`ev gating ${kind}`);
    expect(page).toContain("(turn 16, message 16, tool call");
    expect(page).toContain("by the agent");
    expect(page).toContain("initial <code>&quot;active&quot;</code>");
  });

  it("forbids network access and any inline script but its own", () => {
    // The attribute value is escaped like any other: &#39; is a quote once parsed.
    const csp = /Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]?.replaceAll("&#39;", "'");
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:$/,
    );
    expect(page).not.toMatch(/\s(src|href)="(https?:)?\/\//);
  });
});

describe("renderMarkdown", () => {
  const md = renderMarkdown(data, []);

  it("keeps every table row at its column count and no raw HTML", () => {
    const flipRow = md.split("\n").find((l) => l.startsWith("| airline | x"));
    expect(flipRow).toBeDefined();
    expect(flipRow!.match(/(?<!\\)\|/g)?.length).toBe(7); // six columns
    expect(md).not.toMatch(/(?<!\\)<img/);
    expect(md.split("\n").filter((l) => l.startsWith("# ")).length).toBe(1); // only the title
  });

  it("states the headline numbers and the rank agreement", () => {
    expect(md).toContain("**1** simulations");
    expect(md).toContain("Kendall τ-b -1.000 (bootstrap 95% CI -1.000 to 0.500)");
  });
});
