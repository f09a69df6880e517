/**
 * Synthetic trajectories built from a task and the real tools: the reference actions replayed one
 * tool call per turn, with outputs produced by our own replay engine. Used by tests and probes.
 */
import type { Action, Message, Task } from "../formats/model.ts";
import type { GradingContext } from "../graders/context.ts";
import type { Environment } from "../replay/environment.ts";
import { replayMessages } from "../replay/replay.ts";
import { keyedCache } from "../util/keyed-cache.ts";

export const GREETING = "Hi! How can I help you today?";

export interface ProbeStep {
  readonly action: Pick<Action, "name" | "arguments" | "requestor">;
  /** Whether a user "yes" should follow (the policy wants explicit confirmation before writes). */
  readonly confirm: boolean;
  /** The agent's words the user says yes to (by default it names the tool). */
  readonly summary?: string;
}

export interface TrajectoryOptions {
  /** Prefix of tool-call ids (`<prefix>_<step>`). */
  readonly idPrefix?: string;
  /** The agent's last text; by default it states the task's communicate_info. */
  readonly closing?: string;
}

/** A conversation under way: its messages so far (each its own turn) and the live environment they left. */
interface Opening {
  readonly env: Environment;
  readonly messages: readonly Message[];
  /** Tool calls made so far (ids go on from here). */
  readonly calls: number;
}

/** The message history replayed, the greeting and the user's request: where every probe starts. */
function opening(ctx: GradingContext, task: Task): Opening {
  const { setup } = ctx.taskArtifacts(task);
  const env: Environment = setup.fork(false);
  const history = task.initial_state?.message_history ?? [];
  replayMessages(env, history, { strict: false });
  const messages: Message[] = [...history];
  if (history.length === 0)
    messages.push({ role: "assistant", content: GREETING, tool_calls: null, turn_idx: messages.length });
  messages.push({
    role: "user",
    content: "I need help with my request.",
    tool_calls: null,
    turn_idx: messages.length,
  });
  return { env, messages, calls: 0 };
}

/** Runs `steps` on `from`'s environment (which it changes), after `from`'s messages. */
function runSteps(from: Opening, steps: readonly ProbeStep[], idPrefix: string): Opening {
  const { env } = from;
  const messages: Message[] = [...from.messages];
  // Every message is its own turn: a message's turn is its index.
  steps.forEach((step, i) => {
    const { name, arguments: args, requestor } = step.action;
    if (step.confirm) {
      const content = step.summary ?? `I will now run ${name}. Shall I proceed?`;
      messages.push({ role: "assistant", content, tool_calls: null, turn_idx: messages.length });
      messages.push({
        role: "user",
        content: "Yes, please proceed.",
        tool_calls: null,
        turn_idx: messages.length,
      });
    }
    const id = `${idPrefix}_${from.calls + i}`;
    const role = requestor === "user" ? "user" : "assistant";
    const call = { id, name, arguments: args, requestor };
    messages.push({ role, content: null, tool_calls: [call], turn_idx: messages.length });
    const out = env.respond(name, requestor, args);
    messages.push({
      role: "tool",
      id,
      content: out.content,
      requestor,
      error: out.error,
      turn_idx: messages.length,
    });
  });
  return { env, messages, calls: from.calls + steps.length };
}

function closed(at: Opening, task: Task, options: TrajectoryOptions): Message[] {
  const turn = at.messages.length;
  return [
    ...at.messages,
    { role: "assistant", content: options.closing ?? goodClosing(task), tool_calls: null, turn_idx: turn },
    { role: "user", content: "No, that's all. Thank you! ###STOP###", tool_calls: null, turn_idx: turn + 1 },
  ];
}

/** Builds the message list for a sequence of tool calls, executing each on a live fork. */
export function buildTrajectory(
  ctx: GradingContext,
  task: Task,
  steps: readonly ProbeStep[],
  options: TrajectoryOptions = {},
): Message[] {
  return closed(runSteps(opening(ctx, task), steps, options.idPrefix ?? "probe"), task, options);
}

/** The gold part of probe trajectories, run once per context and task (every gold-based kind extends it). */
const goldRuns = keyedCache<GradingContext, Task, Opening>(() => new WeakMap());

const goldRun = (ctx: GradingContext, task: Task): Opening =>
  goldRuns(ctx, task, () => runSteps(opening(ctx, task), goldSteps(ctx, task), "probe"));

/**
 * `buildTrajectory(ctx, task, [...goldSteps(ctx, task), ...extra])`, the gold part taken from a run kept
 * per task: `extra` runs on a fork of the environment the gold left.
 */
export function goldTrajectory(
  ctx: GradingContext,
  task: Task,
  extra: readonly ProbeStep[] = [],
  options: Omit<TrajectoryOptions, "idPrefix"> = {},
): Message[] {
  const gold = goldRun(ctx, task);
  const at = extra.length === 0 ? gold : runSteps({ ...gold, env: gold.env.fork() }, extra, "probe");
  return closed(at, task, options);
}

/** The closing text states the task's communicate_info, as a good agent would say it. */
function goodClosing(task: Task): string {
  const info = task.evaluation_criteria?.communicate_info ?? [];
  const statement = info.length > 0 ? `To confirm: ${info.join("; ")}. ` : "";
  return `${statement}Is there anything else I can help you with?`;
}

/** The reference solution, with a confirmation before every write the domain declares. */
export function goldSteps(ctx: GradingContext, task: Task): ProbeStep[] {
  const tools = ctx.data.domain;
  return (task.evaluation_criteria?.actions ?? []).map((action) => {
    const def = (action.requestor === "user" ? tools.userTools : tools.agentTools)?.tools.get(action.name);
    return { action, confirm: action.requestor === "assistant" && def?.kind === "write" };
  });
}
