/**
 * Which files a run holds, by path (relative to the corpus root) and content hash. Decides for each
 * graded file whether it is already stored, a duplicate of content stored under another path (graded
 * once: the copy gets a `duplicate` row naming both paths), or new, possibly replacing another version
 * of the same path (tau2 rewrites its results file after every simulation).
 */
import { sha256Hex } from "../py/json.ts";
import type { StoredFile } from "../store/store.ts";
import type { FileResult } from "./process-file.ts";

const DUPLICATE_PREFIX = "same content as ";

type Written = Exclude<FileResult, { kind: "skipped" }>;

export type LedgerDecision =
  | { readonly kind: "skip"; readonly regrade: readonly string[] }
  | {
      readonly kind: "write";
      readonly result: (Written & { readonly replaces: boolean }) | DuplicateResult;
      /** Paths whose stored rows this write drops (copies of the replaced content): grade them again. */
      readonly regrade: readonly string[];
    };

export interface DuplicateResult {
  readonly kind: "duplicate";
  readonly path: string;
  readonly fileId: string;
  readonly fileRow: Written["fileRow"];
  readonly batch: Written["batch"];
  readonly replaces: boolean;
  readonly simulations: 0;
}

export class FileLedger {
  /** Content id → the path whose rows hold it. */
  private readonly owners = new Map<string, string>();
  /** Path → the id of its `files` row. */
  private readonly byPath = new Map<string, string>();
  /** Duplicate path → the path it copies. */
  private readonly copies = new Map<string, string>();

  constructor(
    private readonly runId: string,
    stored: readonly StoredFile[],
  ) {
    for (const f of stored) {
      this.byPath.set(f.path, f.file_id);
      if (f.status === "duplicate" && f.error?.startsWith(DUPLICATE_PREFIX))
        this.copies.set(f.path, f.error.slice(DUPLICATE_PREFIX.length));
      else this.owners.set(f.file_id, f.path);
    }
  }

  /** Content ids stored in the run (grading skips them). */
  committed(): Set<string> {
    return new Set(this.owners.keys());
  }

  decide(r: FileResult): LedgerDecision {
    const owner = this.owners.get(r.fileId);
    if (owner === r.path) return { kind: "skip", regrade: [] };
    if (owner !== undefined) return this.duplicate(r.path, r.fileId, owner);
    // Skipped as stored, but its stored copy was replaced in this run: grade it after all.
    if (r.kind === "skipped") return { kind: "skip", regrade: [r.path] };
    const previous = this.byPath.get(r.path);
    const regrade: string[] = [];
    if (previous !== undefined) {
      if (this.owners.get(previous) === r.path) {
        this.owners.delete(previous);
        for (const [copy, of] of this.copies) if (of === r.path) regrade.push(copy);
      }
      this.copies.delete(r.path);
    }
    this.owners.set(r.fileId, r.path);
    this.byPath.set(r.path, r.fileId);
    return { kind: "write", result: { ...r, replaces: previous !== undefined }, regrade };
  }

  /** A `duplicate` row for `path`: no simulations of its own, the path holding its content named. */
  private duplicate(path: string, contentId: string, owner: string): LedgerDecision {
    const id = sha256Hex(`duplicate:${path}:${contentId}`);
    const previous = this.byPath.get(path);
    if (previous === id) return { kind: "skip", regrade: [] };
    const regrade: string[] = [];
    if (previous !== undefined && this.owners.get(previous) === path) {
      this.owners.delete(previous);
      for (const [copy, of] of this.copies) if (of === path) regrade.push(copy);
    }
    this.byPath.set(path, id);
    this.copies.set(path, owner);
    return {
      kind: "write",
      regrade,
      result: {
        kind: "duplicate",
        path,
        fileId: id,
        fileRow: {
          run_id: this.runId,
          file_id: id,
          path,
          variant: "duplicate",
          domain: null,
          agent_model: null,
          agent_implementation: null,
          user_model: null,
          task_version: null,
          simulations: 0,
          rejected: 0,
          status: "duplicate",
          error: `${DUPLICATE_PREFIX}${owner}`,
          excluded: false,
          exclusion_reason: null,
          configuration: null,
        },
        batch: {},
        replaces: previous !== undefined,
        simulations: 0,
      },
    };
  }
}
