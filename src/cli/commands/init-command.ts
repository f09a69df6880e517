/**
 * `tau-rescore init DIR` as a library function: a project of its own in a new or empty folder. Its
 * experiment declares no roots, so every path in it is the project's own; the tau2 data dir comes from the
 * command line, and the project's `requirements/` lies over the tool's curated set.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";

/** The folders a project starts with (each empty). */
const FOLDERS = ["corpus", "requirements", "reviews"] as const;

/** An experiment name (`[A-Za-z0-9_.-]+`) from the folder's name; `project` when nothing of it is left. */
function projectName(dir: string): string {
  const name = basename(resolve(dir))
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 64);
  return name === "" ? "project" : name;
}

function projectExperiment(name: string): object {
  return {
    name,
    description:
      "Trajectories in corpus/ graded by τ³ and the structured grader. Paths are relative to this file and stay inside its folder; the tau2 data dir comes from --data-dir or TAU2_DATA_DIR.",
    corpus: ["corpus"],
    graders: ["tau3", "structured"],
    judge: { mode: "recorded" },
    output: `results/${name}.duckdb`,
    exclude_from_rankings: [],
  };
}

function projectReadme(name: string): string {
  return `# ${name}

A tau-rescore project. \`experiment.json\` grades the trajectories in \`corpus/\` with τ³ and the structured
grader into \`results/${name}.duckdb\`; every path in it is relative to this folder and stays inside it. Every
command needs the tau2 data dir (a tau2-bench checkout's \`data/tau2\`):

\`\`\`sh
export TAU2_DATA_DIR=/path/to/tau2-bench/data/tau2
\`\`\`

1. Put trajectories in (tau2 results files, τ³ runner files, lists of simulations) and look at them:

   \`\`\`sh
   cp /path/to/results/*.json corpus/
   tau-rescore corpus inspect corpus --experiment experiment.json
   \`\`\`

2. Grade them into the store (a second run finds its rows and changes nothing):

   \`\`\`sh
   tau-rescore run experiment.json
   \`\`\`

3. Write the report (\`report/report.html\`, \`report/report.md\`, \`report/summary.json\`):

   \`\`\`sh
   tau-rescore report --experiment experiment.json --out report --html
   \`\`\`

\`requirements/\` holds this project's own requirement fixtures, \`requirements/<domain>/<task set>/<task
id>.json\`: each one takes the place of tau-rescore's curated fixture of the same path, and the curated
fixtures apply everywhere else. A \`policies/\` or \`corrections/\` folder works the same way over the curated
policy clauses and corrections. The report's run line and \`corpus inspect\` name the sources used.
\`reviews/\` holds the reviews \`tau-rescore review\` records (\`reviews/${name}.json\`).
`;
}

/** Why `dir` cannot hold a new project, or null when it can (it is missing, or an empty folder). */
function refusal(dir: string): string | null {
  if (!existsSync(dir)) return null;
  if (!statSync(dir).isDirectory()) return `init: ${dir} is a file, not a folder`;
  if (readdirSync(dir).length > 0)
    return `init: ${dir} is not empty: init writes a new project into a new or empty folder`;
  return null;
}

export function initCommand(dir: string, io: CommandIo): void {
  const why = refusal(dir);
  if (why !== null) throw new UsageError(why);
  const name = projectName(dir);
  for (const f of FOLDERS) mkdirSync(join(dir, f), { recursive: true });
  writeFileSync(join(dir, "experiment.json"), `${JSON.stringify(projectExperiment(name), null, 2)}\n`);
  writeFileSync(join(dir, "README.md"), projectReadme(name));
  io.stderr.write(
    `init: wrote ${terminalSafe(dir)}: experiment.json (experiment ${name}), corpus/, requirements/, reviews/ and README.md (what to run next)\n`,
  );
}
