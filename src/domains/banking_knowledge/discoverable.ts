/**
 * banking_knowledge's discoverable tools: methods the agent must unlock (or give to the user) before
 * they can be called through `call_discoverable_agent_tool` / `call_discoverable_user_tool`.
 */
import type { ToolDef } from "../toolkit.ts";

export interface DiscoverableTool extends ToolDef {
  /**
   * The method's docstring exactly as Python's `method.__doc__` holds it (leading newline
   * and indentation included): the unlock and give outputs are parsed from it, as in tau2.
   */
  readonly docstring: string;
}
