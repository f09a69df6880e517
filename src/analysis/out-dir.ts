/**
 * The report's output folder. `report --out` writes only into a folder that is new, empty, or a
 * previous report whose manifest (written by us, with every file's sha256) still describes it exactly,
 * so it never deletes a file it did not write. The report is built in a sibling `.<name>.partial-<pid>`
 * and swapped in with renames; the command aborts it on an interrupt (removing the partial folder), and
 * a hard kill's leftovers are cleaned up (or the old report put back) by the next report into the same
 * folder.
 */
import { createHash } from "node:crypto";
import {
  type Dirent,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";

export const MANIFEST = ".tau-rescore-report.json";

/** `--out` names something the report must not replace: a usage mistake. */
export class OutDirError extends RescoreError {
  override readonly code = "out_dir";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "OutDirError";
}

interface Manifest {
  readonly tau_rescore_report: 1;
  readonly state: "partial" | "complete";
  readonly files: readonly string[];
  readonly sha256: Readonly<Record<string, string>>;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Partial<Manifest>;
    if (m.tau_rescore_report !== 1 || !Array.isArray(m.files) || typeof m.sha256 !== "object") return null;
    return m as Manifest;
  } catch {
    return null;
  }
}

type Kind = "file" | "dir" | "other";

/** Every entry under `dir` (a folder this process wrote), relative, with `/` separators; links not followed. */
function entries(dir: string, prefix = ""): { path: string; kind: Kind }[] {
  const out: { path: string; kind: Kind }[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix + d.name;
    if (d.isDirectory()) out.push({ path, kind: "dir" }, ...entries(join(dir, d.name), `${path}/`));
    else out.push({ path, kind: d.isFile() ? "file" : "other" });
  }
  return out;
}

/**
 * Entries of `dir` that its manifest does not vouch for (unlisted, changed, not regular files). Only the
 * folders the manifest names are listed: anything else is foreign at its own level and never entered,
 * so a wrong `--out` costs one listing, not a walk of whatever it holds.
 */
function foreign(dir: string, m: Manifest): string[] {
  const listed = new Set(m.files);
  const dirs = new Set(
    m.files.flatMap((f) =>
      f
        .split("/")
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join("/")),
    ),
  );
  const unchanged = (path: string) => {
    try {
      return m.sha256[path] === sha256(join(dir, path));
    } catch {
      return false; // unreadable: not known to be ours
    }
  };
  const out: string[] = [];
  const visit = (rel: string) => {
    let list: Dirent[];
    try {
      list = readdirSync(rel === "" ? dir : join(dir, rel), { withFileTypes: true });
    } catch {
      out.push(`${rel} (cannot be read)`);
      return;
    }
    for (const d of list) {
      const path = rel === "" ? d.name : `${rel}/${d.name}`;
      if (path === MANIFEST) continue;
      if (d.isDirectory()) {
        if (dirs.has(path)) visit(path);
        else out.push(path);
      } else if (!d.isFile() || !listed.has(path) || !unchanged(path)) out.push(path);
    }
  };
  visit("");
  return out;
}

const refusal = (target: string, why: string) =>
  new OutDirError(`--out ${target} ${why}; name a new or empty folder for the report`);

/**
 * Checks that the report may take `target`; says why not in one line. Decided from `target`'s own
 * listing and its manifest: a folder without our manifest is refused without looking inside.
 */
export function checkOutDir(target: string): "new" | "empty" | "report" {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "new";
    throw refusal(target, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!st.isDirectory()) throw refusal(target, "is not a folder");
  let names: string[];
  try {
    names = readdirSync(target);
  } catch (e) {
    throw refusal(target, `cannot be listed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (names.length === 0) return "empty";
  const m = names.includes(MANIFEST) ? readManifest(target) : null;
  if (m === null || m.state !== "complete")
    throw new OutDirError(
      `--out ${target} is a folder that holds other files and no report of tau-rescore; ` +
        "name a new or empty folder (the report never deletes files it did not write)",
    );
  const extra = foreign(target, m);
  if (extra.length > 0)
    throw new OutDirError(
      `--out ${target} is a previous report, but holds files the report did not write or that were changed ` +
        `(${extra.slice(0, 5).join(", ")}${extra.length > 5 ? ", …" : ""}); move them or name another folder`,
    );
  return "report";
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Leftovers of a report into `target` killed hard (SIGKILL, power loss): a partial folder is removed;
 * an old report moved aside is put back when `target` is missing, else removed. Only folders with our
 * manifest whose process is gone are touched.
 */
function cleanStale(target: string): void {
  const parent = dirname(target);
  if (!existsSync(parent)) return;
  const re = new RegExp(
    `^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(partial|previous)-(\\d+)$`,
  );
  for (const name of readdirSync(parent)) {
    const hit = re.exec(name);
    if (hit === null || Number(hit[2]) === process.pid || alive(Number(hit[2]))) continue;
    const path = join(parent, name);
    const m = readManifest(path);
    if (m === null) continue;
    if (hit[1] === "previous" && m.state === "complete" && !existsSync(target)) renameSync(path, target);
    else rmSync(path, { recursive: true, force: true });
  }
}

/** A report being built for `target`: `dir` to write into, `commit` to swap it in, `abort` to drop it. */
export interface Staging {
  readonly dir: string;
  commit(): void;
  abort(): void;
}

/**
 * Checks `target`, cleans a killed report's leftovers, and creates the partial folder. Until commit,
 * whoever ends the process (a signal handler, an exit hook) calls `abort` to remove it, once any query
 * writing into it has stopped.
 */
export function stage(target: string): Staging {
  cleanStale(target);
  checkOutDir(target); // refuse before anything is written
  const dir = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const partial: Manifest = { tau_rescore_report: 1, state: "partial", files: [], sha256: {} };
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(partial)}\n`);
  // Retried: a DuckDB COPY may still be adding a file while the folder is removed.
  const drop = () => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  return {
    dir,
    abort: drop,
    commit() {
      const files = entries(dir)
        .filter((e) => e.kind === "file" && e.path !== MANIFEST)
        .map((e) => e.path)
        .sort();
      const sums = Object.fromEntries(files.map((f) => [f, sha256(join(dir, f))]));
      const m: Manifest = { tau_rescore_report: 1, state: "complete", files, sha256: sums };
      writeFileSync(join(dir, MANIFEST), `${JSON.stringify(m, null, 1)}\n`);
      // Checked again: the folder may have changed while the report was being written.
      if (checkOutDir(target) === "report") {
        const previous = join(dirname(target), `.${basename(target)}.previous-${process.pid}`);
        renameSync(target, previous);
        try {
          renameSync(dir, target);
        } catch (e) {
          renameSync(previous, target);
          throw e;
        }
        rmSync(previous, { recursive: true, force: true });
      } else {
        renameSync(dir, target); // replaces an empty folder atomically
      }
    },
  };
}
