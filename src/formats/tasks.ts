/**
 * tau2 task definitions (`data_model/tasks.py`), for task files of every release and for the task copies
 * embedded in results files. v0.x task files omit `evaluation_criteria.reward_basis`; tau2 then uses
 * `[DB, COMMUNICATE]`, and so do we. Keys tau2 defines that grading does not read (`issues`,
 * `user_tools`, `required_documents`, `description`) are dropped; any other key is dropped too, but
 * `unknownTaskFields` names it, so that a fork's field is never ignored silently.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { compareCodePoints } from "../py/json.ts";
import { z } from "../util/zod.ts";
import { DOMAIN_FACTS } from "./domain-facts.ts";
import { isDomainName } from "./domains.ts";
import { FormatError } from "./errors.ts";
import { joinPath } from "./json-path.ts";
import { isRecord } from "./loaders/raw.ts";
import { messageSchema } from "./messages.ts";
import type {
  AcceptableOutcome,
  Action,
  EnvAssertion,
  EnvFunctionCall,
  RewardType,
  Task,
  UnknownTaskField,
} from "./model.ts";
import { deepestPath, nestingReason } from "./nesting.ts";
import { pyDictSchema, requestorSchema } from "./py-schemas.ts";
import { readJsonDocument } from "./read-json.ts";
import { TAU2_TYPED_KEYS } from "./typed-arguments.ts";
import { firstIssue } from "./zod-issues.ts";

export const DEFAULT_REWARD_BASIS: readonly RewardType[] = ["DB", "COMMUNICATE"];

const REWARD_TYPES = {
  DB: true,
  ENV_ASSERTION: true,
  NL_ASSERTION: true,
  ACTION: true,
  COMMUNICATE: true,
} satisfies Record<RewardType, true>;
const rewardTypeSchema = z.enum(Object.keys(REWARD_TYPES) as [RewardType, ...RewardType[]]);

const envFunctionCallObject = z.object({
  env_type: requestorSchema,
  func_name: z.string(),
  arguments: pyDictSchema,
});
const envFunctionCallSchema: z.ZodType<EnvFunctionCall> = envFunctionCallObject;

const envAssertionObject = z.object({
  env_type: requestorSchema,
  func_name: z.string(),
  arguments: pyDictSchema,
  assert_value: z.boolean().default(true),
  message: z.string().nullable().default(null),
});
const envAssertionSchema: z.ZodType<EnvAssertion> = envAssertionObject;

const actionObject = z.object({
  action_id: z.string(),
  requestor: requestorSchema.default("assistant"),
  name: z.string(),
  arguments: pyDictSchema,
  info: z.string().nullable().default(null),
  compare_args: z.array(z.string()).nullable().default(null),
});
const actionSchema: z.ZodType<Action> = actionObject;

const stringListSchema = z.array(z.string()).nullable().default(null);

/** Outcomes nest: an outcome is graded as criteria, and criteria may list outcomes (the fork's evaluator recurses). */
const acceptableOutcomesSchema: z.ZodType<readonly AcceptableOutcome[] | null | undefined> = z.lazy(() =>
  z.array(acceptableOutcomeObject).nullable().optional(),
);

const criteriaFields = {
  actions: z.array(actionSchema).nullable().default(null),
  env_assertions: z.array(envAssertionSchema).nullable().default(null),
  communicate_info: stringListSchema,
  nl_assertions: stringListSchema,
  reward_basis: z.array(rewardTypeSchema).default(() => [...DEFAULT_REWARD_BASIS]),
  acceptable_outcomes: acceptableOutcomesSchema,
};

const evaluationCriteriaObject = z.object(criteriaFields);

const acceptableOutcomeObject: z.ZodType<AcceptableOutcome> = z.object({
  ...criteriaFields,
  outcome_id: z.string(),
  description: z.string().nullable().default(null),
  reward: z.number().min(0).max(1),
});

/** The keys an outcome has besides its criteria (read from its schema, see `unknownTaskFields`). */
const OUTCOME_KEYS = ["outcome_id", "description", "reward"];

const structuredInstructionsObject = z.object({
  domain: z.string(),
  reason_for_call: z.string(),
  known_info: z.string().nullable().default(null),
  unknown_info: z.string().nullable().default(null),
  task_instructions: z.string(),
});

const userScenarioObject = z.object({
  persona: z.string().nullable().default(null),
  instructions: z.union([z.string(), structuredInstructionsObject]),
});

const initializationDataObject = z.object({
  agent_data: pyDictSchema.nullable().default(null),
  user_data: pyDictSchema.nullable().default(null),
});

const initialStateObject = z.object({
  initialization_data: initializationDataObject.nullable().default(null),
  initialization_actions: z.array(envFunctionCallSchema).nullable().default(null),
  message_history: z.array(messageSchema).nullable().default(null),
});

