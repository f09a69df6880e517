/** Simulation ids a file uses more than once: graded each time (by position), but worth a warning. */
import type { TrajectoryFile } from "./model.ts";

export function duplicateIdWarnings(file: Pick<TrajectoryFile, "simulations">, shown: string): string[] {
  const counts = new Map<string, number>();
  for (const s of file.simulations) counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
  return [...counts]
    .filter(([, n]) => n > 1)
    .map(([id, n]) => `${shown}: warning: simulation id ${id} appears ${n} times (each is graded)`);
}
