/** The banking reference vectors and task set, and a grading context over tau2's data dir (core tests). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { type Quirks, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { loadDomainData } from "../../../src/domains/registry.ts";
import type { Task } from "../../../src/formats/model.ts";
import { listTaskSets, loadTaskFile } from "../../../src/formats/tasks.ts";
import { GradingContext } from "../../../src/graders/context.ts";
import { DATA_DIR, SHARED_DIR } from "../../helpers/data.ts";

export { DATA_DIR };

export interface BankingGoldVector {
  readonly after_init: { readonly agent: string; readonly user: string };
  readonly gold_target: { readonly agent: string; readonly user: string };
  readonly gold_action_results: readonly string[];
  readonly gold_action_outputs: readonly string[];
  readonly gold_action_requestors: readonly string[];
  readonly gold_action_agent_hash_after: readonly string[];
  readonly gold_action_tool_meta: readonly {
    readonly tool_type: string;
    readonly mutates_state: boolean;
    readonly discoverable: boolean;
  }[];
  readonly read_log_allowlist: readonly string[];
  readonly reward_basis: readonly string[];
}

export interface BankingVectors {
  readonly initial_db_hashes: Record<string, { readonly agent: string; readonly user: string }>;
  readonly gold: Record<string, BankingGoldVector>;
  readonly gold_tasks_json_variants: Record<string, BankingGoldVector>;
}

let vectors: BankingVectors | undefined;
export function bankingVectors(): BankingVectors {
  vectors ??= JSON.parse(
    readFileSync(join(SHARED_DIR, "vectors/tau2-banking-vectors.json"), "utf8"),
  ) as BankingVectors;
  return vectors;
}

export const bankingData = () => loadDomainData(DATA_DIR, bankingDomain);

/** The flat `tasks.json` tau2 does not load (four tasks differ from `tasks/`). */
export const FLAT_TASKS_PATH = join(DATA_DIR, "domains", "banking_knowledge", "tasks.json");

export function taskSetPath(name: string): string {
  const ref = listTaskSets(DATA_DIR, "banking_knowledge").find((s) => s.name === name);
  if (ref === undefined) throw new Error(`no banking task set ${name}`);
  return ref.path;
}

let tasks: Task[] | undefined;
/** tau2's `get_tasks("banking_knowledge")`: `tasks/task_*.json`. */
export function bankingTasks(): Task[] {
  tasks ??= loadTaskFile(taskSetPath("head"));
  return tasks;
}

export const bankingContext = (quirks: Quirks = TAU2_QUIRKS): GradingContext =>
  new GradingContext(bankingData(), quirks);
