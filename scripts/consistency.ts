/**
 * Runs the task/trajectory consistency check over a corpus and prints, per file, how many simulations
 * are foreign (conversation about another task's user), consistent, or unchecked.
 *
 *   npx tsx scripts/consistency.ts [corpus dir] [tau2 data dir] [--list]
 */

import { relative } from "node:path";
import { TAU2_QUIRKS } from "../src/domains/quirks.ts";
import { domainByName } from "../src/domains/registry.ts";
import { detectTaskVersion } from "../src/formats/task-version.ts";
import { checkConsistency } from "../src/graders/consistency.ts";
import { noJudge } from "../src/graders/tau3/nl.ts";
import { ContextPool } from "../src/pipeline/contexts.ts";
import { gradeFile } from "../src/pipeline/grade.ts";
import { trajectoryFiles } from "./script-args.ts";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const list = process.argv.includes("--list");
const corpus = args[0] ?? "../shared/corpus";
const dataDir = args[1] ?? "../shared/tau2-data";
const pool = new ContextPool(dataDir, TAU2_QUIRKS);
const totals = { foreign: 0, consistent: 0, unchecked: 0, ungraded: 0 };

for (const { path, file } of trajectoryFiles(corpus)) {
  const domain = domainByName(file.info.domain ?? "");
  const counts = { foreign: 0, consistent: 0, unchecked: 0, ungraded: 0 };
  const flagged: string[] = [];
  // gradeFile resolves each simulation's task exactly as a run does (embedded tasks or the fallback set).
  for await (const g of gradeFile(file, detectTaskVersion(file, dataDir), pool, {
    judge: noJudge,
    fallbackTaskVersion: "head",
  })) {
    if (g.sim === null || g.task === null || domain === undefined) {
      counts.ungraded++;
      continue;
    }
    const c = checkConsistency({ data: pool.get(domain).data, task: g.task, messages: g.sim.messages });
    counts[c.status]++;
    if (c.status === "foreign") flagged.push(`    sim ${g.sim.id} task ${g.task.id}: ${c.note}`);
  }
  for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += counts[k];
  console.log(
    `${relative(corpus, path)}\tforeign ${counts.foreign}\tconsistent ${counts.consistent}\tunchecked ${counts.unchecked}\tungraded ${counts.ungraded}`,
  );
  if (list) for (const f of flagged) console.log(f);
}
console.log(
  `TOTAL\tforeign ${totals.foreign}\tconsistent ${totals.consistent}\tunchecked ${totals.unchecked}\tungraded ${totals.ungraded}`,
);
