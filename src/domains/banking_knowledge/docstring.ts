/**
 * tau2's `parse_discoverable_tool_docstring` and `format_discoverable_tool_for_agent`: a discoverable
 * tool's description and parameters come from its docstring (after `inspect.getdoc`), and the unlock
 * and give outputs quote them. The docstrings are ASCII, so JS regexes match as Python's do.
 */
import { pyLstrip, pyStrip } from "../../py/str-methods.ts";
import type { DiscoverableTool } from "./discoverable.ts";

export interface ParamInfo {
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
}

export interface ToolInfo {
  readonly name: string;
  readonly description: string;
  /** In first-seen order; a repeated name keeps its place and takes the later entry (a Python dict). */
  readonly parameters: ReadonlyMap<string, ParamInfo>;
  readonly successMessage: string;
}

/** Python `str.expandtabs(8)`: columns restart after every newline or carriage return. */
function expandTabs(s: string): string {
  let out = "";
  let col = 0;
  for (const ch of s) {
    if (ch === "\t") {
      const n = 8 - (col % 8);
      out += " ".repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === "\n" || ch === "\r" ? 0 : col + 1;
    }
  }
  return out;
}

/** Python `inspect.cleandoc` (what `inspect.getdoc` returns for a method's `__doc__`). */
export function cleandoc(doc: string): string {
  const lines = expandTabs(doc).split("\n");
  let margin = Number.POSITIVE_INFINITY;
  for (const line of lines.slice(1)) {
    const content = pyLstrip(line).length;
    if (content > 0) margin = Math.min(margin, line.length - content);
  }
  lines[0] = pyLstrip(lines[0] as string);
  if (Number.isFinite(margin))
    for (let i = 1; i < lines.length; i++) lines[i] = (lines[i] as string).slice(margin);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  while (lines.length > 0 && lines[0] === "") lines.shift();
  return lines.join("\n");
}

/** Python `re.split(pattern, s, maxsplit=1)` for a pattern without groups. */
function splitOnce(s: string, re: RegExp): string[] {
  const m = re.exec(s);
  return m === null ? [s] : [s.slice(0, m.index), s.slice(m.index + m[0].length)];
}

const ARGS_HEADER = /\n\s*Args:\s*\n/;
const RETURNS_HEADER = /\n\s*Returns:\s*\n/;

export function parseDiscoverableToolDocstring(name: string, docstring: string): ToolInfo {
  const doc = cleandoc(docstring);
  const parts = splitOnce(doc, ARGS_HEADER);
  const description = pyStrip(parts[0] as string);
  const parameters = new Map<string, ParamInfo>();
  let successMessage = "Action completed successfully.";
  if (parts.length > 1) {
    const returnsSplit = splitOnce(parts[1] as string, RETURNS_HEADER);
    const argsSection = returnsSplit[0] as string;
    if (returnsSplit.length > 1)
      successMessage = pyStrip(pyStrip(returnsSplit[1] as string).split("\n")[0] as string);
    // `name (type): description` or `name: description`, one per line (re.MULTILINE).
    const argPattern = /^\s*(\w+)\s*(?:\(([^)]+)\))?\s*:\s*(.+?)$/gm;
    for (const m of argsSection.matchAll(argPattern)) {
      const typeInfo = m[2] || "string";
      const paramType = pyStrip(typeInfo.replace(/,?\s*optional/gi, "")) || "string";
      parameters.set(m[1] as string, {
        type: paramType,
        description: pyStrip(m[3] as string),
        required: !typeInfo.toLowerCase().includes("optional"),
      });
    }
  }
  return { name, description, parameters, successMessage };
}

export const toolInfoOf = (tool: DiscoverableTool): ToolInfo =>
  parseDiscoverableToolDocstring(tool.name, tool.docstring);

export function formatDiscoverableToolForAgent(info: ToolInfo): string {
  const lines = [...info.parameters].map(
    ([name, p]) => `  - ${name}: ${p.type}${p.required ? " (required)" : " (optional)"} - ${p.description}`,
  );
  const params = lines.length > 0 ? lines.join("\n") : "  (no parameters)";
  return `Tool: ${info.name}\nDescription: ${info.description}\nParameters:\n${params}`;
}
