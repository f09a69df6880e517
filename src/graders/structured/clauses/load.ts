/** Reads policy clauses from `policies/<domain>/*.json`; a file that does not parse is a problem, not a crash. */
import { relative, sep } from "node:path";
import { readJsonFile } from "../../../formats/zod-issues.ts";
import { EXIT_INTERNAL, RescoreError } from "../../../util/errors.ts";
import { type FolderSource, layeredFiles } from "../../../util/layers.ts";
import { type Clause, clauseFileSchema } from "./schema.ts";

export interface LoadedClause {
  readonly path: string;
  readonly domain: string;
  readonly clause: Clause;
}

export interface ClauseLoadProblem {
  readonly path: string;
  readonly message: string;
}

export interface ClauseSet {
  readonly clauses: readonly LoadedClause[];
  readonly problems: readonly ClauseLoadProblem[];
}

class ParseProblem extends RescoreError {
  override readonly code = "clause_parse";
  override readonly exitStatus = EXIT_INTERNAL;
}

/** Over layers, each clause file is the first layer's that has its relative path. */
export function loadClauses(source: FolderSource): ClauseSet {
  const clauses: LoadedClause[] = [];
  const problems: ClauseLoadProblem[] = [];
  const ids = new Map<string, string>();
  for (const { rel, path } of layeredFiles(source, (name) => name.endsWith(".json"))) {
    const shown = relative(process.cwd(), path) || path;
    let file: ReturnType<typeof clauseFileSchema.parse>;
    try {
      file = readJsonFile(path, clauseFileSchema, (m) => new ParseProblem(m.replace(path, shown)));
    } catch (e) {
      if (!(e instanceof ParseProblem)) throw e;
      problems.push({ path: shown, message: e.message.replace(`${shown}: `, "") });
      continue;
    }
    const folder = rel.split(sep)[0];
    if (folder !== file.domain)
      problems.push({
        path: shown,
        message: `a ${file.domain} clause file must live in ${file.domain}/, not ${folder}/`,
      });
    for (const clause of file.clauses) {
      const first = ids.get(clause.id);
      if (first !== undefined) {
        problems.push({ path: shown, message: `duplicate clause id ${clause.id} (first in ${first})` });
        continue;
      }
      ids.set(clause.id, shown);
      clauses.push({ path: shown, domain: file.domain, clause });
    }
  }
  return { clauses, problems };
}
