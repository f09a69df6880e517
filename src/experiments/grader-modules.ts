/**
 * Graders from outside the package: the modules an experiment names in `grader_modules`, each with a
 * grader (made with `defineGrader`) as its default export. They are imported and registered before the
 * grading spec is built, in the main thread and in every grading thread.
 */
import { pathToFileURL } from "node:url";
import {
  type AnyGrader,
  type GraderId,
  GraderRegistrationError,
  registerGrader,
} from "../graders/registry.ts";
import { GradingSpecError } from "../graders/spec.ts";

const TYPESCRIPT = /\.[cm]?ts$/;

export const isTypeScriptModule = (path: string): boolean => TYPESCRIPT.test(path);

/**
 * Imports a module as Node does. A TypeScript one needs a loader in every thread (Node 20 has none):
 * the error says so, since the built CLI never loads development tools itself.
 */
async function importModule(path: string): Promise<{ readonly default?: unknown }> {
  try {
    return await import(pathToFileURL(path).href);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_UNKNOWN_FILE_EXTENSION" && isTypeScriptModule(path))
      throw new GradingSpecError(
        `grader module ${path}: a TypeScript module needs a loader (run with NODE_OPTIONS=--import=tsx), or write it as .mjs`,
      );
    throw e;
  }
}

/**
 * Imports and registers each module's grader, in order; a module may read the graders before it.
 * Returns their ids, in the same order.
 */
export async function importGraderModules(paths: readonly string[]): Promise<GraderId[]> {
  const ids: GraderId[] = [];
  for (const path of paths) {
    let mod: { readonly default?: unknown };
    try {
      mod = await importModule(path);
    } catch (e) {
      if (e instanceof GradingSpecError) throw e;
      throw new GradingSpecError(
        `grader module ${path}: cannot import it: ${(e as Error).message.split("\n")[0]}`,
      );
    }
    try {
      registerGrader(mod.default as AnyGrader, path);
    } catch (e) {
      if (e instanceof GraderRegistrationError)
        throw new GradingSpecError(`grader module ${path}: ${e.message}`);
      throw e;
    }
    ids.push((mod.default as AnyGrader).id);
  }
  return ids;
}
