/**
 * `tau-rescore requirements scan|new|verify|list`: authoring and auditing the requirement fixtures of
 * the structured grader, as library functions: options in, library calls, text or JSON out.
 */

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DomainDef } from "../../domains/domain.ts";
import { DOMAINS, domainByName } from "../../domains/registry.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/folders.ts";
import { verifyRequirementSet } from "../../graders/structured/requirements/check-all.ts";
import { type CoverageRow, coverageReport } from "../../graders/structured/requirements/coverage.ts";
import { ruleRows } from "../../graders/structured/requirements/list.ts";
import {
  FACT_VOCABULARY_FILE,
  loadFactVocabulary,
  loadRequirements,
} from "../../graders/structured/requirements/load.ts";
import { scaffoldFixture } from "../../graders/structured/requirements/scaffold.ts";
import { type Candidate, scanTask } from "../../graders/structured/requirements/scan.ts";
import { taskSetNames, taskSetsOf } from "../../graders/structured/requirements/task-sets.ts";
import { outputFileArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";
import { alignedTable } from "../table.ts";

export interface ScanOptions {
  /** Fact candidates (amounts, reasons, booking times) instead of prohibitions. */
  facts?: boolean;
  domain?: string;
  taskVersion?: string;
  task?: string;
  summary?: boolean;
  dir?: string;
  json?: boolean;
  dataDir?: string;
}

export interface NewOptions {
  domain: string;
  task: string;
  taskVersion?: string;
  out?: string;
  force?: boolean;
  dataDir?: string;
}

export interface VerifyOptions {
  all?: boolean;
  dir?: string;
  dataDir?: string;
}

export interface ListOptions {
  dir?: string;
  json?: boolean;
}

/** The domains with curated requirements (mock is a test domain). */
const CURATED_DOMAINS: readonly DomainDef[] = [
  DOMAINS.airline,
  DOMAINS.retail,
  DOMAINS.telecom,
  DOMAINS.banking_knowledge,
];

function domainOf(name: string): DomainDef {
  const domain = domainByName(name);
  if (domain === undefined)
    throw new UsageError(`unknown domain ${name} (${Object.keys(DOMAINS).join(", ")})`);
  return domain;
}

function checkVersion(dataDir: string, domain: DomainDef, version: string | undefined): void {
  if (version === undefined) return;
  const names = taskSetNames(dataDir, domain.name);
  if (!names.includes(version))
    throw new UsageError(
      `no task version ${version} of ${domain.name} (have: ${names.join(", ") || "none"})`,
    );
}

export function runScan(opts: ScanOptions, io: CommandIo): void {
  if (opts.domain === undefined) throw new UsageError("scan needs --domain (or --summary)");
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const domain = domainOf(opts.domain);
  checkVersion(dataDir, domain, opts.taskVersion);
  const candidates: Candidate[] = [];
  let found = false;
  for (const set of taskSetsOf(dataDir, domain.name, opts.taskVersion)) {
    for (const task of set.tasks) {
      if (opts.task === undefined || task.id === opts.task) {
        found = true;
        candidates.push(
          ...scanTask(task, domain, set.ref.name, opts.facts === true ? "facts" : "prohibitions"),
        );
      }
    }
  }
  // A task id that matches nothing is a typo, not a task without candidates.
  if (opts.task !== undefined && !found)
    throw new UsageError(`task ${opts.task} is not in ${domain.name} ${opts.taskVersion ?? "(any version)"}`);
  if (opts.json === true) {
    io.stdout.write(`${JSON.stringify(candidates, null, 2)}\n`);
    return;
  }
  for (const c of candidates) {
    const tools = opts.facts === true ? c.cues.join(",") : c.tools.length > 0 ? c.tools.join(",") : "-";
    io.stdout.write(
      `${c.task_version}\t${c.task_id}\t${c.field}[${c.start}:${c.end}]\t${tools}\t${c.sentence}\n`,
    );
  }
  io.stdout.write(`${candidates.length} ${opts.facts === true ? "fact " : ""}candidate(s)\n`);
}

const SUMMARY_COLUMNS = [
  "domain",
  "task_version",
  "tasks",
  "candidates",
  "rules",
  "covered",
  "rejected",
  "unreviewed",
  "stale",
] as const satisfies readonly (keyof CoverageRow)[];

export function runSummary(opts: ScanOptions, io: CommandIo): void {
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const domains = opts.domain === undefined ? CURATED_DOMAINS : [domainOf(opts.domain)];
  const dir = opts.dir ?? BUILTIN_REQUIREMENTS_DIR;
  if (!existsSync(dir)) throw new UsageError(`no requirements dir ${dir}`);
  const kind = opts.facts === true ? "facts" : "prohibitions";
  // Facts are audited in the domains that name some (a `_facts.json`): the others have no clause reading one.
  const vocabularies = kind === "facts" ? loadRequirements(dir) : null;
  const audited =
    vocabularies === null
      ? domains
      : domains.filter((d) => Object.keys(vocabularies.vocabulary(d.name)).length > 0);
  const report = coverageReport(dataDir, dir, audited, kind);
  const rows = report.rows.filter(
    (r) => opts.taskVersion === undefined || r.task_version === opts.taskVersion,
  );
  if (opts.json === true) {
    io.stdout.write(`${JSON.stringify({ rows, problems: report.problems }, null, 2)}\n`);
  } else {
    io.stdout.write(
      `${alignedTable([[...SUMMARY_COLUMNS], ...rows.map((r) => SUMMARY_COLUMNS.map((k) => String(r[k])))])}\n`,
    );
    for (const c of report.unreviewed)
      io.stdout.write(`unreviewed: ${c.domain} ${c.task_version} ${c.task_id} ${c.field}: ${c.sentence}\n`);
    for (const p of report.problems) io.stdout.write(`problem: ${p}\n`);
  }
  const open = rows.reduce((n, r) => n + r.unreviewed + r.stale, 0);
  if (report.problems.length > 0 || open > 0)
    throw new InputError(
      `coverage incomplete: ${open} unreviewed or stale candidate(s), ${report.problems.length} problem(s)`,
    );
}

export function runNew(opts: NewOptions, io: CommandIo): void {
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const domain = domainOf(opts.domain);
  checkVersion(dataDir, domain, opts.taskVersion);
  const set = taskSetsOf(dataDir, domain.name, opts.taskVersion).find((s) => s.byId.has(opts.task));
  const task = set?.byId.get(opts.task);
  if (set === undefined || task === undefined) {
    throw new UsageError(`task ${opts.task} is not in ${domain.name} ${opts.taskVersion ?? "(any version)"}`);
  }
  // Facts are suggested from the domain's vocabulary (none without one: no fact of it could verify).
  const vocabularyPath = join(BUILTIN_REQUIREMENTS_DIR, domain.name, FACT_VOCABULARY_FILE);
  const vocabulary = loadFactVocabulary(vocabularyPath);
  if ("message" in vocabulary) throw new InputError(`${vocabulary.path}: ${vocabulary.message}`);
  const draft = scaffoldFixture(domain, set.ref.name, task, vocabulary.vocabulary);
  const text = `${JSON.stringify(draft, null, 2)}\n`;
  if (opts.out === undefined) {
    io.stdout.write(text);
    return;
  }
  if (existsSync(opts.out) && opts.force !== true)
    throw new UsageError(`${opts.out} exists; pass --force to overwrite it`);
  outputFileArg("--out", opts.out);
  writeFileSync(opts.out, text);
  io.stdout.write(`wrote ${opts.out}\n`);
}

export function runVerify(fixtures: string[], opts: VerifyOptions, io: CommandIo): void {
  if (opts.all === true && fixtures.length > 0) throw new UsageError("pass fixture files or --all, not both");
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const dir = opts.dir ?? BUILTIN_REQUIREMENTS_DIR;
  if (!existsSync(dir)) throw new UsageError(`no requirements dir ${dir}`);
  for (const f of fixtures) if (!existsSync(f)) throw new UsageError(`no fixture file ${f}`);
  const result = verifyRequirementSet({ dir, dataDir, ...(fixtures.length > 0 ? { only: fixtures } : {}) });
  for (const p of result.problems) io.stdout.write(`${p.fixture}\t${p.ruleId ?? "-"}\t${p.message}\n`);
  if (result.problems.length > 0) {
    const files = new Set(result.problems.map((p) => p.fixture)).size;
    throw new InputError(`${result.problems.length} problem(s) in ${files} fixture file(s)`);
  }
  io.stdout.write(
    `ok: ${result.rules} rule(s) and ${result.facts} fact(s) in ${result.fixtures} fixture(s) verified against ${dataDir}\n`,
  );
}

export function runList(opts: ListOptions, io: CommandIo): void {
  const dir = opts.dir ?? BUILTIN_REQUIREMENTS_DIR;
  if (!existsSync(dir)) throw new UsageError(`no requirements dir ${dir}`);
  const set = loadRequirements(dir);
  const rows = ruleRows(set);
  if (opts.json === true) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    for (const r of rows) {
      const scope = r.arguments === null ? "-" : JSON.stringify(r.arguments);
      io.stdout.write(
        `${r.domain}\t${r.task_version}\t${r.task_id}\t${r.id}\t${r.action}\t${scope}\t"${r.source_quote}"\n`,
      );
    }
    io.stdout.write(`${rows.length} rule(s)\n`);
  }
  if (set.problems.length > 0) {
    for (const p of set.problems) io.stdout.write(`problem: ${p.path}: ${p.message}\n`);
    throw new InputError(`${set.problems.length} fixture file(s) could not be read`);
  }
}
