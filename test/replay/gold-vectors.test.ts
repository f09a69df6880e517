/**
 * The replay engine end to end against tau2's own gold replays: for every task of every vector task
 * file, the hashes after initialisation, the gold target hashes, and every gold action's outcome.
 */
import { describe, expect, it } from "vitest";
import type { DomainDef } from "../../src/domains/domain.ts";
import { loadDomainData } from "../../src/domains/load-data.ts";
import { TAU2_QUIRKS } from "../../src/domains/quirks.ts";
import { loadTaskFile } from "../../src/formats/tasks.ts";
import { GradingContext } from "../../src/graders/context.ts";
import { DATA_DIR, referenceVectors, taskFileForVersion } from "../helpers/data.ts";

const domainLoaders: Record<string, () => Promise<DomainDef>> = {
  mock: async () => (await import("../../src/domains/mock/index.ts")).mockDomain,
  airline: async () => (await import("../../src/domains/airline/index.ts")).airlineDomain,
  retail: async () => (await import("../../src/domains/retail/index.ts")).retailDomain,
  telecom: async () => (await import("../../src/domains/telecom/index.ts")).telecomDomain,
};

const vectors = referenceVectors();
const groups = new Map<string, string[]>();
for (const key of Object.keys(vectors.gold)) {
  const [version, domain] = key.split("/") as [string, string];
  const g = `${version}/${domain}`;
  groups.set(g, [...(groups.get(g) ?? []), key]);
}

describe.each([...groups.keys()])("gold replay %s", (group) => {
  const [version, domain] = group.split("/") as [string, string];
  it("reproduces every after-init hash, gold target hash and gold action result", async () => {
    const domainDef = await domainLoaders[domain]!();
    const ctx = new GradingContext(loadDomainData(DATA_DIR, domainDef), TAU2_QUIRKS);
    const tasks = loadTaskFile(taskFileForVersion(version, domain));
    const mismatches: string[] = [];
    for (const task of tasks) {
      const expected = vectors.gold[`${group}/${task.id}`];
      if (expected === undefined) continue;
      const { gold } = ctx.taskArtifacts(task);
      const got = {
        after_init: { agent: gold.initial.agentHash(), user: gold.initial.userHash() },
        gold_target: { agent: gold.env.agentHash(), user: gold.env.userHash() },
        gold_action_results: gold.results.map((r) => r.result),
      };
      if (JSON.stringify(got) !== JSON.stringify(expected))
        mismatches.push(`${task.id}: ${JSON.stringify(got)} != ${JSON.stringify(expected)}`);
    }
    expect(mismatches).toEqual([]);
    expect(tasks.filter((t) => vectors.gold[`${group}/${t.id}`] !== undefined).length).toBe(
      groups.get(group)!.length,
    );
  });
});
