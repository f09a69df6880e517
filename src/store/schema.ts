/**
 * The verdict store's tables, declared once as column lists: the DDL, the appenders and the row types
 * (`RowOf<"verdicts">`) are all derived from them, so a row with a missing, misspelt or mistyped column
 * does not compile. Every row carries the run id; per-simulation rows are keyed by content hashes
 * (`file_id` = sha256 of the file bytes, `sim_key` = sha256 of file id and index), so re-running an
 * experiment finds its rows already there and changes nothing.
 */
export type ColumnType = "VARCHAR" | "INTEGER" | "BIGINT" | "DOUBLE" | "BOOLEAN";
export interface Column<
  N extends string = string,
  T extends ColumnType = ColumnType,
  Null extends boolean = boolean,
> {
  readonly name: N;
  readonly type: T;
  readonly nullable: Null;
}
export interface TableSpec {
  readonly columns: readonly Column[];
  /** The logical key: unique per table (tests check it after re-runs and resumed runs). */
  readonly key: readonly string[];
  /**
   * Whether DuckDB enforces the key. Index upkeep slows bulk appends by about 40%, so the
   * high-volume detail tables rely on the per-file commit protocol instead.
   */
  readonly enforced?: false;
}

/**
 * The layout this build writes and reads. Bump it with every change to `TABLES`: a store written by
 * another layout is refused with a message that says what to do (`store.ts`), never misread.
 */
export const SCHEMA_VERSION = 9;

const c = <N extends string, T extends ColumnType>(name: N, type: T): Column<N, T, false> => ({
  name,
  type,
  nullable: false,
});
const n = <N extends string, T extends ColumnType>(name: N, type: T): Column<N, T, true> => ({
  name,
  type,
  nullable: true,
});