const taskObject = z.object({
  id: z.string(),
  user_scenario: userScenarioObject,
  ticket: z.string().nullable().default(null),
  initial_state: initialStateObject.nullable().default(null),
  evaluation_criteria: evaluationCriteriaObject.nullable().default(null),
});
export const taskSchema: z.ZodType<Task> = taskObject;

/** Keys of tau2's `Task` that grading does not read: known, so dropped without a word. */
const TAU2_TASK_KEYS_NOT_GRADED = ["description", "issues", "required_documents", "user_tools"];

/**
 * Which keys each level of a task may hold (those its schema parses, plus tau2's own that grading
 * ignores) and which keys hold a deeper level: an object, or a list of objects.
 */
interface KeyLevel {
  readonly known: ReadonlySet<string>;
  readonly inside: Readonly<Record<string, () => KeyLevel>>;
}

const level = (
  shape: Record<string, unknown>,
  inside: KeyLevel["inside"] = {},
  extra: readonly string[] = [],
): KeyLevel => ({ known: new Set([...Object.keys(shape), ...extra]), inside });

/** A level built on first use and kept (levels refer to each other, and outcomes to themselves). */
const once = (make: () => KeyLevel): (() => KeyLevel) => {
  let built: KeyLevel | undefined;
  return () => {
    built ??= make();
    return built;
  };
};

const CRITERIA_INSIDE: KeyLevel["inside"] = {
  actions: once(() => level(actionObject.shape)),
  env_assertions: once(() => level(envAssertionObject.shape)),
  acceptable_outcomes: once(() => level(criteriaFields, CRITERIA_INSIDE, OUTCOME_KEYS)),
};
const TASK_LEVEL = level(
  taskObject.shape,
  {
    user_scenario: once(() =>
      level(userScenarioObject.shape, {
        instructions: once(() => level(structuredInstructionsObject.shape)),
      }),
    ),
    // Messages, initialization data and arguments hold the conversation's and the DB's own keys.
    initial_state: once(() =>
      level(initialStateObject.shape, {
        initialization_data: once(() => level(initializationDataObject.shape)),
        initialization_actions: once(() => level(envFunctionCallObject.shape)),
      }),
    ),
    evaluation_criteria: once(() => level(evaluationCriteriaObject.shape, CRITERIA_INSIDE)),
  },
  TAU2_TASK_KEYS_NOT_GRADED,
);

function collectUnknown(
  value: unknown,
  at: KeyLevel,
  segments: PropertyKey[],
  base: string,
  out: UnknownTaskField[],
): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      segments.push(i);
      collectUnknown(value[i], at, segments, base, out);
      segments.pop();
    }
    return;
  }
  if (!isRecord(value)) return;
  for (const key of Object.keys(value)) {
    const inner = value[key];
    // A null carries nothing that could have been ignored.
    if (inner === null) continue;
    const known = at.known.has(key);
    if (known && !Object.hasOwn(at.inside, key)) continue;
    segments.push(key);
    // Paths are built only for what is reported: this walks every task of a data dir's task set.
    if (!known) out.push({ path: joinPath(base, segments), key });
    else collectUnknown(inner, (at.inside[key] as () => KeyLevel)(), segments, base, out);
    segments.pop();
  }
}

/**
 * The keys of raw tasks that grading does not read and tau2 does not define (a fork's
 * `failure_conditions`, `annotations`, a misspelt `persoca`), with their JSON paths below `basePath`.
 * Keys whose value is null are left out: nothing was ignored.
 */
export function unknownTaskFields(data: unknown, basePath: string): UnknownTaskField[] {
  const out: UnknownTaskField[] = [];
  // A list of tasks, or one task object (a task directory's file).
  collectUnknown(data, TASK_LEVEL, [], basePath, out);
  return out;
}

/**
 * Validates a list of tasks; an invalid task is a whole-file problem (grading against a half-read task
 * set would silently change verdicts), so it throws a `FormatError` naming the path.
 */
export function parseTaskList(file: string, data: unknown, basePath: string): Task[] {
  if (!Array.isArray(data)) throw new FormatError(file, basePath, "expected a list of tasks");
  return data.map((raw, i) => {
    const deep = deepestPath(raw);
    if (deep !== null)
      throw new FormatError(file, joinPath(basePath, [i, ...deep]), `invalid task: ${nestingReason()}`);
    const result = taskSchema.safeParse(raw);
    if (!result.success) {
      const { path, reason } = firstIssue(result.error, joinPath(basePath, [i]));
      throw new FormatError(file, path, `invalid task: ${reason}`);
    }
    return result.data;
  });
}

/**
 * Parsed task files by path, size and modification time: the version detection, the census and the
 * graders all read the same data dir, and telecom's 14 MB file costs about 0.3 s to parse. Callers
 * never change the tasks they get (graders match tasks by object too, so sharing them helps).
 */
