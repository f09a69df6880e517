/** `tau-rescore grade`: JSON lines whose causes point at turns, and the same settings checks as `run`. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const FILE = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");
const grade = (...args: string[]) => cli(["grade", FILE, "--data-dir", DATA_DIR, ...args]);

interface Cause {
  kind: string;
  reference: string;
  gates: boolean;
  message_index: number | null;
  tool_call_id: string | null;
  actor: string | null;
  evidence: { code: string; message_index: number | null; tool_call_id: string | null; quote?: string }[];
}

describe("tau-rescore grade", () => {
  it("prints each grader's verdict with its causes located at a turn and tool call", async () => {
    const r = await grade("--grader", "tau3,structured", "--corrections", "on");
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(50);
    const t47 = lines.find((l) => l.task_id === "47");
    expect(Object.keys(t47)).toEqual(expect.arrayContaining(["tau3", "tau3_corrected", "structured"]));
    expect(t47.tau3.reward).toBe(1);
    expect(t47.tau3.causes).toEqual([]);
    expect(t47.structured.pass).toBe(false);
    const gating = (t47.structured.causes as Cause[]).filter((c) => c.gates);
    expect(gating.map((c) => `${c.kind}:${c.reference}`)).toEqual(["requirement:airline.47.no_transfer"]);
    const cause = gating[0] as Cause;
    expect(cause.actor).toBe("agent");
    expect(cause.tool_call_id).toEqual(cause.evidence[0]?.tool_call_id);
    expect(cause.message_index).toEqual(cause.evidence[0]?.message_index);
    expect(cause.evidence[0]?.quote).toBe("you don't want to be transferred to another agent");
    // A τ³ failure names the component and what failed in it.
    const failed = lines.find((l) => l.tau3.reward === 0 && l.tau3.basis !== null);
    const component = (failed.tau3.causes as Cause[])[0];
    expect(component?.kind).toBe("component");
    expect(component?.evidence.length).toBeGreaterThan(0);
  });

  it("prints a table with the gating causes of a failed structured verdict", async () => {
    const r = await grade("--grader", "tau3,structured", "--format", "table");
    expect(r.status, r.stderr).toBe(0);
    const row = r.stdout.split("\n").find((l) => l.startsWith("47\t"));
    expect(row).toContain("FAIL(requirement:airline.47.no_transfer)");
  });

  it.each([
    [["--grader", "tau3,structured", "--gate", "no_such_rule"], /unknown policy rule "no_such_rule"/],
    [["--grader", "tau3", "--gate", "action_after_transfer"], /--gate applies to the structured grader/],
    [["--grader", "structured"], /grader structured builds on tau3/],
    [["--quirk", "nope=on"], /bad quirk override "nope=on"/],
    [["--judge", "http", "--judge-base-url", "not a url"], /not an http\(s\) URL/],
    [["--judge", "http"], /judge mode http needs a base URL/],
    [
      ["--grader", "tau3,structured", "--gate", "nl_curated"],
      /curated NL list needs the corrections overlay/,
    ],
  ])("refuses %j with exit 2 and one line", async (args, pattern) => {
    const r = await cli(["grade", FILE, "--data-dir", DATA_DIR, ...args], {
      TAU_RESCORE_JUDGE_BASE_URL: "",
      OPENAI_BASE_URL: "",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout).toBe("");
  });
});
