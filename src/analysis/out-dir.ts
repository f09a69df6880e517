/**
 * The report's output folder. `report --out` writes only into a folder that is new, empty, or a
 * previous report whose manifest (written by us, with every file's sha256) still describes it exactly,
 * so it never deletes a file it did not write. The report is built in a sibling `.<name>.partial-<pid>`
 * and swapped in with renames; an interrupt removes the partial folder, and a hard kill's leftovers are
 * cleaned up (or the old report put back) by the next report into the same folder.
 */
import { createHash } from "node:crypto";
import {
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

export const MANIFEST = ".tau-rescore-report.json";

/** `--out` names something the report must not replace: a usage mistake. */
export class OutDirError extends Error {
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

/** Every entry under `dir`, relative, with `/` separators (symlinks are not followed). */
function entries(dir: string, prefix = ""): { path: string; kind: "file" | "dir" | "other" }[] {
  const out: { path: string; kind: "file" | "dir" | "other" }[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix + d.name;
    if (d.isDirectory()) out.push({ path, kind: "dir" }, ...entries(join(dir, d.name), `${path}/`));
    else out.push({ path, kind: d.isFile() ? "file" : "other" });
  }
  return out;
}

/** Files under `dir` that its manifest does not vouch for (unlisted, changed, not regular files). */
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
  return entries(dir)
    .filter((e) => e.path !== MANIFEST)
    .filter((e) =>
      e.kind === "dir"
        ? !dirs.has(e.path)
        : e.kind !== "file" || !listed.has(e.path) || m.sha256[e.path] !== sha256(join(dir, e.path)),
    )
    .map((e) => e.path);
}

/** Names a report wrote before it wrote a manifest (session 8 and earlier). */
const LEGACY_NAME =
  /^(?:[a-z0-9_]+\.(?:json|csv|parquet)|report\.(?:html|md)|charts|charts\/[a-z0-9_]+\.(?:vl\.json|svg|png))$/;

/** A report written before manifests: only names a report writes, and its summary.json. */
function legacyReport(dir: string): boolean {
  if (!entries(dir).every((e) => e.kind !== "other" && LEGACY_NAME.test(e.path))) return false;
  try {
    const s = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Record<string, unknown>;
    return "run" in s && "by_domain" in s && "flips" in s;
  } catch {
    return false;
  }
}

/** Checks that the report may take `target`; says why not in one line. */
export function checkOutDir(target: string): "new" | "empty" | "report" {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(target);
  } catch {
    return "new";
  }
  if (!st.isDirectory())
    throw new OutDirError(`--out ${target} is not a folder; name a new or empty folder for the report`);
  if (readdirSync(target).length === 0) return "empty";
  const m = readManifest(target);
  if (m === null && legacyReport(target)) return "report";
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

const EXIT_OF: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** A report being built for `target`: `dir` to write into, `commit` to swap it in, `abort` to drop it. */
export interface Staging {
  readonly dir: string;
  commit(): void;
  abort(): void;
}

/**
 * Checks `target`, cleans a killed report's leftovers, and creates the partial folder. Until commit or
 * abort, an interrupt (SIGINT, SIGTERM, SIGHUP) removes it and exits with 128 + the signal's number, and
 * any exit removes it.
 */
export function stage(target: string): Staging {
  cleanStale(target);
  checkOutDir(target); // refuse before anything is written
  const dir = join(dirname(target), `.${basename(target)}.partial-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const partial: Manifest = { tau_rescore_report: 1, state: "partial", files: [], sha256: {} };
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(partial)}\n`);
  const drop = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = (sig: NodeJS.Signals) => {
    drop();
    process.stderr.write(`tau-rescore: report interrupted (${sig}); ${target} was left as it was\n`);
    process.exit(EXIT_OF[sig] ?? 1);
  };
  const signals = Object.keys(EXIT_OF) as NodeJS.Signals[];
  const release = () => {
    process.off("exit", drop);
    for (const s of signals) process.off(s, onSignal);
  };
  process.on("exit", drop);
  for (const s of signals) process.on(s, onSignal);
  return {
    dir,
    abort() {
      release();
      drop();
    },
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
      release();
    },
  };
}
