/** docs/reference/cli.md quotes every command's `--help`: each quoted block is what the command prints now. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";

/** Each `## tau-rescore <words>` section's fenced block that starts with `Usage:`. */
function helpBlocks(markdown: string): { command: string[]; text: string }[] {
  const out: { command: string[]; text: string }[] = [];
  for (const m of markdown.matchAll(/^## tau-rescore(.*)\n(?:(?!## )[^\n]*\n)*?```\n(Usage:[\s\S]*?)```$/gm))
    out.push({ command: (m[1] ?? "").trim().split(/\s+/).filter(Boolean), text: m[2] ?? "" });
  return out;
}

describe("docs/reference/cli.md", () => {
  const blocks = helpBlocks(readFileSync("docs/reference/cli.md", "utf8"));

  it("quotes the help of every command it has a section for", () => {
    expect(blocks.length).toBeGreaterThan(15);
  });

  it.each(blocks.map((b) => [b.command.join(" ") || "(top level)", b] as const))(
    "quotes %s's --help as it is",
    async (_, b) => {
      const r = await cliInProcess([...b.command, "--help"]);
      expect(r.status).toBe(0);
      expect(b.text).toBe(r.stdout);
    },
  );
});
