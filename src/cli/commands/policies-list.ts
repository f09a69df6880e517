/** `tau-rescore policies list`, apart from `verify` so listing loads no domain code. */

import { existsSync } from "node:fs";
import { type ClauseSet, loadClauses } from "../../graders/structured/clauses/load.ts";
import { BUILTIN_POLICIES_DIR } from "../../graders/structured/folders.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";

export function loadSet(dir: string | undefined): ClauseSet {
  const d = dir ?? BUILTIN_POLICIES_DIR;
  if (!existsSync(d)) throw new UsageError(`no policies dir ${d}`);
  return loadClauses(d);
}

export function runList(opts: { dir?: string; json?: boolean }, io: CommandIo): void {
  const set = loadSet(opts.dir);
  const rows = set.clauses.map(({ path, domain, clause: c }) => ({
    domain,
    id: c.id,
    effect: c.effect,
    tools: c.tools,
    rule: c.rule,
    source_quote: c.source_quote,
    files: c.sources.map((s) => ("file" in s ? s.file : `kb:${s.document}`)),
    path,
  }));
  if (opts.json === true) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    for (const r of rows)
      io.stdout.write(
        `${r.domain}\t${r.id}\t${r.effect}\t${r.tools.join(",")}\t${r.rule}\t"${r.source_quote.replaceAll("\n", " ")}"\n`,
      );
    io.stdout.write(`${rows.length} clause(s)\n`);
  }
  if (set.problems.length > 0) {
    for (const p of set.problems) io.stdout.write(`problem: ${p.path}: ${p.message}\n`);
    throw new InputError(`${set.problems.length} clause file(s) could not be read`);
  }
}
