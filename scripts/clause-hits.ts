/**
 * `npx tsx scripts/clause-hits.ts [--corpus DIR] [--data-dir DIR] [--domain D] [--clause ID] [--licenses]`
 *
 * Every policy clause finding on a corpus, one line each: domain, clause, outcome, τ³ reward, file,
 * simulation id, turn, and the facts the clause read. For clause authors checking what a clause fires on
 * (read the conversation of every `broken` line before trusting a clause).
 */

import { relative } from "node:path";
import { parseArgs } from "node:util";
import { TAU2_QUIRKS } from "../src/domains/quirks.ts";
import { detectTaskVersion } from "../src/formats/task-version.ts";
import { loadClauses } from "../src/graders/structured/clauses/load.ts";
import { loadedStructured } from "../src/graders/structured/engine.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../src/graders/structured/folders.ts";
import { DEFAULT_STRUCTURED_OPTIONS } from "../src/graders/structured/grade.ts";
import { loadRequirements } from "../src/graders/structured/requirements/load.ts";
import { recordedJudge } from "../src/graders/tau3/nl.ts";
import { ContextPool } from "../src/pipeline/contexts.ts";
import { gradeFile } from "../src/pipeline/grade.ts";
import { corpusOptions, trajectoryFiles } from "./script-args.ts";

const { values: args } = parseArgs({
  options: {
    ...corpusOptions,
    domain: { type: "string" },
    clause: { type: "string" },
    licenses: { type: "boolean", default: false },
  },
});
const pool = new ContextPool(args["data-dir"], TAU2_QUIRKS);
const options = {
  ...DEFAULT_STRUCTURED_OPTIONS,
  requirements: loadRequirements(BUILTIN_REQUIREMENTS_DIR),
  clauses: loadClauses(BUILTIN_POLICIES_DIR),
};
const counts = new Map<string, number>();
for (const { path, file } of trajectoryFiles(args.corpus)) {
  if (args.domain !== undefined && file.info.domain !== args.domain) continue;
  const version = detectTaskVersion(file, args["data-dir"]);
  for await (const g of gradeFile(file, version, pool, {
    judge: recordedJudge,
    fallbackTaskVersion: "head",
    graders: { structured: loadedStructured(options) },
  })) {
    const s = g.verdicts.structured;
    if (s === undefined) continue;
    for (const f of s.clauses) {
      const id = f.clause.clause.id;
      if (args.clause !== undefined && id !== args.clause) continue;
      if (f.outcome !== "broken" && !args.licenses) continue;
      const key = `${id}\t${f.outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const facts = f.facts.map((x) => `${x.name}=${JSON.stringify(x.value)}`).join(" ");
      process.stdout.write(
        `${file.info.domain}\t${id}\t${f.outcome}\ttau3=${g.tau3?.reward}\t${relative(args.corpus, path)}\t${g.row.simulation_id}\ttask=${g.row.task_id}\tturn=${f.call.turnIdx ?? f.call.messageIndex}\t${f.call.name}(${JSON.stringify(f.call.args)})\t${facts}\n`,
      );
    }
  }
}
process.stdout.write("\n");
for (const [k, n] of [...counts].sort()) process.stdout.write(`${n}\t${k}\n`);
