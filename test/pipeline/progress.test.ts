/**
 * Progress on a terminal: an error after the bar starts must not leave its timer running
 * (the process would never exit) nor the cursor hidden; names reaching the terminal carry no escapes.
 */
import { cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/experiments/config.ts";
import { stderrProgress } from "../../src/pipeline/progress.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

/** A stream that says it is a terminal and records what is written to it. */
function fakeTty(): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = {
    isTTY: true,
    columns: 200,
    rows: 40,
    write: (s: string) => chunks.push(String(s)) > 0,
    cursorTo: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
    moveCursor: () => true,
    on: () => stream,
    removeListener: () => stream,
    text: () => chunks.join(""),
  };
  return stream as unknown as NodeJS.WriteStream & { text: () => string };
}

describe("the progress bar", () => {
  it("is stopped when the run fails after it started (its timer would keep the process alive): cursor shown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-prog-"));
    mkdirSync(join(dir, "corpus"));
    cpSync(
      join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json"),
      join(dir, "corpus", "a.json"),
    );
    const experiment = writeExperiment(join(dir, "x.json"));
    const plan = await planRun(loadExperiment(experiment));
    const store = await VerdictStore.open(join(dir, "x.duckdb"));
    const failing = Object.assign(Object.create(store) as VerdictStore, {
      writeFiles: async () => {
        throw new Error("disk full");
      },
    });
    const tty = fakeTty();
    try {
      await expect(runExperiment(plan, failing, stderrProgress(tty), { workers: 1 })).rejects.toThrow(
        "disk full",
      );
    } finally {
      store.close();
    }
    // bar.stop() both clears the bar's render timer and shows the cursor again: the cursor proves it ran.
    expect(tty.text()).toContain("\x1b[?25l"); // the bar hid the cursor ...
    expect(tty.text().lastIndexOf("\x1b[?25h")).toBeGreaterThan(tty.text().lastIndexOf("\x1b[?25l")); // ... and showed it again
  });

  it("prints file names without control characters, on a terminal and in logs", () => {
    const name = "evil\x1b]0;pwned\x07\x1b[2J\rname\u009b31m.json";
    const tty = fakeTty();
    const bar = stderrProgress(tty);
    bar.start(1);
    bar.tick(name, 1);
    bar.stop();
    const log: string[] = [];
    const plain = stderrProgress({ isTTY: false, write: (s: string) => log.push(s) > 0 } as never, 0);
    plain.start(1);
    plain.tick(name, 1);
    plain.stop();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the bar's own cursor and line codes
    const shown = (text: string) => text.replace(/\x1b\[\?25[hl]|\x1b\[\d*[GKJ]|\x1b\[\?7[hl]|\x1b[78]/g, "");
    for (const text of [shown(tty.text()), log.join("")]) {
      expect(text).toContain("evil");
      expect([...text].filter((ch) => ch !== "\n" && /\p{Cc}/u.test(ch))).toEqual([]);
    }
  });
});
