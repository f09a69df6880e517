/** `tau-rescore hash --gold` against tau2's own gold replays, for every vector task file. */
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR, referenceVectors, taskFileForVersion } from "../helpers/data.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const vectors = referenceVectors();
const groups = [...new Set(Object.keys(vectors.gold).map((k) => k.split("/").slice(0, 2).join("/")))];

describe.each(groups)("tau-rescore hash --gold %s", (group) => {
  it("prints tau2's after-init hashes, gold target hashes and gold action results", async () => {
    const [version, domain] = group.split("/") as [string, string];
    const r = await cli([
      "hash",
      "--data-dir",
      DATA_DIR,
      "--domain",
      domain,
      "--tasks-file",
      taskFileForVersion(version, domain),
      "--gold",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { task_id: string });
    const expected = Object.entries(vectors.gold).filter(([k]) => k.startsWith(`${group}/`));
    expect(lines.length).toBe(expected.length);
    for (const line of lines) {
      const { task_id, ...rest } = line;
      expect(rest, task_id).toEqual(vectors.gold[`${group}/${task_id}`]);
    }
  });
});

describe("tau-rescore hash errors", () => {
  it("rejects an unknown domain and a task id not in the file with exit code 2", async () => {
    expect((await cli(["hash", "--data-dir", DATA_DIR, "--domain", "bank"])).status).toBe(2);
    const r = await cli(["hash", "--data-dir", DATA_DIR, "--domain", "airline", "--task", "nope"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("task id(s) not in");
  });
});
