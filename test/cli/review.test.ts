/**
 * `tau-rescore review` end to end on a small corpus: `set` then `list --json` round-trips, ambiguity
 * lists the candidates, a bad reviews file exits 2 with its JSON path, the interactive walk runs from a
 * pipe and saves every answer (`--same-for-siblings` answering the question about a cause's siblings, a
 * pipe never asked it), `list` shows flip and sampled reviews by kind, a cause two comparisons show is
 * walked and reviewed once, `--comparison`
 * walks one comparison, an edited trajectory makes its review stale, and `run` and `report` load the
 * reviews (summary.json `reviews`, precision per cause in report.html). The commands run in this process.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { readReviewFile } from "../../src/reviews/file.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { smallExperiment } from "../helpers/small-run.ts";

const WHISSLE = "sierra-tau2-bench__pr448-whissle/airline_run1.json";
const FILES = [
  WHISSLE,
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_telecom_default_gpt-4.1_1trials.json",
];

interface Target {
  sim_key: string;
  simulation_id: string;
  path: string;
  grader: string;
  kind: string;
  reference: string;
  fingerprint: string;
  domain: string;
  /** The comparisons whose flip this grader's cause explains, in the experiment's order. */
  comparisons: string[];
  /** Every grader that fails on this cause in a flip (of any comparison). */
  graders: string[];
}

async function withStore<T>(db: string, body: (s: VerdictStore) => Promise<T>): Promise<T> {
  const store = await VerdictStore.open(db);
  try {
    await installAnalyses(store);
    return await body(store);
  } finally {
    store.close();
  }
}

/**
 * The flip causes of the run, in the order `review` walks them: one per cause, whichever comparisons
 * show it and whichever graders fail on it.
 */
const targets = (db: string) =>
  withStore(db, (s) =>
    rows<Target>(
      s,
      `WITH d AS (
         SELECT t.sim_key, t.simulation_id, t.path, t.grader, t.kind, t.reference, t.fingerprint, t.domain, t.model,
                t.task_id, t.trial, t.comparison, k.seq AS comparison_seq, min(t.seq) AS seq
         FROM review_targets t JOIN run_comparisons k USING (comparison)
         WHERE NOT t.excluded AND t.fingerprint IS NOT NULL
         GROUP BY ALL),
       t AS (
         SELECT sim_key, simulation_id, path, grader, kind, reference, fingerprint, domain, model, task_id, trial,
                min(seq) AS seq, list(comparison ORDER BY comparison_seq) AS comparisons
         FROM d GROUP BY sim_key, simulation_id, path, grader, kind, reference, fingerprint, domain, model, task_id, trial)
       SELECT *, list(grader ORDER BY grader) OVER (PARTITION BY sim_key, kind, reference) AS graders
       FROM t ORDER BY domain, model, task_id, trial, path, sim_key, seq, grader`,
    ),
  ).then((all) =>
    all.filter(
      (t, i) =>
        all.findIndex((u) => u.sim_key === t.sim_key && u.kind === t.kind && u.reference === t.reference) ===
        i,
    ),
  );

const cli = (args: readonly string[]) => cliInProcess(args);

/** `review set` for one target, in one of the test's stores and reviews files (of `exp`, the small experiment by default). */
const setReview = (
  db: string,
  file: string,
  t: Target,
  verdict: string,
  reason: string,
  extra: string[] = [],
  exp = experiment,
) =>
  cli([
    "review",
    "set",
    exp,
    "--db",
    db,
    "--reviews",
    file,
    "--simulation",
    t.simulation_id,
    "--path",
    t.path,
    "--cause",
    `${t.kind}:${t.reference}`,
    "--verdict",
    verdict,
    "--reason",
    reason,
    ...extra,
  ]);

/** The interactive walk, its answers read from `input` as from a pipe. */
const piped = (args: readonly string[], input: string) =>
  cliInProcess(args, { input, env: { TAU_RESCORE_REVIEWER: "walker" } });

let dir = "";
let experiment = "";
let db = "";
let reviews = "";
const session = () => [experiment, "--db", db, "--reviews", reviews];

beforeAll(async () => {
  ({ dir, experiment } = smallExperiment(FILES));
  db = join(dir, "r.duckdb");
  reviews = join(dir, "reviews", "small.json");
  const r = await cli(["run", experiment, "--db", db, "--reviews", reviews]);
  expect(r.status, r.stderr).toBe(0);
});

