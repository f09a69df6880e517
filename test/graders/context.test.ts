/** Per-run caches of task setups and gold targets. */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
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

  it("shares the artifacts of tasks with the same content, and only those", () => {
    const ctx = new GradingContext(loadDomainData(DATA_DIR, DOMAINS.airline), TAU2_QUIRKS);
    const tasks = loadTaskFile(join(DATA_DIR, "domains", "airline", "tasks.json"));
    // A copy of the file is parsed anew (the parse of one file is shared): equal tasks, other objects.
    const copyPath = join(mkdtempSync(join(tmpdir(), "tr-ctx-")), "tasks.json");
    copyFileSync(join(DATA_DIR, "domains", "airline", "tasks.json"), copyPath);
    const again = loadTaskFile(copyPath);
    const withActions = tasks.findIndex((t) => (t.evaluation_criteria?.actions?.length ?? 0) > 1);
    const task = tasks[withActions]!;
    const copy = again[withActions]!;
    expect(copy).not.toBe(task);
    expect(ctx.taskArtifacts(copy).gold).toBe(ctx.taskArtifacts(task).gold);
    // The same reference actions in another key order are the same task to grade.
    const reordered = structuredClone(copy);
    const first = reordered.evaluation_criteria!.actions![0]!;
    (reordered.evaluation_criteria!.actions as unknown[])[0] = Object.fromEntries(
      Object.entries(first).reverse(),
    );
    expect(ctx.taskArtifacts(reordered).gold).toBe(ctx.taskArtifacts(task).gold);
    // One changed argument is another task.
    const changed = structuredClone(copy);
    const action = changed.evaluation_criteria!.actions![0]!;
    const [argName] = Object.keys(action.arguments);
    (action.arguments as Record<string, unknown>)[argName!] = "something else";
    expect(ctx.taskArtifacts(changed).gold).not.toBe(ctx.taskArtifacts(task).gold);
  });
});
