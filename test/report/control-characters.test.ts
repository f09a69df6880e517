/**
 * Control and bidi characters from a corpus (a model name with ESC and BEL, a simulation id with U+202E,
 * an escape sequence in a message) never stop `report --html`, and land everywhere as `\xNN` / `\uNNNN`:
 * report.html, report.md, the charts' SVG (and so their PNG), and the terminal view of `review`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/experiments/config.ts";
import type { Progress } from "../../src/pipeline/progress.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import type { writeRichReport } from "../../src/report/index.ts";
import { walkReviews } from "../../src/reviews/walk.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { writeHtmlReport } from "../helpers/html-report.ts";
import { writeExperiment } from "../helpers/small-run.ts";

/** Two trials of task 6 flip pass → fail; task 0 trial 0 does not. */
const SOURCE = join(CORPUS_DIR, "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json");
const MODEL = "gemini\u001b[31m\u0007evil";
const SIM_ID = "sim\u202eevil\u0007";
const MESSAGE = "clear the screen \u001b[2J\u009b31m now";
const quiet: Progress = { start() {}, tick() {}, stop() {} };

/** Characters that must never reach a page or a terminal as they are (tab and newline aside). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let store: VerdictStore;
let out = "";
let charts: Awaited<ReturnType<typeof writeRichReport>> = [];
let warnings: readonly string[] | undefined;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "tr-ctl-"));
  mkdirSync(join(dir, "corpus"));
  mkdirSync(join(dir, "experiments"));
  const doc = JSON.parse(readFileSync(SOURCE, "utf8"));
  doc.info.agent_info.llm = MODEL;
  doc.simulations = doc.simulations.filter(
    (s: { task_id: string; trial: number }) => s.task_id === "6" || (s.task_id === "0" && s.trial === 0),
  );
  const flip = doc.simulations.find((s: { task_id: string }) => s.task_id === "6");
  flip.id = SIM_ID;
  flip.messages[0].content = MESSAGE;
  writeFileSync(join(dir, "corpus", "run.json"), JSON.stringify(doc));
  const experiment = writeExperiment(
    join(dir, "experiments", "x.json"),
    { graders: ["tau3", "structured"], conversations: "all" },
    { corpus: "../corpus", output: "../out" },
  );
  store = await VerdictStore.open(join(dir, "x.duckdb"));
  await runExperiment(
    await planRun(loadExperiment(experiment, { db: join(dir, "x.duckdb") })),
    store,
    quiet,
    {
      workers: 1,
    },
  );
  out = join(dir, "report");
  const written = await writeHtmlReport(store, out, { allConversations: true });
  charts = written.charts;
  warnings = written.summary.warnings;
}, 120_000);
afterAll(() => store?.close());

describe("report --html with control characters in the corpus", () => {
  it("completes, with every chart drawn (SVG and PNG) and no warning", () => {
    for (const f of ["report.html", "report.md", "summary.json", "flips.csv"])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect(charts.length).toBeGreaterThan(0);
    for (const c of charts) {
      expect(c.failure, c.name).toBeNull();
      expect(existsSync(join(out, c.files.svg)), c.files.svg).toBe(true);
      expect(existsSync(join(out, c.files.png)), c.files.png).toBe(true);
    }
    expect(warnings).toBeUndefined();
  });

  it("leaves no raw control or bidi character in report.html, report.md or the SVGs", () => {
    const svgs = readdirSync(join(out, "charts")).filter((f) => f.endsWith(".svg"));
    for (const f of ["report.html", "report.md", ...svgs.map((s) => join("charts", s))])
      expect(readFileSync(join(out, f), "utf8"), f).not.toMatch(RAW);
  });

  it("shows them as \\xNN / \\uNNNN in the page, the Markdown and the charts", () => {
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(page).toContain("gemini\\x1b[31m\\x07evil");
    expect(page).toContain("sim\\u202eevil\\x07");
    expect(page).toContain("clear the screen \\x1b[2J\\x9b31m now");
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("gemini\\\\x1b[31m\\\\x07evil"); // the backslash escaped as Markdown
    const shown = charts.filter((c) => c.svg.includes("gemini\\x1b[31m\\x07evil"));
    expect(shown.length).toBeGreaterThan(0);
  });
});

describe("review with control characters in the corpus", () => {
  it("shows \\x1b, never U+FFFD or the raw character", async () => {
    const written: string[] = [];
    await walkReviews({
      store,
      experiment: "x",
      reviewsFile: join(out, "..", "reviews.json"),
      io: { ask: async () => "s", write: (t) => written.push(t) }, // every cause shown, none reviewed
      context: 40, // the whole conversation, the first message included
    });
    const text = written.join("");
    expect(text).toContain("gemini\\x1b[31m\\x07evil");
    expect(text).toContain("sim\\u202eevil\\x07");
    expect(text).toContain("\\x1b[2J\\x9b31m");
    expect(text).not.toContain("\ufffd");
    expect(text).not.toMatch(RAW);
  });
});
