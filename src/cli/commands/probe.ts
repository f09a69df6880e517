/**
 * `tau-rescore probe`: writes synthetic probe trajectories as a tau2 results file, or (`--census`)
 * probes every task set with every kind and grades each with the default experiment's graders. The
 * flags only.
 */
import type { Command } from "commander";
import { DOMAIN_NAMES } from "../../formats/domains.ts";
import { PROBE_KINDS } from "../../probes/kind.ts";
import type { CommandIo } from "../io.ts";
import { MEMORY_LIMIT_OPTION } from "../memory-limit.ts";
import type { ProbeOptions } from "./probe-command.ts";

export function registerProbeCommand(program: Command, io: CommandIo): void {
  program
    .command("probe")
    .description("write synthetic probe trajectories (a tau2 results file), or run the blind-spot census")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option("--domain <name>", `domain: ${DOMAIN_NAMES.join(", ")}`)
    .option(
      "--task-version <name>",
      "task set (head, head/tasks_small, v0.2.0_f8de30c, ...); default: the first",
    )
    .option("--kind <kind>", `probe kind: ${PROBE_KINDS.join(", ")}`)
    .option("--out <file>", "results file to write")
    .option(
      "--census",
      "probe every domain, task set and kind, and grade each probe with the default experiment's graders",
    )
    .option("--json", "with --census: print the census rows as a JSON array")
    .option("--db <file>", "with --census: also write table probe_census into this DuckDB file")
    .option("--requirements <dir>", "requirement fixtures (default: the repo's requirements/)")
    .option("--policies <dir>", "domain policy clauses (default: the repo's policies/)")
    .option(...MEMORY_LIMIT_OPTION)
    .action(async (opts: ProbeOptions) => {
      const { probeCommand } = await import("./probe-command.ts");
      await probeCommand(opts, io);
    });
}