export const TABLES = {
  /** One row: `schema_version`. */
  store_meta: {
    columns: [c("key", "VARCHAR"), c("value", "VARCHAR")],
    key: ["key"],
  },
  runs: {
    columns: [
      c("run_id", "VARCHAR"),
      c("seq", "INTEGER"),
      c("experiment", "VARCHAR"),
      c("config_hash", "VARCHAR"),
      c("tool_version", "VARCHAR"),
      c("config_json", "VARCHAR"),
      /** The resolved grading spec (every grader's configuration and fixture fingerprints; no secrets). */
      c("grading_spec", "VARCHAR"),
      c("infrastructure_errors", "VARCHAR"),
      c("min_task_coverage", "DOUBLE"),
      c("bootstrap_samples", "INTEGER"),
      c("seed", "BIGINT"),
      /** Every input file was committed (views default to the latest completed run). */
      c("completed", "BOOLEAN"),
    ],
    key: ["run_id"],
  },
  /** Tasks the experiment leaves out of rankings and headline numbers (`exclude_tasks`), with the reason. */
  task_exclusions: {
    columns: [
      c("run_id", "VARCHAR"),
      c("domain", "VARCHAR"),
      /** Null: every task set. */
      n("task_version", "VARCHAR"),
      c("task_id", "VARCHAR"),
      c("reason", "VARCHAR"),
    ],
    key: ["run_id", "domain", "task_version", "task_id"],
    enforced: false,
  },
  /** The run's comparisons, in the experiment's order (`seq` 1 is the headline). */
  comparisons: {
    columns: [
      c("run_id", "VARCHAR"),
      c("seq", "INTEGER"),
      c("name", "VARCHAR"),
      /** A grader id, or `recorded` (the reward the file recorded). */
      c("baseline", "VARCHAR"),
      c("candidate", "VARCHAR"),
    ],
    key: ["run_id", "name"],
  },
  files: {
    columns: [
      c("run_id", "VARCHAR"),
      c("file_id", "VARCHAR"),
      c("path", "VARCHAR"),
      c("variant", "VARCHAR"),
      n("domain", "VARCHAR"),
      n("agent_model", "VARCHAR"),
      n("agent_implementation", "VARCHAR"),
      n("user_model", "VARCHAR"),
      n("task_version", "VARCHAR"),
      c("simulations", "INTEGER"),
      c("rejected", "INTEGER"),
      c("status", "VARCHAR"),
      n("error", "VARCHAR"),
      c("excluded", "BOOLEAN"),
      n("exclusion_reason", "VARCHAR"),
      /**
       * The run configuration its simulations share (`configurationOf`): repeats of a task are simulations
       * under one configuration. Null when the agent or user is not recorded (the file is one of its own).
       */
      n("configuration", "VARCHAR"),
    ],
    key: ["run_id", "file_id"],
  },
  simulations: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("file_id", "VARCHAR"),
      c("sim_index", "INTEGER"),
      n("simulation_id", "VARCHAR"),
      n("task_id", "VARCHAR"),
      n("trial", "INTEGER"),
      n("termination_reason", "VARCHAR"),
      n("recorded_reward", "DOUBLE"),
      n("domain", "VARCHAR"),
      n("task_version", "VARCHAR"),
      c("model", "VARCHAR"),
      c("graded", "BOOLEAN"),
      n("should_transfer", "INTEGER"),
      n("handoff_rule", "VARCHAR"),
      n("did_transfer", "BOOLEAN"),
    ],
    key: ["run_id", "sim_key"],
  },
  verdicts: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("grader_version", "VARCHAR"),
      /** sha256 of the grader's whole configuration (fixtures, overlays, gates, judge, quirks, inputs it reads). */
      c("spec_hash", "VARCHAR"),
      n("pass", "BOOLEAN"),
      n("reward", "DOUBLE"),
      n("db_match", "BOOLEAN"),
      c("notes", "VARCHAR"),
      /** Why a live NL judge failed on this verdict (schema 4); such files are graded again on the next run. */
      n("judge_failure", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "grader"],
  },
  components: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("component", "VARCHAR"),
      n("score", "DOUBLE"),
      c("in_basis", "BOOLEAN"),
      /** Scored 1.0 because there was nothing to check (no gold actions, no communicate_info, ...). */
      c("vacuous", "BOOLEAN"),
    ],
    key: ["run_id", "sim_key", "grader", "component"],
    enforced: false,
  },
  /** Why a verdict failed (`gates`), or what a grader reports without failing on it. See `graders/causes.ts`. */
  causes: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("seq", "INTEGER"),
      c("kind", "VARCHAR"),
      c("reference", "VARCHAR"),
      c("gates", "BOOLEAN"),
      c("message", "VARCHAR"),
      n("message_index", "INTEGER"),
      n("turn_idx", "INTEGER"),
      n("tool_call_id", "VARCHAR"),
      n("tool_name", "VARCHAR"),
      n("actor", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "grader", "seq"],
    enforced: false,
  },
  /** The facts behind each cause: a turn and tool call, a DB field and its values, a quote. */
  evidence: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("cause_seq", "INTEGER"),
      c("seq", "INTEGER"),
      c("code", "VARCHAR"),
      c("message", "VARCHAR"),
      n("message_index", "INTEGER"),
      n("turn_idx", "INTEGER"),
      n("tool_call_id", "VARCHAR"),
      n("tool_name", "VARCHAR"),
      n("actor", "VARCHAR"),
      n("arguments", "VARCHAR"),
      n("db", "VARCHAR"),
      n("path", "VARCHAR"),
      n("initial_value", "VARCHAR"),
      n("gold_value", "VARCHAR"),
      n("predicted_value", "VARCHAR"),
      n("quote", "VARCHAR"),
      n("excerpt", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "grader", "cause_seq", "seq"],
    enforced: false,
  },
  /**
   * What a reviewer needs beside the verdicts, for every simulation whose graders disagree (or every
   * simulation, with the experiment's `conversations: "all"`): its content fingerprint (reviews are
   * keyed by it, so they survive re-runs and go stale when the simulation changes) and the task text.
   */
  sim_context: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      /** sha256 over the simulation's id, task id, trial, termination reason and messages. */
      c("fingerprint", "VARCHAR"),
      n("persona", "VARCHAR"),
      /** The user scenario's instructions: a string, or the structured fields as JSON. */
      c("instructions", "VARCHAR"),
      n("ticket", "VARCHAR"),
      /** The task's evaluation criteria as JSON (gold actions, env assertions, ...). */
      n("criteria", "VARCHAR"),
    ],
    key: ["run_id", "sim_key"],
    enforced: false,
  },
  /** The whole conversation of each simulation in `sim_context`, one row per message. */
  conversations: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("message_index", "INTEGER"),
      c("role", "VARCHAR"),
      n("content", "VARCHAR"),
      /** JSON list of `{id, name, arguments, requestor}` (assistant and user messages). */
      n("tool_calls", "VARCHAR"),
      /** Tool messages: the id of the call they answer, and the error flag. */
      n("tool_call_id", "VARCHAR"),
      n("tool_error", "BOOLEAN"),
      n("turn_idx", "INTEGER"),
    ],
    key: ["run_id", "sim_key", "message_index"],
    enforced: false,
  },
  /**
   * Reviewer verdicts on causes, as last loaded from the experiment's reviews file (`run`, `review`,
   * `report --experiment`). Not per run: a review is keyed by the simulation's content fingerprint and
   * the cause, so it applies to every run whose simulation and cause still match (see `review_status`).
   */
  reviews: {
    columns: [
      c("experiment", "VARCHAR"),
      c("fingerprint", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("kind", "VARCHAR"),
      c("reference", "VARCHAR"),
      /** confirmed | false_positive | unclear */
      c("verdict", "VARCHAR"),
      c("reason", "VARCHAR"),
      n("reviewer", "VARCHAR"),
      n("date", "VARCHAR"),
      /** For humans: the id in the trajectory file and the file's path relative to the corpus root. */
      n("simulation_id", "VARCHAR"),
      n("path", "VARCHAR"),
    ],
    key: ["experiment", "fingerprint", "grader", "kind", "reference"],
  },
  /**
   * Reviews of simulations drawn among those both sides of a comparison pass (`review sample`), as last
   * loaded from the reviews file: keyed like `reviews` by fingerprint, and by the comparison (schema 6).
   */
  /** Leaderboard submissions read beside the corpus's trajectory files (`submission.json`). */
  submissions: {
    columns: [
      c("run_id", "VARCHAR"),
      /** The submission file's path, relative to the corpus root. */
      c("submission", "VARCHAR"),
      /** Its folder, relative to the corpus root ('.' at the root). */
      c("folder", "VARCHAR"),
      n("model_name", "VARCHAR"),
      n("model_organization", "VARCHAR"),
      n("submitting_organization", "VARCHAR"),
      n("submission_date", "VARCHAR"),
      n("submission_type", "VARCHAR"),
      n("trajectories_available", "BOOLEAN"),
      n("evaluation_date", "VARCHAR"),
      n("tau2_bench_version", "VARCHAR"),
      n("user_simulator", "VARCHAR"),
      n("modified_prompts", "BOOLEAN"),
      n("omitted_questions", "BOOLEAN"),
      /** Why the file could not be read as a submission (the other columns are then null). */
      n("error", "VARCHAR"),
    ],
    key: ["run_id", "submission"],
  },
  /** A submission's published pass^k per domain, in [0, 1] (the file's percentages divided by 100). */
  submission_results: {
    columns: [
      c("run_id", "VARCHAR"),
      c("submission", "VARCHAR"),
      c("domain", "VARCHAR"),
      n("pass_1", "DOUBLE"),
      n("pass_2", "DOUBLE"),
      n("pass_3", "DOUBLE"),
      n("pass_4", "DOUBLE"),
    ],
    key: ["run_id", "submission", "domain"],
  },
  /**
   * The trajectory files a submission names (`trajectory_files`, with their domain), or else every file
   * in its folder; `found` says whether the corpus has the file.
   */
  submission_files: {
    columns: [
      c("run_id", "VARCHAR"),
      c("submission", "VARCHAR"),
      c("path", "VARCHAR"),
      n("declared_domain", "VARCHAR"),
      c("found", "BOOLEAN"),
    ],
    key: ["run_id", "submission", "path"],
  },
  sample_reviews: {
    columns: [
      c("experiment", "VARCHAR"),
      c("fingerprint", "VARCHAR"),
      c("comparison", "VARCHAR"),
      c("seed", "BIGINT"),
      /** clean | missed | unclear */
      c("verdict", "VARCHAR"),
      c("reason", "VARCHAR"),
      n("reviewer", "VARCHAR"),
      n("date", "VARCHAR"),
      n("simulation_id", "VARCHAR"),
      n("path", "VARCHAR"),
    ],
    key: ["experiment", "fingerprint", "comparison"],
  },
  tool_calls: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("seq", "INTEGER"),
      c("message_index", "INTEGER"),
      n("tool_call_id", "VARCHAR"),
      c("name", "VARCHAR"),
      c("requestor", "VARCHAR"),
      n("kind", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "seq"],
    enforced: false,
  },
  /** Every NL assertion a judge judged for a simulation, with its reasoning and where the reply came from. */
  nl_assertions: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("seq", "INTEGER"),
      c("assertion", "VARCHAR"),
      c("met", "BOOLEAN"),
      n("reasoning", "VARCHAR"),
      /** `recorded`, or `http:<model>`. */
      c("source", "VARCHAR"),
      n("judge_model", "VARCHAR"),
      /** The `judgments` key of the reply (live judges). */
      n("cache_key", "VARCHAR"),
      /** Why tau2 scored a reply that judged less than it was asked (`degenerate_judge_reply`). */
      n("degenerate", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "seq"],
    enforced: false,
  },
  /**
   * Live judge replies by the sha256 of their exact request (not per run: any run, or `grade
   * --judge-cache`, over the same conversation and judge settings reuses them).
   */
  judgments: {
    columns: [
      c("key", "VARCHAR"),
      c("base_url", "VARCHAR"),
      c("model", "VARCHAR"),
      c("content", "VARCHAR"),
      c("created_at", "VARCHAR"),
    ],
    key: ["key"],
  },
  /**
   * What a grader that reads authored inputs could check each simulation against (`CoverageRecord`):
   * the fixtures that applied and the ones skipped, as JSON lists; facts and clauses as counts.
   */
  coverage: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("grader", "VARCHAR"),
      c("fixtures", "VARCHAR"),
      c("fixtures_applied", "INTEGER"),
      c("facts_applied", "INTEGER"),
      c("clauses_applicable", "INTEGER"),
      c("skipped", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "grader"],
    enforced: false,
  },
  errors: {
    columns: [
      c("run_id", "VARCHAR"),
      c("file_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("stage", "VARCHAR"),
      c("message", "VARCHAR"),
    ],
    key: ["run_id", "file_id", "sim_key"],
    enforced: false,
  },
} as const satisfies Record<string, TableSpec>;

