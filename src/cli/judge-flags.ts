/** The live judge's run-time flags, shared by `grade` and `run`; declared apart so `--help` loads no judge code. */
import type { Command } from "commander";

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
