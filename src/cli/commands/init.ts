/** `tau-rescore init`: the flags only; the command is in `init-command.ts`. */
import type { Command } from "commander";
import type { CommandIo } from "../io.ts";

export function registerInitCommand(program: Command, io: CommandIo): void {
  program
    .command("init")
    .description(
      "start a project in a new or empty folder: experiment.json, corpus/, requirements/, reviews/ and a README of what to run next",
    )
    .argument("<dir>", "the project's folder (created if missing; refused if it holds anything)")
    .action(async (dir: string) => {
      const { initCommand } = await import("./init-command.ts");
      initCommand(dir, io);
    });
}
