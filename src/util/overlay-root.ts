/**
 * Where this process builds its variant overlays (`domains/variants.ts`): one folder per process, shared by its
 * grading threads, removed when the process ends. A module of its own so the CLI's exit hook loads nothing else.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const overlayRoot = (): string => join(tmpdir(), `tau-rescore-variants-${process.pid}`);

/** Removes every overlay this process built (its grading threads' too). */
export function removeVariantOverlays(): void {
  rmSync(overlayRoot(), { recursive: true, force: true });
}
