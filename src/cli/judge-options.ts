/**
 * The live judge's run-time flags as a runtime, and what every command that may call it does at the
 * end: one summary line on stderr, and exit 1 when any judgement failed (the unknown verdicts are
 * written all the same).
 */
import type { JudgeRuntime } from "../graders/load.ts";
import { JudgmentCache } from "../graders/tau3/judge/cache.ts";
import { checkReachable } from "../graders/tau3/judge/client.ts";
import type { NlJudge } from "../graders/tau3/nl.ts";
import { LIMITS } from "../util/limits.ts";
import { numberArg } from "./args.ts";
import { UsageError } from "./errors.ts";
import type { Output } from "./io.ts";
import type { JudgeRuntimeOptions } from "./judge-flags.ts";

/** The flags as a judge runtime, with a fresh cache (a command loads what it has into it). */
export function judgeRuntime(
  opts: JudgeRuntimeOptions,
  stderr: Output,
): JudgeRuntime & { readonly cache: JudgmentCache } {
  return {
    concurrency: numberArg("--judge-concurrency", opts.judgeConcurrency, LIMITS.judgeConcurrency),
    timeoutMs: numberArg("--judge-timeout", opts.judgeTimeout, LIMITS.judgeTimeout) * 1000,
    retries: numberArg("--judge-retries", opts.judgeRetries, LIMITS.judgeRetries),
    cache: new JudgmentCache(),
    log: (line) => stderr.write(`tau-rescore: ${line}\n`),
  };
}

/** A typo in the judge's host or port is a usage error before anything is graded. */
export async function checkJudgeEndpoint(baseUrl: string | undefined): Promise<void> {
  if (baseUrl === undefined) return;
  const problem = await checkReachable(baseUrl);
  if (problem !== null) throw new UsageError(`judge base URL ${baseUrl} is not reachable: ${problem}`);
}

/** Prints the judge's summary line; true when a judgement failed (the command then exits 1). */
export function reportJudge(judge: NlJudge, stderr: Output): boolean {
  if (judge.stats === undefined) return false;
  stderr.write(`tau-rescore: ${judge.stats.summary()}\n`);
  return judge.stats.failed > 0;
}
