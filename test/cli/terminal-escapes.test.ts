/**
 * Terminal escape injection: names from a corpus (file names, model names, error
 * texts that quote them) reach the terminal without control characters.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerGradeCommand } from "../../src/cli/commands/grade.ts";
import { cliInProcess, runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const GOOD = join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json");
const EVIL = "\x1b]0;pwned\x07\x1b[2J\u009b31m\r";
/** Control characters other than the line ends a report is made of. */
const controls = (text: string): string[] => [...text].filter((ch) => ch !== "\n" && /\p{Cc}/u.test(ch));

function evilCorpus(): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-esc-"));
  const doc = JSON.parse(readFileSync(GOOD, "utf8"));
  doc.info.agent_info.llm = `gpt${EVIL}`;
  writeFileSync(join(dir, `run${EVIL}.json`), JSON.stringify(doc));
  writeFileSync(join(dir, `broken${EVIL}.json`), "{");
  return dir;
}

describe("text from the corpus on a terminal", () => {
  it("corpus inspect prints names without control characters", async () => {
    const r = await cli(["corpus", "inspect", evilCorpus(), "--data-dir", DATA_DIR]);
    expect(r.stdout).toContain("gpt\\x1b]0;pwned");
    expect(r.stdout).toContain("broken\\x1b");
    expect(controls(r.stdout)).toEqual([]);
    expect(controls(r.stderr)).toEqual([]);
  });

  it("grade's errors name files without control characters", async () => {
    const r = await cli(["grade", evilCorpus(), "--grader", "tau3", "--data-dir", DATA_DIR]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("broken\\x1b");
    expect(controls(r.stderr)).toEqual([]);
  });

  it("grade --format table shows each cell's control characters as \\xNN, in its column", async () => {
    const r = await runInProcess(registerGradeCommand, [
      "grade",
      evilCorpus(),
      "--format",
      "table",
      "--data-dir",
      DATA_DIR,
    ]);
    const out = [r.stdout];
    const rows = out.join("").trimEnd().split("\n");
    expect(rows).toHaveLength(2); // the header and the one simulation
    expect(rows[1]).toContain("run\\x1b]0;pwned\\x07");
    for (const row of rows) expect(row.split("\t")).toHaveLength(9);
    expect(controls(out.join("")).filter((ch) => ch !== "\t")).toEqual([]);
  });
});
