/**
 * Start-up: the command line's flags load nothing heavy (graders, domains, DuckDB, charts, zod); each
 * command loads its module when it runs. The help texts that repeat a list kept elsewhere say the same.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { JUDGE_MODEL_HELP } from "../../src/cli/commands/grade.ts";
import { SAMPLE_VERDICTS_HELP, VERDICTS_HELP } from "../../src/cli/commands/review.ts";
import { buildProgram, commandsFor } from "../../src/cli/program.ts";
import { GRADER_IDS } from "../../src/graders/registry.ts";
import { DEFAULT_JUDGE_MODEL } from "../../src/graders/tau3/judge/prompt.ts";
import { REVIEW_VERDICTS, SAMPLE_VERDICTS } from "../../src/reviews/file.ts";
import { capturedIo, cliInProcess } from "../helpers/cli-in-process.ts";

const SRC = resolve("src");

/** The modules `entry` loads before any command runs: static imports that are not type-only. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.startsWith(SRC)) return;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)";/gms)) {
      const spec = m[1] as string;
      visit(spec.startsWith(".") ? join(dirname(file), spec) : spec);
    }
  };
  visit(entry);
  return seen;
}

describe("what the command line loads before a command runs", () => {
  const loaded = [...staticClosure(join(SRC, "cli/main.ts"))].map((f) =>
    f.startsWith(SRC) ? `src/${f.slice(SRC.length + 1)}` : f,
  );

  it("is the flags only: no grader, domain, store, chart or report code, no DuckDB, vega, resvg or zod", () => {
    const heavy = loaded.filter(
      (f) =>
        /^src\/(domains|report|charts|analysis|pipeline|reviews|experiments|replay)\//.test(f) ||
        (/^src\/probes\//.test(f) && f !== "src/probes/kind.ts") || // the kinds: a list, no code
        (/^src\/graders\//.test(f) && f !== "src/graders/structured/gate-names.ts") ||
        f === "src/store/store.ts" ||
        /^(@duckdb|vega|vega-lite|@resvg|zod)/.test(f),
    );
    expect(heavy).toEqual([]);
    expect(loaded).toContain("src/cli/program.ts");
  });

  it("loads no command's module: each is imported when the command line needs it", () => {
    expect(loaded.filter((f) => f.startsWith("src/cli/commands/"))).toEqual([]);
    expect(loaded).toContain("src/cli/errors.ts");
  });

  it("needs the command a line names, or `help <command>` names; every command otherwise", () => {
    const names = (argv: string[]) => commandsFor(argv).map(([name]) => name);
    const all = names([]);
    expect(names(["grade", "x.json", "--grader", "tau3"])).toEqual(["grade"]);
    expect(names(["help", "policies"])).toEqual(["policies"]);
    for (const argv of [["--help"], ["help"], ["--debug", "grade", "x.json"], ["gradee"], ["help", "nosuch"]])
      expect(names(argv)).toEqual(all);
  });

  it("lists each command under the name its module registers, in --help's order", async () => {
    const program = await buildProgram(capturedIo());
    expect(program.commands.map((c) => c.name())).toEqual([...commandsFor([]).map(([name]) => name), "help"]);
  });

  it("grade loads a domain, a grader's code and the live judge only when a file or a flag asks for them", () => {
    const grade = [...staticClosure(join(SRC, "cli/commands/grade-command.ts"))];
    const eager = grade.filter((f) =>
      /\/(domains\/(airline|retail|telecom|mock|banking_knowledge)\/|domains\/registry\.ts$|graders\/structured\/(grade|engine)\.ts$|graders\/corrections\/(apply|engine)\.ts$|graders\/tau3\/judge\/http-judge\.ts$)/.test(
        f,
      ),
    );
    expect(eager).toEqual([]);
  });

  it("can fail: a command module is heavy", () => {
    const grade = [...staticClosure(join(SRC, "cli/commands/grade-command.ts"))];
    expect(grade.some((f) => f.endsWith("graders/registry.ts"))).toBe(true);
  });
});

describe("help texts that repeat a list", () => {
  it.each([["grade"], ["show"], ["help", "grade"]])(
    "name the graders in registry order: %s --help, the registry loaded for it",
    async (...command) => {
      const r = await cliInProcess(command[0] === "help" ? command : [...command, "--help"]);
      expect(r.stdout.replace(/\s+/g, " ")).toContain(`graders (${GRADER_IDS.join(", ")}`);
    },
  );

  it("name tau2's judge model and the review verdicts", () => {
    expect(JUDGE_MODEL_HELP).toBe(DEFAULT_JUDGE_MODEL);
    expect(VERDICTS_HELP).toBe(REVIEW_VERDICTS.join(" | "));
    expect(SAMPLE_VERDICTS_HELP).toBe(SAMPLE_VERDICTS.join(" | "));
  });
});
