/**
 * The tool as a package: `npm pack` gives a tarball that installs into a prefix of its own, and the
 * installed command starts a project in an empty folder outside the repository (`init`), grades the
 * trajectories put in it with the project's own requirement fixture over the curated set, and reports
 * which sources it used. One install serves every assertion; it takes its dependencies from the npm cache
 * where it can (`--prefer-offline`), from the registry otherwise, and the test is skipped only when
 * neither can give them.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { TOOL_VERSION } from "../../src/util/package.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const REPO = join(import.meta.dirname, "../..");
const TRAJECTORIES = join(
  CORPUS_DIR,
  "sierra-tau2-bench__leaderboard-pr__ironshell-ironforge_ironshell-ui_2026-03-09/ironshell_ironforge_v3_deepseek.json",
);
/** A curated fixture the project replaces with its own (task 35 of that file). */
const FIXTURE = "airline/v0.2.0_f8de30c/35.json";
const PROJECT_RULE = "airline.35.project_no_cancel";

/** npm's words for a package it could get neither from the registry nor from its cache. */
const UNREACHABLE =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;

interface Installed {
  readonly bin: string;
  readonly tarball: string;
  readonly seconds: { readonly pack: number; readonly install: number };
}

let installed: Installed | null = null;
let skipReason = "";
let work = "";

const timed = <T>(f: () => T): [T, number] => {
  const start = performance.now();
  const out = f();
  return [out, (performance.now() - start) / 1000];
};

function npm(args: readonly string[], cwd: string) {
  return spawnSync("npm", [...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "tr-package-"));
  const [pack, packSeconds] = timed(() => npm(["pack", "--pack-destination", work], REPO));
  expect(pack.status, pack.stderr).toBe(0);
  const tarball = join(work, pack.stdout.trim().split("\n").at(-1) as string);
  const prefix = join(work, "prefix");
  const [install, installSeconds] = timed(() =>
    npm(["install", "-g", "--prefix", prefix, tarball, "--prefer-offline", "--no-audit", "--no-fund"], work),
  );
  if (install.status !== 0 && UNREACHABLE.test(install.stderr)) {
    skipReason = `the npm registry is unreachable and the npm cache lacks a dependency: ${install.stderr.match(UNREACHABLE)?.[0]}`;
    return;
  }
  expect(install.status, install.stderr).toBe(0);
  installed = {
    bin: join(prefix, "bin/tau-rescore"),
    tarball,
    seconds: { pack: packSeconds, install: installSeconds },
  };
  console.log(`npm pack ${packSeconds.toFixed(1)} s, npm install -g ${installSeconds.toFixed(1)} s`);
}, 600_000);

/** The installed command, in `cwd`, with the tau2 data dir in its environment. */
function tauRescore(args: readonly string[], cwd: string) {
  return spawnSync(installed?.bin ?? "", [...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TAU2_DATA_DIR: DATA_DIR },
  });
}

