/**
 * `tau-rescore policies verify|list`: audit the domain policy clauses of the structured grader
 * (`policies/<domain>/*.json`). Same contract as `requirements verify`: one line per problem, exit 1.
 */
import { DOMAINS, loadDomainData } from "../../domains/registry.ts";
import { listTaskSets } from "../../formats/tasks.ts";
import { verifyClauses } from "../../graders/structured/clauses/verify.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";
import { loadSet } from "./policies-list.ts";

export interface VerifyOptions {
  all?: boolean;
  domain?: string;
  dir?: string;
  dataDir?: string;
  json?: boolean;
}

export function runVerify(opts: VerifyOptions, io: CommandIo): void {
  if (opts.all === true && opts.domain !== undefined)
    throw new UsageError("pass --domain or --all, not both");
  const domains = Object.values(DOMAINS).filter((d) => opts.domain === undefined || d.name === opts.domain);
  if (domains.length === 0)
    throw new UsageError(`unknown domain ${opts.domain} (${Object.keys(DOMAINS).join(", ")})`);
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const set = loadSet(opts.dir);
  const problems = set.problems.map((p) => ({ path: p.path, clause: "-", version: "-", message: p.message }));
  let clauses = 0;
  for (const domain of domains) {
    const data = loadDomainData(dataDir, domain);
    // Every task version: a version that ships its own policy document is checked against it.
    const versions = [
      ...new Set(listTaskSets(dataDir, domain.name).map((s) => s.name.split("/")[0] as string)),
    ];
    for (const version of versions.length === 0 ? ["head"] : versions) {
      const r = verifyClauses(set, data, dataDir, version);
      if (version === (versions[0] ?? "head"))
        clauses += r.verified.length + new Set(r.problems.map((p) => p.clauseId)).size;
      for (const p of r.problems)
        problems.push({ path: p.path, clause: p.clauseId, version, message: p.message });
    }
  }
  const unique = [
    ...new Map(problems.map((p) => [`${p.path}\u0000${p.clause}\u0000${p.message}`, p])).values(),
  ];
  if (opts.json === true) io.stdout.write(`${JSON.stringify({ clauses, problems: unique }, null, 2)}\n`);
  else for (const p of unique) io.stdout.write(`${p.path}\t${p.clause}\t${p.version}\t${p.message}\n`);
  if (unique.length > 0) throw new InputError(`${unique.length} problem(s) in the policy clauses`);
  if (opts.json !== true) io.stdout.write(`ok: ${clauses} clause(s) verified against ${dataDir}\n`);
}
