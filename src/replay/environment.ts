/**
 * A tau2 environment: agent and user DB states, the domain's toolkits, and tau2's dispatch rules
 * (requestor routing, solo mode, sync after successful calls). Built by forking a cached task
 * setup, so nothing here copies a whole DB.
 */

import type { DbState } from "../domains/db-state.ts";
import type { DomainDef } from "../domains/domain.ts";
import {
  type CallOutcome,
  type FunctionDef,
  invoke,
  mutatesState,
  type ToolDef,
  type ToolEnv,
  type Toolkit,
  type ToolOutput,
} from "../domains/toolkit.ts";
import type { Requestor } from "../formats/model.ts";
import type { PyValue } from "../py/value.ts";
import { ReplayAbort } from "./errors.ts";

export class Environment {
  constructor(
    readonly domain: DomainDef,
    /** The DB the agent toolkit holds. */
    public agent: DbState,
    /** The DB the user toolkit holds; may be the very same state as `agent` (tau2's aliasing). */
    public user: DbState | null,
    readonly solo: boolean,
    readonly toolEnv: ToolEnv,
  ) {}

  /** A child environment over forked states; aliasing between the two DBs is kept, the session copied. */
  fork(solo = this.solo): Environment {
    const agent = this.agent.fork();
    const user = this.user === null ? null : this.user === this.agent ? agent : this.user.fork();
    const { session } = this.toolEnv;
    const toolEnv = session === undefined ? this.toolEnv : { ...this.toolEnv, session: session.fork() };
    return new Environment(this.domain, agent, user, solo, toolEnv);
  }

  get userTools(): Toolkit | undefined {
    return this.domain.userTools;
  }

  private findTool(name: string): ToolDef | undefined {
    return this.domain.agentTools.tools.get(name) ?? this.domain.userTools?.tools.get(name);
  }

  hasTool(name: string): boolean {
    return this.findTool(name) !== undefined;
  }

  /** tau2's `_is_mutating_tool`: agent toolkit first, then user; unknown names assume mutation. */
  isMutating(name: string): boolean {
    const t = this.findTool(name);
    if (t === undefined) return true;
    // quirk discoverableDirectReadSkip off: a tool whose body writes despite its flag is replayed.
    if (!this.toolEnv.quirks.discoverableDirectReadSkip && this.domain.hiddenWrites?.has(name)) return true;
    return mutatesState(t);
  }

  /** tau2's `make_tool_call` (no sync); dispatch failures become error results like any tool error. */
  makeToolCall(name: string, requestor: Requestor, args: PyValue, render = true): CallOutcome {
    const route = this.route(name, requestor);
    if ("error" in route) return { content: `Error: ${route.error}`, error: true };
    const tool = route.toolkit.tools.get(name);
    if (tool === undefined) return { content: `Error: Tool '${name}' not found.`, error: true };
    return invoke(route.toolkit.className, tool, route.db, args, this.toolEnv, render);
  }

  private route(name: string, requestor: Requestor): { toolkit: Toolkit; db: DbState } | { error: string } {
    const userTools = this.domain.userTools;
    if (requestor === "user") {
      if (this.solo) return { error: "User tool calls are not allowed in solo mode" };
      if (userTools === undefined || this.user === null) return { error: "User tools not available" };
      return { toolkit: userTools, db: this.user };
    }
    if (this.solo && userTools !== undefined && this.user !== null && userTools.tools.has(name)) {
      return { toolkit: userTools, db: this.user };
    }
    return { toolkit: this.domain.agentTools, db: this.agent };
  }

  /** tau2's `get_response`: the call, then `sync_tools` only when it succeeded. */
  respond(name: string, requestor: Requestor, args: PyValue, render = true): CallOutcome {
    const out = this.makeToolCall(name, requestor, args, render);
    if (!out.error) this.sync();
    return out;
  }

  sync(): void {
    if (this.domain.sync !== undefined && this.user !== null) this.domain.sync(this.agent, this.user);
  }

  /**
   * tau2's `run_env_function_call`: any method (tool or helper) of the named toolkit, then sync.
   * Exceptions propagate in tau2, so a failure aborts grading.
   */
  runFunction(envType: Requestor, funcName: string, args: PyValue, at: string): ToolOutput {
    const toolkit = envType === "user" ? this.domain.userTools : this.domain.agentTools;
    const db = envType === "user" ? this.user : this.agent;
    if (toolkit === undefined || db === null) {
      throw new ReplayAbort(`'NoneType' object has no attribute '${funcName}'`, at);
    }
    const fn: FunctionDef | undefined = toolkit.tools.get(funcName) ?? toolkit.functions.get(funcName);
    if (fn === undefined)
      throw new ReplayAbort(`'${toolkit.className}' object has no attribute '${funcName}'`, at);
    const out = invoke(toolkit.className, fn, db, args, this.toolEnv);
    if (out.internal) throw new ReplayAbort(`internal fault in ${funcName}: ${out.content}`, at);
    if (out.error) throw new ReplayAbort(out.content.replace(/^Error: /, ""), at);
    this.sync();
    return out.value as ToolOutput;
  }

  agentHash(): string {
    return this.agent.hash();
  }

  userHash(): string | null {
    return this.user === null ? null : this.user.hash();
  }
}