describe("review set and review list", () => {
  it("round-trips: the review set is the review listed, keyed by the simulation's fingerprint", async () => {
    const t = (await targets(db)).find((x) => x.path === WHISSLE && x.kind === "requirement");
    if (t === undefined) throw new Error("the corpus has no requirement flip in the whissle file");
    // The strict grader fails on the same requirement but flips nothing (structured fails too): the
    // cause is a flip cause of the structured grader only, in the headline comparison.
    expect(t.graders).toEqual(["structured"]);
    expect(t.comparisons).toEqual(["tau3-vs-structured"]);
    const set = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      t.simulation_id,
      "--path",
      t.path,
      "--cause",
      `${t.kind}:${t.reference}`,
      "--verdict",
      "confirmed",
      "--reason",
      "turn 13: transfers although the user refused",
      "--reviewer",
      "ann",
      "--date",
      "2026-11-30",
    ]);
    expect(set.status, set.stderr).toBe(0);
    const list = await cli(["review", "list", ...session(), "--json"]);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(
      t.graders.map((grader) => ({
        kind: "flip",
        simulation_id: t.simulation_id,
        path: t.path,
        cause: `${t.kind}:${t.reference}`,
        grader,
        verdict: "confirmed",
        reason: "turn 13: transfers although the user refused",
        reviewer: "ann",
        date: "2026-11-30",
        stale: false,
        stale_reason: null,
        comparisons: ["tau3-vs-structured"],
      })),
    );
    expect(readReviewFile(reviews).reviews.map((e) => e.fingerprint)).toEqual([t.fingerprint]);
    const text = await cli(["review", "list", ...session()]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `flip    confirmed  ${t.kind}:${t.reference} (structured)  ${t.simulation_id}  ${t.path}\n    flips in: tau3-vs-structured\n`,
    );
    // The same cause again replaces the review instead of adding one.
    const again = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      t.simulation_id,
      "--verdict",
      "unclear",
      "--reason",
      "second look",
    ]);
    expect(again.status, again.stderr).toBe(0);
    // Only the flip cause: the strict grader's copy of the cause is not copied a review.
    expect(again.stderr).toMatch(/^replaced: unclear .*\(structured\)[^\n]*\n$/);
    expect(readReviewFile(reviews).reviews.map((e) => [e.grader, e.verdict, e.reason])).toEqual([
      ["structured", "unclear", "second look"],
    ]);
    // --grader with --cause reviews the strict grader's copy: a cause, but no comparison's flip cause.
    const one = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      t.simulation_id,
      "--cause",
      `${t.kind}:${t.reference}`,
      "--grader",
      "structured_strict",
      "--verdict",
      "false_positive",
      "--reason",
      "third look",
    ]);
    expect(one.status, one.stderr).toBe(0);
    expect(readReviewFile(reviews).reviews.map((e) => [e.grader, e.verdict])).toEqual([
      ["structured", "unclear"],
      ["structured_strict", "false_positive"],
    ]);
    const both = await cli(["review", "list", ...session(), "--json"]);
    expect(
      (JSON.parse(both.stdout) as { grader: string; stale: boolean; comparisons: string[] }[]).map((r) => [
        r.grader,
        r.stale,
        r.comparisons,
      ]),
    ).toEqual([
      ["structured", false, ["tau3-vs-structured"]],
      ["structured_strict", false, []],
    ]);
    // Without --cause, the strict grader has no flip cause here to review.
    const none = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      t.simulation_id,
      "--grader",
      "structured_strict",
      "--verdict",
      "confirmed",
      "--reason",
      "x",
    ]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("has no flip cause; its causes:");
  });

  it("refuses a simulation with several flip causes and lists them", async () => {
    const all = await targets(db);
    const bySim = new Map<string, Target[]>();
    for (const t of all) bySim.set(t.sim_key, [...(bySim.get(t.sim_key) ?? []), t]);
    const several = [...bySim.values()].find((l) => l.length > 1);
    if (several === undefined) throw new Error("the corpus has no flip with several causes");
    const first = several[0] as Target;
    const r = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      first.simulation_id,
      "--verdict",
      "confirmed",
      "--reason",
      "x",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    for (const t of several)
      for (const g of t.graders) expect(r.stderr).toContain(`${t.kind}:${t.reference} (${g})`);
  });

  it("names an unknown simulation, and a bad verdict, as usage errors", async () => {
    const unknown = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      "nope",
      "--verdict",
      "confirmed",
      "--reason",
      "x",
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no simulation "nope" in the run');
    const bad = await cli([
      "review",
      "set",
      ...session(),
      "--simulation",
      "nope",
      "--verdict",
      "maybe",
      "--reason",
      "x",
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--verdict: one of confirmed, false_positive, unclear");
  });

  it("rejects a bad reviews file with one line naming the file and the JSON path, and writes nothing", async () => {
    const bad = join(dir, "bad.json");
    const entry = {
      path: WHISSLE,
      simulation_id: "s",
      fingerprint: "0".repeat(64),
      grader: "structured",
      kind: "requirement",
      reference: "r",
      verdict: "maybe",
      reason: "x",
    };
    writeFileSync(bad, JSON.stringify({ version: 1, reviews: [entry] }));
    const list = await cli(["review", "list", experiment, "--db", db, "--reviews", bad]);
    expect(list.status).toBe(2);
    expect(list.stderr).toMatch(
      new RegExp(`^tau-rescore: ${bad.replaceAll(".", "\\.")}: at reviews\\[0\\]\\.verdict: .*\\n$`),
    );
    const fresh = join(dir, "never.duckdb");
    const run = await cli(["run", experiment, "--db", fresh, "--reviews", bad]);
    expect(run.status).toBe(2);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe("review (interactive)", () => {
  it("walks the unreviewed flip causes from a pipe, re-asks bad answers, and saves each answer", async () => {
    const walkFile = join(dir, "walk.json");
    const all = await targets(db);
    const [first, second] = all as [Target, Target];
    const input = ["x", "f", "", "turn 4: the user asked for the transfer", "s", "q"].join("\n");
    const r = await piped(["review", experiment, "--db", db, "--reviews", walkFile], `${input}\n`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`1 of ${all.length}`);
    expect(r.stdout).toContain(`simulation: ${first.simulation_id}`);
    expect(r.stdout).toContain(`cause: ${first.kind} ${first.reference}`);
    expect(r.stdout).toMatch(/^>> #\d+ \[turn \d+\] /m);
    expect(r.stdout).toContain("not an answer");
    expect(r.stdout).toContain("a review needs a reason");
    expect(r.stderr).toMatch(/reviewed 1, skipped 1; \d+ flip cause\(s\) without a review/);
    const saved = readReviewFile(walkFile).reviews;
    expect(saved.map((e) => e.grader)).toEqual(first.graders);
    expect(saved[0]).toMatchObject({
      fingerprint: first.fingerprint,
      kind: first.kind,
      reference: first.reference,
      verdict: "false_positive",
      reason: "turn 4: the user asked for the transfer",
      reviewer: "walker",
    });
    expect(saved[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The next walk starts at the skipped cause; the end of the input ends it without a change.
    const next = await piped(["review", experiment, "--db", db, "--reviews", walkFile], "");
    expect(next.status, next.stderr).toBe(0);
    expect(next.stdout).toContain(`simulation: ${second.simulation_id}`);
    expect(next.stdout).toContain(`1 of ${all.length - 1}`);
    expect(readReviewFile(walkFile).reviews).toHaveLength(first.graders.length);
  });

  /** A flip cause with others of its kind in its simulation: its place in the walk, and those others. */
  const withSiblings = async () => {
    const all = await targets(db);
    const at = all.findIndex((t, i) =>
      all.some((u, j) => j !== i && u.sim_key === t.sim_key && u.kind === t.kind),
    );
    const t = all[at] as Target;
    return { at, t, siblings: all.filter((u) => u.sim_key === t.sim_key && u.kind === t.kind) };
  };
  const QUESTION = "the same verdict and reason for the other";

  it("--same-for-siblings yes gives the other causes of one kind in a simulation the same verdict, reading no answer for it", async () => {
    const walkFile = join(dir, "siblings.json");
    const { at, t, siblings } = await withSiblings();
    // No answer for the question in the input: the line after the reason is the next verdict (quit).
    const input = [...Array(at).fill("s"), "c", "turn 12 resumes the line", "q"].join("\n");
    const r = await piped(
      ["review", experiment, "--db", db, "--reviews", walkFile, "--same-for-siblings", "yes"],
      `${input}\n`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(QUESTION);
    expect(r.stdout).not.toContain("not an answer");
    const saved = readReviewFile(walkFile).reviews;
    expect([...new Set(saved.map((e) => e.reference))].sort()).toEqual(
      siblings.map((s) => s.reference).sort(),
    );
    expect(saved).toHaveLength(siblings.reduce((n, s) => n + s.graders.length, 0));
    expect(new Set(saved.map((e) => e.fingerprint))).toEqual(new Set([t.fingerprint]));
  });

  it("from a pipe without --same-for-siblings, does not ask it: no, said once; ask asks it, and a bad value is refused", async () => {
    const { at, t, siblings } = await withSiblings();
    const input = [...Array(at).fill("s"), "c", "turn 12 resumes the line", "q"].join("\n");
    const walkFile = join(dir, "siblings-piped.json");
    const r = await piped(["review", experiment, "--db", db, "--reviews", walkFile], `${input}\n`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(QUESTION);
    expect(r.stderr.split("stdin is not a terminal")).toHaveLength(2);
    expect(r.stderr).toContain("--same-for-siblings yes|no|ask");
    expect(readReviewFile(walkFile).reviews.map((e) => e.reference)).toEqual(
      t.graders.map(() => t.reference),
    );
    // ask reads the answer from the pipe, as a terminal would.
    const askFile = join(dir, "siblings-ask.json");
    const asked = await piped(
      ["review", experiment, "--db", db, "--reviews", askFile, "--same-for-siblings", "ask"],
      `${[...Array(at).fill("s"), "c", "turn 12 resumes the line", "y", "q"].join("\n")}\n`,
    );
    expect(asked.status, asked.stderr).toBe(0);
    expect(asked.stdout).toContain(`${QUESTION} ${siblings.length - 1} ${t.kind} cause(s)`);
    expect(asked.stderr).not.toContain("stdin is not a terminal");
    expect(new Set(readReviewFile(askFile).reviews.map((e) => e.reference))).toEqual(
      new Set(siblings.map((s) => s.reference)),
    );
    const bad = await piped(
      ["review", experiment, "--db", db, "--reviews", join(dir, "never.json"), "--same-for-siblings", "y"],
      "",
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--same-for-siblings: one of ask, yes, no, not "y"');
  });
});

describe("review across comparisons", () => {
  // Two comparisons with the same failing side: where τ³ and the recorded reward both pass, a structured
  // fail is a flip of both, explained by the same causes.
  const COMPARISONS = [
    { baseline: "tau3", candidate: "structured" },
    { baseline: "recorded", candidate: "structured" },
    { baseline: "structured", candidate: "structured_strict" },
  ];
  const NAMES = ["tau3-vs-structured", "recorded-vs-structured", "structured-vs-structured_strict"];
  let two = "";
  let twoDb = "";
  const walk = (file: string, input: string, extra: string[] = []) =>
    piped(["review", two, "--db", twoDb, "--reviews", file, ...extra], input);
  /** The walk's pages: one per question, its header first. */
  const pages = (stdout: string) => stdout.split("\n━━ ").slice(1);

  beforeAll(async () => {
    two = join(dir, "experiments", "two.json");
    writeFileSync(
      two,
      // Every conversation stored: more than the flipped ones, for the report's drill-down below.
      JSON.stringify({
        ...JSON.parse(readFileSync(experiment, "utf8")),
        comparisons: COMPARISONS,
        conversations: "all",
      }),
    );
    twoDb = join(dir, "two.duckdb");
    const r = await cli(["run", two, "--db", twoDb, "--reviews", join(dir, "two-run.json")]);
    expect(r.status, r.stderr).toBe(0);
  });

  it("walks a cause several comparisons show once, naming each comparison and the side that failed", async () => {
    const all = await targets(twoDb);
    const shared = all.filter((t) => t.comparisons.length > 1);
    if (shared.length === 0) throw new Error("no flip cause shown by two comparisons");
    const [count] = await withStore(twoDb, (s) =>
      rows<{ n: number }>(
        s,
        "SELECT count(*) AS n FROM review_targets WHERE NOT excluded AND fingerprint IS NOT NULL",
      ),
    );
    expect(count?.n).toBeGreaterThan(all.length); // the view has a row per comparison: the walk de-duplicates
    const r = await walk(join(dir, "two-walk.json"), `${Array(all.length).fill("s").join("\n")}\n`);
    expect(r.status, r.stderr).toBe(0);
    const seen = pages(r.stdout);
    expect(seen).toHaveLength(all.length);
    expect(seen[0]).toMatch(new RegExp(`^1 of ${all.length} ━━`));
    for (const [i, t] of all.entries()) {
      const page = seen[i] ?? "";
      expect(page).toContain(`simulation: ${t.simulation_id}`);
      expect(page).toContain(`cause: ${t.kind} ${t.reference} (${t.grader})`);
      expect(page.match(/^flip: /gm)).toHaveLength(t.comparisons.length);
    }
    const s = shared[0] as Target;
    const page = seen[all.indexOf(s)] ?? "";
    expect(page).toContain("flip: tau3-vs-structured: tau3 passed, structured failed\n");
    expect(page).toContain("flip: recorded-vs-structured: recorded passed, structured failed\n");
    expect(r.stderr).toMatch(
      new RegExp(`reviewed 0, skipped ${all.length}; ${all.length} flip cause\\(s\\)`),
    );
  });

  it("keeps one review per cause, serving every comparison that shows it", async () => {
    const file = join(dir, "two-one.json");
    const all = await targets(twoDb);
    const at = all.findIndex((t) => t.comparisons.length > 1);
    const s = all[at] as Target;
    const input = [...Array(at).fill("s"), "c", "turn 9: the refused transfer", "q"].join("\n");
    const r = await walk(file, `${input}\n`, ["--same-for-siblings", "no"]);
    expect(r.status, r.stderr).toBe(0);
    expect(readReviewFile(file).reviews).toEqual([
      expect.objectContaining({
        fingerprint: s.fingerprint,
        grader: s.grader,
        kind: s.kind,
        reference: s.reference,
      }),
    ]);
    const list = await cli(["review", "list", two, "--db", twoDb, "--reviews", file, "--json"]);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ verdict: "confirmed", stale: false, comparisons: s.comparisons }),
    ]);
    // It is reviewed in each comparison: neither walk asks it again.
    for (const name of s.comparisons) {
      const pending = all.filter((t) => t !== s && t.comparisons.includes(name));
      const again = await walk(file, `${Array(pending.length).fill("s").join("\n")}\n`, [
        "--comparison",
        name,
      ]);
      expect(again.status, again.stderr).toBe(0);
      const seen = pages(again.stdout);
      expect(seen).toHaveLength(pending.length);
      expect(
        seen.filter(
          (p) =>
            p.includes(`simulation: ${s.simulation_id}\n`) &&
            p.includes(`cause: ${s.kind} ${s.reference} (${s.grader})\n`),
        ),
      ).toEqual([]);
      expect(again.stderr).toContain(`; ${pending.length} flip cause(s) without a review in ${name} `);
    }
  });

  it("--comparison walks one comparison's flip causes, and names the comparisons when it has no such one", async () => {
    const all = await targets(twoDb);
    for (const name of NAMES) {
      const mine = all.filter((t) => t.comparisons.includes(name));
      const r = await walk(join(dir, "two-cmp.json"), `${Array(mine.length).fill("s").join("\n")}\n`, [
        "--comparison",
        name,
      ]);
      expect(r.status, r.stderr).toBe(0);
      const seen = pages(r.stdout);
      expect(seen).toHaveLength(mine.length);
      for (const [i, t] of mine.entries()) {
        expect(seen[i]).toContain(`simulation: ${t.simulation_id}`);
        expect(seen[i]).toContain(`cause: ${t.kind} ${t.reference} (${t.grader})`);
        expect(seen[i]).toMatch(new RegExp(`^flip: ${name}: `, "m"));
      }
      if (mine.length === 0) expect(r.stdout).toContain(`every flip cause of ${name} has a review`);
    }
    // The strict comparison flips other simulations (the strict grader's causes) than the others.
    const strict = all.filter((t) => t.comparisons.includes("structured-vs-structured_strict"));
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.every((t) => t.grader === "structured_strict" && t.comparisons.length === 1)).toBe(true);
    const unknown = await walk(join(dir, "two-cmp.json"), "", ["--comparison", "tau3-vs-nothing"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toContain('no comparison "tau3-vs-nothing"');
    for (const name of NAMES) expect(unknown.stderr).toContain(name);
    expect(unknown.stdout).toBe("");
  });

  it("the report's drill-down has a conversation per flipped simulation of every comparison", async () => {
    const [counts] = await withStore(twoDb, (st) =>
      rows<{ flips: number; headline: number; stored: number }>(
        st,
        `SELECT (SELECT count(DISTINCT sim_key) FROM flips) AS flips,
                (SELECT count(DISTINCT sim_key) FROM flips WHERE comparison_seq = 1) AS headline,
                (SELECT count(*) FROM sim_context JOIN current_run USING (run_id)) AS stored`,
      ),
    );
    expect(counts?.flips).toBeGreaterThan(counts?.headline ?? 0); // the strict-only flips too
    expect(counts?.stored).toBeGreaterThan(counts?.flips ?? 0); // "conversations": "all"
    const out = join(dir, "two-report");
    const report = await cli(["report", "--db", twoDb, "--out", out, "--html"]);
    expect(report.status, report.stderr).toBe(0);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html.match(/<section class="conv"/g)?.length).toBe(counts?.flips);
    // With --all-conversations, one per simulation the run stored context for.
    const all = join(dir, "two-report-all");
    expect((await cli(["report", "--db", twoDb, "--out", all, "--html", "--all-conversations"])).status).toBe(
      0,
    );
    const allHtml = readFileSync(join(all, "report.html"), "utf8");
    expect(allHtml.match(/<section class="conv"/g)?.length).toBe(counts?.stored);
  });
});

describe("reviews in run and report", () => {
  it("run loads the reviews file into the store; report shows precision per cause and summary.json counts", async () => {
    const file = join(dir, "report-reviews.json");
    const reqs = (await targets(db)).filter((t) => t.kind === "requirement").slice(0, 2);
    expect(reqs).toHaveLength(2);
    for (const [i, t] of reqs.entries()) {
      const r = await setReview(db, file, t, i === 0 ? "confirmed" : "false_positive", `reason ${i}`);
      expect(r.status, r.stderr).toBe(0);
    }
    const run = await cli(["run", experiment, "--db", db, "--reviews", file]);
    expect(run.status, run.stderr).toBe(0);
    const stored = await withStore(db, (s) =>
      rows<{ n: number }>(s, "SELECT count(*) AS n FROM reviews WHERE experiment = 'small'"),
    );
    expect(stored[0]?.n).toBe(reqs.reduce((n, t) => n + t.graders.length, 0));

    const out = join(dir, "report");
    const report = await cli([
      "report",
      "--experiment",
      experiment,
      "--db",
      db,
      "--reviews",
      file,
      "--out",
      out,
      "--html",
    ]);
    expect(report.status, report.stderr).toBe(0);
    // The headline comparison's flip causes, each once.
    const total = (await targets(db)).filter((t) => t.comparisons.includes("tau3-vs-structured")).length;
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(summary.reviews).toMatchObject({
      confirmed: 1,
      false_positive: 1,
      unclear: 0,
      unreviewed: total - 2,
      stale: 0,
    });
    const html = readFileSync(join(out, "report.html"), "utf8");
    const table = /<table class="sortable" id="precision-by-kind">[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    // 1 of 2: precision 50%, Wilson 95% interval [9.5%, 90.5%].
    expect(table).toMatch(/<td>requirement<\/td>[\s\S]*<td[^>]*>50\.0% \[9\.5%, 90\.5%\]<\/td>/);
    expect(html).toContain('id="precision-by-rule"');
  });

  it("makes a review stale when the graded file is edited so the simulation's fingerprint changes", async () => {
    const t = (await targets(db)).find((x) => x.path === WHISSLE);
    if (t === undefined) throw new Error("no flip in the whissle file");
    const file = join(dir, "stale.json");
    const set = await setReview(db, file, t, "confirmed", "x");
    expect(set.status, set.stderr).toBe(0);
    const path = join(dir, "corpus", WHISSLE);
    const raw = JSON.parse(readFileSync(path, "utf8")) as {
      simulations: { id: string; messages: { content: string | null }[] }[];
    };
    const sim = raw.simulations.find((s) => s.id === t.simulation_id);
    if (sim === undefined) throw new Error("the simulation is not in its file");
    const first = sim.messages[0] as { content: string | null };
    first.content = `${first.content ?? ""} (edited)`;
    writeFileSync(path, JSON.stringify(raw));
    const regraded = join(dir, "regraded.duckdb");
    expect((await cli(["run", experiment, "--db", regraded, "--reviews", file])).status).toBe(0);
    const list = await cli(["review", "list", experiment, "--db", regraded, "--reviews", file, "--json"]);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(
      t.graders.map(() =>
        expect.objectContaining({
          simulation_id: t.simulation_id,
          stale: true,
          stale_reason: "the simulation changed (another fingerprint)",
        }),
      ),
    );
    const out = join(dir, "stale-report");
    expect((await cli(["report", "--db", regraded, "--out", out])).status).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(summary.reviews).toMatchObject({ confirmed: 0, stale: t.graders.length });
  });
});

describe("review set with a simulation id in two files", () => {
  it("lists both files, and takes --path to pick one", async () => {
    const s = smallExperiment([WHISSLE]);
    mkdirSync(join(s.dir, "corpus", "copy"));
    // The same simulations in other bytes (a byte-identical copy would share the file id).
    const original = JSON.parse(readFileSync(join(s.dir, "corpus", WHISSLE), "utf8"));
    writeFileSync(join(s.dir, "corpus", "copy", "airline_run1.json"), JSON.stringify(original, null, 1));
    const twoDb = join(s.dir, "two.duckdb");
    const file = join(s.dir, "two.json");
    expect((await cli(["run", s.experiment, "--db", twoDb, "--reviews", file])).status).toBe(0);
    const [t] = await targets(twoDb);
    if (t === undefined) throw new Error("no flip");
    const args = [
      "review",
      "set",
      s.experiment,
      "--db",
      twoDb,
      "--reviews",
      file,
      "--simulation",
      t.simulation_id,
    ];
    const verdict = ["--verdict", "confirmed", "--reason", "x"];
    const ambiguous = await cli([...args, ...verdict]);
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toContain("is in 2 places; pass --path with one of:");
    expect(ambiguous.stderr).toContain(WHISSLE);
    expect(ambiguous.stderr).toContain("copy/airline_run1.json");
    const picked = await cli([...args, "--path", "copy/airline_run1.json", ...verdict]);
    expect(picked.status, picked.stderr).toBe(0);
    expect(new Set(readReviewFile(file).reviews.map((e) => e.path))).toEqual(
      new Set(["copy/airline_run1.json"]),
    );
  });
});

describe("review sample", () => {
  let allDb = "";
  let allExperiment = "";
  beforeAll(async () => {
    // The same corpus, with every conversation stored: what sampling both-pass simulations needs.
    allExperiment = join(dir, "experiments", "small-all.json");
    const config = JSON.parse(readFileSync(experiment, "utf8")) as Record<string, unknown>;
    writeFileSync(allExperiment, JSON.stringify({ ...config, conversations: "all" }));
    allDb = join(dir, "all.duckdb");
    const r = await cli(["run", allExperiment, "--db", allDb, "--reviews", join(dir, "none.json")]);
    expect(r.status, r.stderr).toBe(0);
  });
  const sample = (file: string, extra: string[] = []) => [
    "review",
    "sample",
    allExperiment,
    "--db",
    allDb,
    "--reviews",
    file,
    "--comparison",
    "tau3-vs-structured",
    "--n",
    "2",
    "--seed",
    "5",
    ...extra,
  ];

  it("refuses a run that kept only the disagreements' conversations, saying what to set", async () => {
    const file = join(dir, "refused.json");
    const r = await cli([
      "review",
      "sample",
      experiment,
      "--db",
      db,
      "--reviews",
      file,
      "--comparison",
      "tau3-vs-structured",
      "--n",
      "2",
      "--seed",
      "5",
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/have no stored conversation .*"conversations": "all"/);
    expect(existsSync(file)).toBe(false);
  });

  it("--list prints the same draw for the same seed, per domain, and refuses a bad --n or --seed", async () => {
    const file = join(dir, "sample-list.json");
    const one = await cli(sample(file, ["--list"]));
    expect(one.status, one.stderr).toBe(0);
    const lines = one.stdout.trim().split("\n");
    const domains = lines.map((l) => l.split("\t")[0]);
    expect(domains.length).toBeGreaterThan(2);
    for (const d of new Set(domains)) expect(domains.filter((x) => x === d).length).toBeLessThanOrEqual(2);
    expect(one.stderr).toMatch(/^tau3-vs-structured, seed 5: .* both-pass simulations drawn; 0 reviewed/);
    const two = await cli(sample(file, ["--list"]));
    expect(two.stdout).toBe(one.stdout);
    for (const bad of [
      ["--n", "0"],
      ["--seed", "-1"],
      ["--n", "1.5"],
    ]) {
      const args = sample(file, ["--list"]);
      args[args.indexOf(bad[0] as string) + 1] = bad[1] as string;
      const r = await cli(args);
      expect(r.status, bad.join(" ")).toBe(2);
      expect(r.stderr).toContain(`${bad[0]}: must be an integer`);
    }
    expect(existsSync(file)).toBe(false);
  });

  it("walks the draw from a pipe, saves each answer with its seed, resumes, and the report shows the miss rate", async () => {
    const file = join(dir, "sampled.json");
    const list = (await cli(sample(file, ["--list"]))).stdout.trim().split("\n");
    const ids = list.map((l) => l.split("\t")[3]);
    const input = ["c", "read every turn; nothing the policy forbids", "m", "#5 books without asking", "q"];
    const r = await piped(sample(file), `${input.join("\n")}\n`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`1 of ${list.length}`);
    expect(r.stdout).toContain(`simulation: ${ids[0]}`);
    expect(r.stdout).toContain("tau3 and structured both passed; seed 5, draw 1 of");
    expect(r.stdout).toMatch(/^ {3}#0 \[turn 0\] /m);
    expect(r.stderr).toContain(
      `reviewed 2, skipped 0; 0 already reviewed; ${list.length - 2} of ${list.length} drawn`,
    );
    const saved = readReviewFile(file).sampled ?? [];
    expect(saved.map((e) => [e.simulation_id, e.verdict, e.seed, e.comparison, e.reviewer]).sort()).toEqual(
      [
        [ids[0], "clean", 5, "tau3-vs-structured", "walker"],
        [ids[1], "missed", 5, "tau3-vs-structured", "walker"],
      ].sort(),
    );
    // Resumed: the reviewed two are not asked again; the list shows their verdicts.
    const next = await piped(sample(file), "");
    expect(next.stdout).toContain(`1 of ${list.length - 2}`);
    expect(next.stdout).toContain(`simulation: ${ids[2]}`);
    const listed = (await cli(sample(file, ["--list"]))).stdout.trim().split("\n");
    expect(listed.slice(0, 2).map((l) => l.split("\t")[2])).toEqual(["clean", "missed"]);
    const all = await cli(["review", "list", allExperiment, "--db", allDb, "--reviews", file]);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toContain(`sample  missed  tau3-vs-structured (seed 5)  `);
    expect(all.stdout).toContain(`${ids[1]}`);
    expect(all.stdout).toContain("\n    #5 books without asking — walker");
    expect(all.stderr).toMatch(/2 sampled review\(s\), 0 stale/);

    const out = join(dir, "sample-report");
    const report = await cli([
      "report",
      "--experiment",
      allExperiment,
      "--db",
      allDb,
      "--reviews",
      file,
      "--out",
      out,
      "--html",
    ]);
    expect(report.status, report.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    expect(summary.comparisons["tau3-vs-structured"].miss_rate).toMatchObject({
      value: 0.5,
      sampled: 2,
      clean: 1,
      missed: 1,
      stale: 0,
      seeds: [5],
    });
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("miss rate (1 missed / 2 sampled)");
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("miss rate 50.0%");

    // The report reads the reviews file it is given, not what the store last loaded.
    const edited = join(dir, "sampled-edited.json");
    const f = readReviewFile(file);
    writeFileSync(
      edited,
      JSON.stringify({ ...f, sampled: (f.sampled ?? []).map((e) => ({ ...e, verdict: "clean" })) }),
    );
    const out2 = join(dir, "sample-report-2");
    const again = await cli([
      "report",
      "--experiment",
      allExperiment,
      "--db",
      allDb,
      "--reviews",
      edited,
      "--out",
      out2,
    ]);
    expect(again.status, again.stderr).toBe(0);
    const summary2 = JSON.parse(readFileSync(join(out2, "summary.json"), "utf8"));
    expect(summary2.comparisons["tau3-vs-structured"].miss_rate).toMatchObject({
      value: 0,
      missed: 0,
      clean: 2,
    });
  });

  it("review list shows flip and sampled reviews with their kind, in text and --json, the counts on a line of their own", async () => {
    const file = join(dir, "both-kinds.json");
    const [first] = (await cli(sample(file, ["--list"]))).stdout.trim().split("\n");
    const [domain, , , id, path] = (first ?? "").split("\t");
    const walked = await piped(sample(file), "m\n#3 books without asking\nq\n");
    expect(walked.status, walked.stderr).toBe(0);
    const t = (await targets(allDb))[0];
    if (t === undefined) throw new Error("the corpus has no flip cause");
    const set = await setReview(
      allDb,
      file,
      t,
      "confirmed",
      "turn 2",
      ["--reviewer", "ann", "--date", "2026-12-05"],
      allExperiment,
    );
    expect(set.status, set.stderr).toBe(0);
    const list = ["review", "list", allExperiment, "--db", allDb, "--reviews", file];

    const text = await cli(list);
    expect(text.status, text.stderr).toBe(0);
    const heads = text.stdout.split("\n").filter((l) => l !== "" && !l.startsWith(" "));
    expect(heads.map((l) => l.split(" ")[0])).toEqual([...t.graders.map(() => "flip"), "sample"]);
    expect(text.stdout).toContain(
      `flip    confirmed  ${t.kind}:${t.reference} (${t.graders[0]})  ${t.simulation_id}  ${t.path}\n    flips in: `,
    );
    expect(text.stdout).toContain(
      `sample  missed  tau3-vs-structured (seed 5)  ${domain}  ${id}  ${path}\n    #3 books without asking — walker, 2024-01-01\n`,
    );
    // Every line ends in a newline, and the counts are a line of their own on stderr.
    expect(text.stdout.endsWith("\n")).toBe(true);
    expect(text.stderr).toMatch(
      new RegExp(
        `^${t.graders.length} flip review\\(s\\), 0 stale; 1 sampled review\\(s\\), 0 stale \\(run [^\\n]+\\)\\n$`,
      ),
    );
    expect(`${text.stdout}${text.stderr}`.split("\n")).toContain(text.stderr.trimEnd());

    const json = await cli([...list, "--json"]);
    expect(json.status, json.stderr).toBe(0);
    expect(json.stdout.endsWith("]\n")).toBe(true);
    expect(JSON.parse(json.stdout)).toEqual([
      ...t.graders.map((grader) =>
        expect.objectContaining({
          kind: "flip",
          simulation_id: t.simulation_id,
          cause: `${t.kind}:${t.reference}`,
          grader,
          verdict: "confirmed",
        }),
      ),
      {
        kind: "sample",
        simulation_id: id,
        path,
        comparison: "tau3-vs-structured",
        seed: 5,
        domain,
        verdict: "missed",
        reason: "#3 books without asking",
        reviewer: "walker",
        date: "2024-01-01",
        stale: false,
        stale_reason: null,
        excluded: false,
      },
    ]);
  });
});
