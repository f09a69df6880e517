/** tau2's mock toolkits: a task list for the agent, a notification inbox for the user. */
import { pyKeyIn, pyStr } from "../../py/builtins.ts";
import { coerceLiteral, coerceStr } from "../../py/lax.ts";
import { construct, modelOf, nullable, scalar } from "../../py/pydantic-models.ts";
import { type PyDict, type PyValue, pyEquals } from "../../py/value.ts";
import type { DbState } from "../db-state.ts";
import { transferToHumanAgents } from "../shared-tools.ts";
import { type FunctionDef, makeToolkit, model, type ToolDef, ToolError } from "../toolkit.ts";

// tau2's pydantic models, which validate the arguments the tools pass through unchecked.
const str = scalar(coerceStr);
const optionalStr = { check: nullable(str), default: null };
const Task = modelOf("Task", [
  { name: "task_id", check: str },
  { name: "title", check: str },
  { name: "description", ...optionalStr },
  { name: "status", check: scalar(coerceLiteral(["pending", "completed"])) },
]);
const Notification = modelOf("Notification", [
  { name: "notification_id", check: str },
  { name: "message", check: str },
  { name: "status", check: scalar(coerceLiteral(["unread", "read"])) },
  { name: "task_id", ...optionalStr },
]);

/** tau2's `if key not in self.db.<field>: raise ValueError(f"<what> {key} not found")`. */
function requireKey(db: DbState, field: string, what: string, key: PyValue): string {
  if (!pyKeyIn(key, (k) => db.has(field, k))) throw new ToolError(`${what} ${pyStr(key)} not found`);
  return key;
}

const requireUser = (db: DbState, userId: PyValue): PyDict =>
  db.get("users", requireKey(db, "users", "User", userId)) as PyDict;
const requireTaskId = (db: DbState, taskId: PyValue): string => requireKey(db, "tasks", "Task", taskId);

const createTask: ToolDef = {
  name: "create_task",
  kind: "write",
  params: [{ name: "user_id" }, { name: "title" }, { name: "description", default: null }],
  run(db, { user_id, title, description }) {
    requireUser(db, user_id as PyValue);
    const taskId = `task_${db.keys("tasks").length + 1}`;
    const task = construct("Task", Task, {
      task_id: taskId,
      title: title as PyValue,
      description: description as PyValue,
      status: "pending",
    });
    // tau2 allows overwriting an existing id when numbering has gaps.
    db.put("tasks", taskId, task);
    (db.mut("users", user_id as string).tasks as PyValue[]).push(taskId);
    return model(task);
  },
};

const updateTaskStatus: ToolDef = {
  name: "update_task_status",
  kind: "write",
  params: [{ name: "task_id" }, { name: "status" }],
  run(db, { task_id, status }) {
    const id = requireTaskId(db, task_id as PyValue);
    const task = db.mut("tasks", id);
    // tau2 assigns without validation, so any value (even a non-status) is stored as given.
    task.status = status as PyValue;
    return model(task);
  },
};

const getUsers: ToolDef = {
  name: "get_users",
  kind: "read",
  params: [],
  run: (db) => db.keys("users").map((k) => model(db.get("users", k) as PyValue)),
};

const assertNumberOfTasks: FunctionDef = {
  name: "assert_number_of_tasks",
  params: [{ name: "user_id" }, { name: "expected_number" }],
  run(db, { user_id, expected_number }) {
    const user = requireUser(db, user_id as PyValue);
    return pyEquals((user.tasks as PyValue[]).length, expected_number);
  },
};

const assertTaskStatus: FunctionDef = {
  name: "assert_task_status",
  params: [{ name: "task_id" }, { name: "expected_status" }],
  run(db, { task_id, expected_status }) {
    const id = requireTaskId(db, task_id as PyValue);
    return pyEquals((db.get("tasks", id) as PyDict).status, expected_status);
  },
};

export const mockAgentTools = makeToolkit(
  "MockTools",
  [createTask, getUsers, updateTaskStatus, transferToHumanAgents],
  [assertNumberOfTasks, assertTaskStatus],
);

const requireNotification = (db: DbState, id: PyValue): string =>
  requireKey(db, "notifications", "Notification", id);

const checkNotifications: ToolDef = {
  name: "check_notifications",
  kind: "read",
  params: [],
  run: (db) => db.keys("notifications").map((k) => model(db.get("notifications", k) as PyValue)),
};

const dismissNotification: ToolDef = {
  name: "dismiss_notification",
  kind: "write",
  params: [{ name: "notification_id" }],
  run(db, { notification_id }) {
    const id = requireNotification(db, notification_id as PyValue);
    db.mut("notifications", id).status = "read";
    return `Notification ${id} dismissed`;
  },
};

const addNotification: FunctionDef = {
  name: "add_notification",
  params: [{ name: "notification_id" }, { name: "message" }, { name: "task_id", default: null }],
  run(db, { notification_id, message, task_id }) {
    const n = construct("Notification", Notification, {
      notification_id: notification_id as PyValue,
      message: message as PyValue,
      status: "unread",
      task_id: task_id as PyValue,
    });
    db.put("notifications", notification_id as string, n);
    return model(n);
  },
};

const assertNotificationStatus: FunctionDef = {
  name: "assert_notification_status",
  params: [{ name: "notification_id" }, { name: "expected_status" }],
  run(db, { notification_id, expected_status }) {
    const id = requireNotification(db, notification_id as PyValue);
    return pyEquals((db.get("notifications", id) as PyDict).status, expected_status);
  },
};

export const mockUserTools = makeToolkit(
  "MockUserTools",
  [checkNotifications, dismissNotification],
  [addNotification, assertNotificationStatus],
);
