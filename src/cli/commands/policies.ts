/**
 * `tau-rescore policies verify|list`: audit the domain policy clauses of the structured grader
 * (`policies/<domain>/*.json`). Same contract as `requirements verify`: one line per problem, exit 1.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { DOMAINS, loadDomainData } from "../../domains/registry.ts";
import { listTaskSets } from "../../formats/tasks.ts";
import { BUILTIN_POLICIES_DIR, type ClauseSet, loadClauses } from "../../graders/structured/clauses/load.ts";
import { verifyClauses } from "../../graders/structured/clauses/verify.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";

interface Output {
  write(chunk: string): unknown;
}

export interface PoliciesCommandIo {
  readonly stdout: Output;
  readonly env: NodeJS.ProcessEnv;
}

const defaultIo: PoliciesCommandIo = { stdout: process.stdout, env: process.env };
const DIR_HELP = "policy clauses dir (default: the repo's policies/)";

interface VerifyOptions {
  all?: boolean;
  domain?: string;
  dir?: string;
  dataDir?: string;
  json?: boolean;
}

export function registerPoliciesCommand(program: Command, io: PoliciesCommandIo = defaultIo): void {
  const cmd = program
    .command("policies")
    .description("audit the domain policy clauses of the structured grader (policies/<domain>/*.json)");
  cmd
    .command("verify")
    .description(
      "verify clauses: quotes verbatim at their offsets in each policy document, tools, arguments, tables",
    )
    .option("--all", "every domain (the default without --domain)")
    .option("--domain <name>", "only this domain")
    .option("--dir <dir>", DIR_HELP)
    .option("--data-dir <dir>", "tau2 data dir; default $TAU2_DATA_DIR")
    .option("--json", "print the problems (and counts) as JSON")
    .action((opts: VerifyOptions) => runVerify(opts, io));
  cmd
    .command("list")
    .description("list the clauses")
    .option("--dir <dir>", DIR_HELP)
    .option("--json", "print a JSON array of clauses")
    .action((opts: { dir?: string; json?: boolean }) => runList(opts, io));
}

function loadSet(dir: string | undefined): ClauseSet {
  const d = dir ?? BUILTIN_POLICIES_DIR;
  if (!existsSync(d)) throw new UsageError(`no policies dir ${d}`);
  return loadClauses(d);
}

function runVerify(opts: VerifyOptions, io: PoliciesCommandIo): void {
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

function runList(opts: { dir?: string; json?: boolean }, io: PoliciesCommandIo): void {
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