describe("the packed tarball", () => {
  it("holds the built command, the curated sets and the thread entry points, and no sources or tests", (ctx) => {
    if (installed === null) ctx.skip(skipReason);
    const list = spawnSync("tar", ["tzf", installed?.tarball ?? ""], { encoding: "utf8" }).stdout.split("\n");
    for (const f of [
      "package/bin/tau-rescore.js",
      "package/dist/cli/main.js",
      "package/dist/pipeline/thread-entry.js",
      "package/dist/charts/png-worker.mjs",
      `package/requirements/${FIXTURE}`,
      "package/policies/airline/baggage.json",
      "package/corrections/airline.json",
    ])
      expect(list).toContain(f);
    expect(list.filter((f) => /^package\/(src|test|scripts|results|experiments|reviews)\//.test(f))).toEqual(
      [],
    );
    expect(list.filter((f) => /\.(ts|map|tsbuildinfo)$/.test(f) || f.includes(".build-"))).toEqual([]);
  });
});

describe("an installed tau-rescore in an empty folder outside the repository", () => {
  let project = "";

  beforeAll(() => {
    if (installed === null) return;
    const empty = join(work, "empty");
    mkdirSync(empty);
    const init = tauRescore(["init", "proj"], empty);
    expect(init.status, init.stderr).toBe(0);
    project = join(empty, "proj");
    cpSync(TRAJECTORIES, join(project, "corpus", "deepseek.json"));
    // The project's own fixture for the task, at the curated fixture's path: a rule the curated one lacks.
    const own = JSON.parse(readFileSync(join(BUILTIN_REQUIREMENTS_DIR, FIXTURE), "utf8"));
    own.user_preflight_requirements.action_preconditions = [
      {
        id: PROJECT_RULE,
        action: "cancel_reservation",
        rule: "Do not cancel the reservation: the project's own reading of the task.",
        source_field: "task_instructions",
        source_quote: "You try a maximum of five times to get the agent to cancel with a refund.",
        arguments: null,
      },
    ];
    mkdirSync(join(project, "requirements", FIXTURE, ".."), { recursive: true });
    writeFileSync(join(project, "requirements", FIXTURE), `${JSON.stringify(own, null, 2)}\n`);
    writeFileSync(join(project, "reviews", "proj.json"), `${JSON.stringify({ version: 1, reviews: [] })}\n`);
    const run = tauRescore(["run", "experiment.json"], project);
    expect(run.status, run.stderr).toBe(0);
    const report = tauRescore(
      ["report", "--experiment", "experiment.json", "--out", "report", "--html"],
      project,
    );
    expect(report.status, report.stderr).toBe(0);
  }, 300_000);

  it("stores a verdict of every grader for every simulation", async (ctx) => {
    if (installed === null) ctx.skip(skipReason);
    const store = await VerdictStore.open(join(project, "results/proj.duckdb"));
    try {
      const rows = await store.query<{ grader: string; n: number }>(
        "SELECT grader, count(*)::INTEGER AS n FROM verdicts GROUP BY grader ORDER BY grader",
      );
      expect(rows).toEqual([
        { grader: "structured", n: 4 },
        { grader: "structured_strict", n: 4 },
        { grader: "tau3", n: 4 },
      ]);
    } finally {
      store.close();
    }
  });

  it("grades with the project's fixture in place of the curated one of the same path", async (ctx) => {
    if (installed === null) ctx.skip(skipReason);
    const store = await VerdictStore.open(join(project, "results/proj.duckdb"));
    try {
      const causes = await store.query<{ reference: string }>(
        "SELECT DISTINCT reference FROM causes WHERE grader = 'structured' AND reference LIKE 'airline.35.%'",
      );
      expect(causes).toEqual([{ reference: PROJECT_RULE }]);
      const coverage = await store.query<{ fixtures: string }>(
        "SELECT fixtures FROM coverage WHERE grader = 'structured' AND fixtures_applied > 0",
      );
      expect(coverage.map((c) => c.fixtures)).toEqual([JSON.stringify([`requirements/${FIXTURE}`])]);
    } finally {
      store.close();
    }
  });

  it("names its sources and its reviews file on the report's run line", (ctx) => {
    if (installed === null) ctx.skip(skipReason);
    const curated = `tau-rescore ${TOOL_VERSION}'s curated set`;
    const summary = JSON.parse(readFileSync(join(project, "report/summary.json"), "utf8"));
    expect(summary.run.sources).toEqual([
      expect.stringMatching(
        new RegExp(`^requirements: project requirements/ \\(1 file\\) over ${curated} \\(\\d+ files\\)$`),
      ),
      expect.stringMatching(new RegExp(`^policies: ${curated} \\(\\d+ files\\)$`)),
    ]);
    const html = readFileSync(join(project, "report/report.html"), "utf8").replaceAll("&#39;", "'");
    const runLine = html.match(/<p class="run-line">.*?<\/p>/s)?.[0] ?? "";
    expect(runLine).toContain(summary.run.sources[0]);
    expect(runLine).toContain(`reviews from <code>${join(project, "reviews/proj.json")}</code>`);
    const md = readFileSync(join(project, "report/report.md"), "utf8").replace(/\\(.)/g, "$1");
    expect(md).toContain(summary.run.sources[0]);
    expect(readdirSync(project).sort()).toEqual([
      "README.md",
      "corpus",
      "experiment.json",
      "report",
      "requirements",
      "results",
      "reviews",
    ]);
  });
});
