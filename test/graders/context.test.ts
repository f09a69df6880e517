/** Per-run caches of task setups and gold targets. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { DOMAINS, loadDomainData } from "../../src/domains/registry.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { GradingContext } from "../../src/graders/context.ts";
import { DATA_DIR } from "../helpers/data.ts";

const firstTask = (domain: string, file = "tasks.json") => {
  const task = loadTaskFile(join(DATA_DIR, "domains", domain, file))[0];
  if (task === undefined) throw new Error(`no tasks for ${domain}`);
  return task;
};

describe("GradingContext.taskArtifacts", () => {
  it("replays one gold target for both variants where the domain has no sync step", () => {
    for (const domain of ["airline", "retail"] as const) {
      const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS[domain]), TAU2_QUIRKS);
      const task = firstTask(domain);
      expect(ctx.taskArtifacts(task, true).gold).toBe(ctx.taskArtifacts(task, false).gold);
    }
  });

  it("keeps tau2's unsynced gold apart from the synced one in telecom (quirk noGoldSync)", () => {
    const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.telecom), TAU2_QUIRKS);
    const task = firstTask("telecom", "tasks_small.json");
    const unsynced = ctx.taskArtifacts(task, false);
    const synced = ctx.taskArtifacts(task, true);
    expect(synced.gold).not.toBe(unsynced.gold);
    expect(synced.setup).toBe(unsynced.setup);
    expect(ctx.taskArtifacts(task, false).gold).toBe(unsynced.gold);
  });
});