export type TableName = keyof typeof TABLES;
export type CellValue = string | number | boolean | null;

type CellOf<C extends Column> =
  | (C["type"] extends "VARCHAR" ? string : C["type"] extends "BOOLEAN" ? boolean : number)
  | (C["nullable"] extends true ? null : never);

/** One row of table `T`, as an object keyed by column name: every column present, each with its type. */
export type RowOf<T extends TableName> = {
  readonly [C in (typeof TABLES)[T]["columns"][number] as C["name"]]: CellOf<C>;
};

export const ddl = (name: TableName): string => {
  const t: TableSpec = TABLES[name];
  const cols = t.columns.map((col) => `${col.name} ${col.type}${col.nullable ? "" : " NOT NULL"}`);
  const key = t.enforced === false ? "" : `, PRIMARY KEY (${t.key.join(", ")})`;
  return `CREATE TABLE IF NOT EXISTS ${name} (${cols.join(", ")}${key})`;
};

/**
 * A row as its values in column order: how rows cross from grading threads and reach the appenders.
 * Rows are built as `RowOf` objects (checked by name) and packed by `packRows`, derived from `TABLES`,
 * which also halves what a thread posts (no column names per row).
 */
export type PackedRow = readonly CellValue[];
export type PackedBatch = { [T in TableName]?: PackedRow[] };

// One generated function per table: plain property loads in column order, about 4× faster than a
// loop over column names. The code is built from `TABLES` only (identifiers we declare).
const PACKERS = Object.fromEntries(
  (Object.keys(TABLES) as TableName[]).map((t) => [
    t,
    new Function("r", `return [${TABLES[t].columns.map((col) => `r.${col.name}`).join(", ")}];`),
  ]),
) as unknown as { [T in TableName]: (row: RowOf<T>) => PackedRow };

export function packRows<T extends TableName>(table: T, rows: readonly RowOf<T>[]): PackedRow[] {
  const pack = PACKERS[table];
  const out = new Array<PackedRow>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = pack(rows[i] as RowOf<T>);
  return out;
}
