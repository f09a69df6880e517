/**
 * The live judge's run-time flags, shared by `grade` and `run`, and what every command that may call
 * it does at the end: one summary line on stderr, and exit 1 when any judgement failed (the unknown
 * verdicts are written all the same).
 */
import type { Command } from "commander";
import type { JudgeRuntime } from "../graders/spec.ts";
import { JudgmentCache } from "../graders/tau3/judge/cache.ts";
import { checkReachable } from "../graders/tau3/judge/client.ts";
import type { NlJudge } from "../graders/tau3/nl.ts";
import { UsageError } from "./errors.ts";

export interface JudgeRuntimeOptions {
  judgeConcurrency: string;
  judgeTimeout: string;
  judgeRetries: string;
}

export const addJudgeRuntimeOptions = (cmd: Command): Command =>
  cmd
    .option("--judge-concurrency <n>", "live judge: requests in flight at once, across files", "8")
    .option("--judge-timeout <seconds>", "live judge: timeout of one request", "120")
    .option("--judge-retries <n>", "live judge: retries of a failed request (tau2: 3)", "3");

const number = (flag: string, text: string, min: number, integer: boolean): number => {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw new UsageError(
      `${flag} takes ${integer ? "an integer" : "a number"} ≥ ${min}, not ${JSON.stringify(text)}`,
    );
  return n;
};

/** The flags as a judge runtime, with a fresh cache (a command loads what it has into it). */
export function judgeRuntime(opts: JudgeRuntimeOptions): JudgeRuntime & { readonly cache: JudgmentCache } {
  return {
    concurrency: number("--judge-concurrency", opts.judgeConcurrency, 1, true),
    timeoutMs: number("--judge-timeout", opts.judgeTimeout, 0.001, false) * 1000,
    retries: number("--judge-retries", opts.judgeRetries, 0, true),
    cache: new JudgmentCache(),
    log: (line) => process.stderr.write(`tau-rescore: ${line}\n`),
  };
}

/** A typo in the judge's host or port is a usage error before anything is graded. */
export async function checkJudgeEndpoint(baseUrl: string | undefined): Promise<void> {
  if (baseUrl === undefined) return;
  const problem = await checkReachable(baseUrl);
  if (problem !== null) throw new UsageError(`judge base URL ${baseUrl} is not reachable: ${problem}`);
}

/** Prints the judge's summary line; true when a judgement failed (the command then exits 1). */
export function reportJudge(judge: NlJudge): boolean {
  if (judge.stats === undefined) return false;
  process.stderr.write(`tau-rescore: ${judge.stats.summary()}\n`);
  return judge.stats.failed > 0;
}
