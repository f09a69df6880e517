/**
 * The verdict store's tables, declared once as column lists (the DDL and the appenders are both
 * derived from them). Every row carries the run id; per-simulation rows are keyed by content
 * hashes (`file_id` = sha256 of the file bytes, `sim_key` = sha256 of file id and index), so
 * re-running an experiment finds its rows already there and changes nothing.
 */
export type ColumnType = "VARCHAR" | "INTEGER" | "BIGINT" | "DOUBLE" | "BOOLEAN";
export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable?: boolean;
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

const c = (name: string, type: ColumnType, nullable = false): Column => ({ name, type, nullable });
const n = (name: string, type: ColumnType): Column => c(name, type, true);

export const TABLES = {
  runs: {
    columns: [
      c("run_id", "VARCHAR"),
      c("seq", "INTEGER"),
      c("experiment", "VARCHAR"),
      c("config_hash", "VARCHAR"),
      c("tool_version", "VARCHAR"),
      c("config_json", "VARCHAR"),
      c("infrastructure_errors", "VARCHAR"),
      c("min_task_coverage", "DOUBLE"),
      c("bootstrap_samples", "INTEGER"),
      c("seed", "BIGINT"),
    ],
    key: ["run_id"],
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
      n("pass", "BOOLEAN"),
      n("reward", "DOUBLE"),
      n("db_match", "BOOLEAN"),
      c("causes", "VARCHAR"),
      c("notes", "VARCHAR"),
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
    ],
    key: ["run_id", "sim_key", "grader", "component"],
    enforced: false,
  },
  violations: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("seq", "INTEGER"),
      c("rule_id", "VARCHAR"),
      c("action", "VARCHAR"),
      n("message_index", "INTEGER"),
      n("turn_idx", "INTEGER"),
      n("tool_call_id", "VARCHAR"),
      c("quote", "VARCHAR"),
      n("arguments", "VARCHAR"),
      n("excerpt", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "seq"],
    enforced: false,
  },
  field_diffs: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("db", "VARCHAR"),
      c("path", "VARCHAR"),
      n("initial_value", "VARCHAR"),
      n("gold_value", "VARCHAR"),
      n("predicted_value", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "db", "path"],
    enforced: false,
  },
  policy_hits: {
    columns: [
      c("run_id", "VARCHAR"),
      c("sim_key", "VARCHAR"),
      c("seq", "INTEGER"),
      c("rule", "VARCHAR"),
      c("gated", "BOOLEAN"),
      n("message_index", "INTEGER"),
      n("turn_idx", "INTEGER"),
      n("tool_call_id", "VARCHAR"),
      n("tool_name", "VARCHAR"),
      c("message", "VARCHAR"),
      n("excerpt", "VARCHAR"),
    ],
    key: ["run_id", "sim_key", "seq"],
    enforced: false,
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
export type Row = readonly CellValue[];

export const ddl = (name: TableName): string => {
  const t: TableSpec = TABLES[name];
  const cols = t.columns.map((col) => `${col.name} ${col.type}${col.nullable ? "" : " NOT NULL"}`);
  const key = t.enforced === false ? "" : `, PRIMARY KEY (${t.key.join(", ")})`;
  return `CREATE TABLE IF NOT EXISTS ${name} (${cols.join(", ")}${key})`;
};

/** Tables whose rows belong to one (run, file) and are written in that file's transaction. */
export const PER_FILE_TABLES = [
  "simulations",
  "verdicts",
  "components",
  "violations",
  "field_diffs",
  "policy_hits",
  "tool_calls",
  "errors",
] as const satisfies readonly TableName[];
