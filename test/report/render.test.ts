/** report.html and report.md built from hand-made data whose every string is hostile. */
import { describe, expect, it } from "vitest";
import type { ReportData } from "../../src/report/data.ts";
import type { FlipDrilldown } from "../../src/report/drilldown.ts";
import { renderHtml } from "../../src/report/html.ts";
import { renderMarkdown } from "../../src/report/markdown.ts";

const EVIL = `x|y</td><img src=x onerror=alert(1)>\`code\`\n# heading`;

const flip: FlipDrilldown = {
  flip: {
    sim_key: "k".repeat(64),
    domain: "airline",
    task_version: "head",
    task_id: EVIL,
    trial: 0,
    model: EVIL,
    path: `../${EVIL}.json`,
    direction: "pass_to_fail",
    structured_causes: [
      `preflight:${EVIL}`,
      "delta_gate:reservations.X.status",
      "policy:r1",
      "format_errors",
    ],
    tau3_causes: [],
  },
  requirements: [
    {
      sim_key: "k",
      rule_id: EVIL,
      action: "transfer_to_human_agents",
      quote: EVIL,
      message_index: 16,
      turn_idx: 16,
      tool_call_id: EVIL,
      arguments: `{"summary": "${EVIL}"}`,
      excerpt: EVIL,
    },
  ],
  fields: [
    {
      sim_key: "k",
      db: "agent",
      path: "reservations.X.status",
      initial_value: '"active"',
      gold_value: '"active"',
      predicted_value: `"${EVIL}"`,
    },
  ],
  policies: [
    {
      sim_key: "k",
      rule: "r1",
      message: EVIL,
      message_index: 3,
      turn_idx: 3,
      tool_name: EVIL,
      excerpt: EVIL,
    },
  ],
  otherCauses: ["format_errors"],
};

const data: ReportData = {
  summary: {
    simulations: 1,
    graded: 1,
    errors: 0,
    flips: { pass_to_fail: 1, fail_to_pass: 0 },
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

  it("shows each kind of evidence: requirement quote, field values, policy rule, other causes", () => {
    expect(page.match(/<tr class="flip">/g)?.length).toBe(1);
    for (const cls of ["ev requirement", "ev field", "ev policy", "ev other"]) expect(page).toContain(cls);
    expect(page).toContain("(turn 16, message 16, tool call");
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
