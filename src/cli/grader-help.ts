/**
 * The built-in graders' ids in an option's help, read from the registry only when the command runs or
 * shows its help (`grade --help`, `help grade`): the registry brings zod and every grader, which
 * `tau-rescore --help` does without.
 */
import type { Command } from "commander";

const loaders = new WeakMap<Command, () => Promise<void>>();

export function nameGradersInHelp(
  program: Command,
  cmd: Command,
  flag: string,
  describe: (graders: string) => string,
): void {
  const option = cmd.options.find((o) => o.long === flag);
  if (option === undefined) throw new Error(`${cmd.name()} has no option ${flag}`);
  const load = async () => {
    const { GRADER_IDS } = await import("../graders/registry.ts");
    option.description = describe(GRADER_IDS.join(", "));
  };
  loaders.set(cmd, load);
  program.hook("preSubcommand", async (_program, sub) => {
    if (sub === cmd) await load();
  });
}

/**
 * `help [command]`, as commander's own, but after the command's help has what it loads: commander's
 * shows it at once, without the hooks a command's own `--help` runs.
 */
export function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command("help [command]")
    .description("display help for command")
    .action(async (name: string | undefined) => {
      if (name === undefined) program.help();
      const sub = program.commands.find((c) => c.name() === name || c.aliases().includes(name));
      if (sub === undefined || sub.name() === "help")
        return program.error(`error: unknown command '${name}'`, { code: "commander.unknownCommand" });
      await loaders.get(sub)?.();
      sub.help();
    });
}
