/** `requirements scan|new|verify|list` run in-process through commander, as the real CLI wires it. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerRequirementsCommand } from "../../src/cli/commands/requirements.ts";
import { fixture, tempRequirements } from "../graders/structured/requirements/helpers.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";

const run = (args: string[], env: Record<string, string> = { TAU2_DATA_DIR: DATA_DIR }) =>
  runInProcess(registerRequirementsCommand, ["requirements", ...args], env);

afterEach(() => {
  process.exitCode = undefined;
});

describe("requirements list", () => {
  it("--json prints one object per rule with the documented keys", async () => {
    const r = await run(["list", "--json"]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(40);
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual(
        [
          "action",
          "arguments",
          "domain",
          "id",
          "rule",
          "source_field",
          "source_quote",
          "task_id",
          "task_version",
        ].sort(),
      );
    expect(rows).toContainEqual({
      domain: "airline",
      task_version: "head",
      task_id: "47",
      id: "airline.47.no_transfer",
      action: "transfer_to_human_agents",
      rule: expect.any(String),
      source_field: "task_instructions",
      source_quote: "you don't want to be transferred to another agent",
      arguments: null,
    });
    // banking's rules name the discoverable tool an agent reaches through call_discoverable_agent_tool.
    expect(rows).toContainEqual(
      expect.objectContaining({
        domain: "banking_knowledge",
        task_id: "task_031",
        id: "banking_knowledge.task_031.no_card_replacement",
        action: "order_replacement_credit_card_7291",
        arguments: { credit_card_account_id: "cc_890389b165_silver" },
      }),
    );
  });

  it("exits 1 when a fixture cannot be read", async () => {
    const dir = tempRequirements({ "airline/head/47.json": "{" });
    const r = await run(["list", "--dir", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("problem: ");
  });
});

describe("requirements verify", () => {
  it("exits 0 with a one-line summary for the curated set", async () => {
    const r = await run(["verify", "--all"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ok: \d+ rule\(s\) and \d+ fact\(s\) in \d+ fixture\(s\) verified against .+\n$/,
    );
  });

  it("prints every problem and exits 1", async () => {
    const dir = tempRequirements({
      "airline/head/47.json": fixture("47", [
        { source_quote: "you don't want to be transferrad to another agent" },
      ]),
      "airline/head/6.json": fixture("6", [{ id: "airline.6.x", action: "teleport" }]),
    });
    const r = await run(["verify", "--dir", dir, "--data-dir", DATA_DIR], {});
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(r.stdout).toContain('closest text: "you don\'t want to be transferred to another agent"');
    expect(r.stdout).toContain("action teleport is not a tool of the airline toolkit");
    expect(r.stderr).toBe("tau-rescore: 3 problem(s) in 2 fixture file(s)\n");
  });

  it("exits 2 without a data dir", async () => {
    const r = await run(["verify"], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no tau2 data dir");
    expect(r.stderr).not.toContain("    at ");
  });
});

describe("requirements scan", () => {
  it("--json lists airline 47's refusal with field, offsets and tools", async () => {
    const r = await run(["scan", "--domain", "airline", "--task-version", "head", "--task", "47", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual({
      domain: "airline",
      task_version: "head",
      task_id: "47",
      field: "task_instructions",
      sentence:
        "You want to get a full refund for the flight and you don't want to be transferred to another agent.",
      start: 67,
      end: 166,
      cues: ["don't want", "do not"],
      tools: ["cancel_reservation", "transfer_to_human_agents"],
    });
  });

  it("scans every task set of the domain by default", async () => {
    const r = await run([
      "scan",
      "--domain",
      "telecom",
      "--task",
      "[service_issue]airplane_mode_on[PERSONA:None]",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^head\/tasks_small\t\[service_issue\]airplane_mode_on/m);
  });

  it("--summary prints the coverage table and exits 0 when everything is reviewed", async () => {
    const r = await run(["scan", "--summary"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]?.split(/\s+/)).toEqual([
      "domain",
      "task_version",
      "tasks",
      "candidates",
      "rules",
      "covered",
      "rejected",
      "unreviewed",
      "stale",
    ]);
    // A header and one row per domain and task set (telecom has three since HEAD's full tasks.json).
    expect(lines).toHaveLength(9);
    expect(lines.at(-1)?.split(/\s+/)).toEqual([
      "banking_knowledge",
      "head",
      "97",
      "478",
      "24",
      "11",
      "467",
      "0",
      "0",
    ]);
    expect(lines.find((l) => l.startsWith("telecom") && /\shead\s/.test(l))?.split(/\s+/)).toEqual([
      "telecom",
      "head",
      "2285",
      "10109",
      "0",
      "0",
      "10109",
      "0",
      "0",
    ]);
  });

  it("--summary exits 1 when candidates are unreviewed", async () => {
    const r = await run(["scan", "--summary", "--domain", "airline", "--dir", tempRequirements({})]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("unreviewed: airline head 47 task_instructions:");
  });

  it("exits 2 on an unknown domain, a missing --domain or an unknown task version", async () => {
    expect((await run(["scan", "--domain", "banking"])).code).toBe(2);
    expect((await run(["scan"])).code).toBe(2);
    const r = await run(["scan", "--domain", "airline", "--task-version", "v9"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no task version v9 of airline (have: head, v0.2.0_f8de30c)");
  });
});

describe("requirements new", () => {
  it("prints a scaffold and writes one only with --out, never over an existing file", async () => {
    const printed = await run(["new", "--domain", "airline", "--task", "47"]);
    expect(printed.code).toBe(0);
    const draft = JSON.parse(printed.stdout);
    expect(draft).toMatchObject({ domain: "airline", task_version: "head", task_id: "47" });

    const out = join(mkdtempSync(join(tmpdir(), "scaffold-")), "47.json");
    const written = await run(["new", "--domain", "airline", "--task", "47", "--out", out]);
    expect(written.code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(draft);
    const again = await run(["new", "--domain", "airline", "--task", "47", "--out", out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("exists; pass --force");
  });

  it("suggests the task's facts, which verify refuses by file and task_facts[i] until kept", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "scaffold-")), "8.json");
    expect((await run(["new", "--domain", "airline", "--task", "8", "--out", out])).code).toBe(0);
    const draft = JSON.parse(readFileSync(out, "utf8"));
    expect(draft.task_facts[0]).toMatchObject({
      _suggested: expect.stringMatching(/^keep or delete: /),
      name: "max_charge",
      value: 500,
      source_quote: "You are willing to pay up to $500 for the purchase.",
    });
    const refused = await run(["verify", out]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `${out}\tairline.8.max_charge\ttask_facts[0] is still a suggestion of requirements new`,
    );

    const { _suggested, ...fact } = draft.task_facts[0];
    writeFileSync(
      out,
      JSON.stringify({ ...draft, user_preflight_requirements: undefined, task_facts: [fact] }),
    );
    const kept = await run(["verify", out]);
    expect(kept.stdout).toContain("ok: 0 rule(s) and 1 fact(s) in 1 fixture(s)");
    expect(kept.code).toBe(0);
  });

  it("exits 2 for a task the domain does not have", async () => {
    const r = await run(["new", "--domain", "airline", "--task", "999"]);
    expect(r.code).toBe(2);
    expect(existsSync("999.json")).toBe(false);
  });
});