const parsedFiles = new Map<
  string,
  { readonly stamp: string; readonly tasks: readonly Task[]; readonly unknown: readonly UnknownTaskField[] }
>();

/**
 * Reads a tau2 task file (a JSON list of tasks), or a task directory of one task per `task_*.json`
 * (banking_knowledge), keeping Python int/float types throughout.
 */
export function loadTaskFile(path: string): readonly Task[] {
  const stat = statSync(path);
  if (stat.isDirectory()) return loadTaskDir(path).map((f) => f.task);
  return parsedTaskFile(path, stat).tasks;
}

function parsedTaskFile(path: string, stat: { readonly size: number; readonly mtimeMs: number }) {
  const stamp = `${stat.size}\u0000${stat.mtimeMs}`;
  const hit = parsedFiles.get(path);
  if (hit?.stamp === stamp) return hit;
  // JSON.parse with Python number types restored where grading needs them (arguments,
  // initialization data): as exact as parsing the whole file with the typed parser, and faster.
  const doc = readJsonDocument(path, TAU2_TYPED_KEYS);
  if (doc.kind !== "json")
    throw new FormatError(path, "$", "expected a JSON list of tasks, found JSON Lines");
  const entry = {
    stamp,
    tasks: parseTaskList(path, doc.data, "$"),
    unknown: unknownTaskFields(doc.data, "$"),
  };
  parsedFiles.set(path, entry);
  return entry;
}

/**
 * The keys of a data dir's task file (or of each file of banking's task directory) that grading does
 * not understand, each file with its own: what `loadTaskFile` drops.
 */
export function taskFileUnknownFields(
  path: string,
): readonly { readonly file: string; readonly fields: readonly UnknownTaskField[] }[] {
  const stat = statSync(path);
  const files = stat.isDirectory()
    ? loadTaskDir(path).map((f) => ({ file: f.file, fields: f.unknown }))
    : [{ file: path, fields: parsedTaskFile(path, stat).unknown }];
  return files.filter((f) => f.fields.length > 0);
}

/** tau2's banking `get_tasks` order: `sorted(tasks_dir.glob("task_*.json"))`. */
const taskFilesIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((n) => n.startsWith("task_") && n.endsWith(".json"))
    .map((n) => join(dir, n))
    .sort(compareCodePoints);

/**
 * A task set as the text of one JSON list: a task file's own text, or a directory's task files joined
 * in load order. Embedding it verbatim keeps every type and key as the data dir has it.
 */
export function taskSetText(path: string): string {
  if (!statSync(path).isDirectory()) return readFileSync(path, "utf8").trim();
  return `[\n${taskFilesIn(path)
    .map((f) => readFileSync(f, "utf8").trim())
    .join(",\n")}\n]`;
}

/** tau2's banking `get_tasks`: one task object per file. */
function loadTaskDir(dir: string): { file: string; task: Task; unknown: UnknownTaskField[] }[] {
  return taskFilesIn(dir).map((file) => {
    const doc = readJsonDocument(file, TAU2_TYPED_KEYS);
    if (doc.kind !== "json")
      throw new FormatError(file, "$", "expected a JSON task object, found JSON Lines");
    if (typeof doc.data !== "object" || doc.data === null || Array.isArray(doc.data))
      throw new FormatError(file, "$", "expected a JSON task object");
    return {
      file,
      task: parseTaskList(file, [doc.data], "$")[0] as Task,
      unknown: unknownTaskFields(doc.data, "$"),
    };
  });
}

/** One task file (or banking's task directory) of a tau2 data dir. */
export interface TaskSetRef {
  /** `head`, `head/tasks_small`, or the folder name under `versions/` (e.g. `v0.2.0_f8de30c`). */
  readonly name: string;
  readonly domain: string;
  readonly path: string;
}

/**
 * The task sets of one domain in a tau2 data dir (`data/tau2` of a tau2-bench checkout), in order of
 * preference: `head` (banking: the `tasks/` directory tau2 loads), then telecom's `head/tasks_small`,
 * then each `versions/<name>` newest name first.
 */
export function listTaskSets(dataDir: string, domain: string): TaskSetRef[] {
  const sets: TaskSetRef[] = [];
  const add = (name: string, path: string): void => {
    if (existsSync(path)) sets.push({ name, domain, path });
  };
  const headFolder = isDomainName(domain) ? DOMAIN_FACTS[domain].headTaskFolder : null;
  add("head", join(dataDir, "domains", domain, headFolder ?? "tasks.json"));
  add("head/tasks_small", join(dataDir, "domains", domain, "tasks_small.json"));
  const versionsDir = join(dataDir, "versions");
  if (existsSync(versionsDir)) {
    const names = readdirSync(versionsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
      .reverse();
    for (const name of names) add(name, join(versionsDir, name, "domains", domain, "tasks.json"));
  }
  return sets;
}
