/**
 * `tau-rescore show` on a small run: a simulation found by its id or its fingerprint prints its
 * verdicts, every cause with its evidence, and the whole conversation with the evidence's messages
 * marked by the cause's label; `--json` is the store's verdicts and causes; an id in two files asks for
 * `--path`; an unknown id or a missing store is one line; a simulation whose conversation the run did
 * not keep says so; a trajectory file is graded now and shows what the run stored. In-process.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { smallExperiment } from "../helpers/small-run.ts";

const RETAIL =
  "sierra-tau2-bench__branch-feature-gym__experiments/gpt-4.1_retail_defautl_gpt-4.1_1trials.json";
const AIRLINE = "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json";
/** The airline file again under another name, its bytes changed (another file id): its ids are in two files. */
const AIRLINE_COPY = "copy/airline.json";

interface Json {
  simulation: { simulation_id: string; fingerprint: string | null; path: string };
  verdicts: { grader: string; pass: boolean | null; reward: number | null }[];
  causes: {
    label: string;
    grader: string;
    seq: number;
    kind: string;
    reference: string;
    gates: boolean;
    message_index: number | null;
    evidence: { message_index: number | null; message: string }[];
  }[];
  messages: { message_index: number; role: string; content: string | null; marks: string[] }[] | null;
  conversation_note: string | null;
}

let dir = "";
let db = "";
/** A simulation τ³ passes and the structured grader fails, with evidence at a message, and a long tool result. */
let flipped: { id: string; fingerprint: string; path: string; sim_key: string; tool: string };
/** A simulation whose conversation the run did not keep. */
let unkept = "";
/** An id the airline file and its copy share. */
let shared = "";

async function query<T>(sql: string, params: string[] = []): Promise<T[]> {
  const store = await VerdictStore.open(db, { readOnly: true });
  try {
    return await store.query<T>(sql, params);
  } finally {
    store.close();
  }
}

const show = (...args: string[]) => cliInProcess(["show", ...args]);

beforeAll(async () => {
  const made = smallExperiment([RETAIL, AIRLINE]);
  dir = made.dir;
  const copy = join(dir, "corpus", AIRLINE_COPY);
  mkdirSync(dirname(copy), { recursive: true });
  writeFileSync(copy, JSON.stringify(JSON.parse(readFileSync(join(dir, "corpus", AIRLINE), "utf8"))));
  db = join(dir, "s.duckdb");
  const r = await cliInProcess(["run", made.experiment, "--db", db]);
  expect(r.status, r.stderr).toBe(0);
  const [f] = await query<{ id: string; fingerprint: string; path: string; sim_key: string; tool: string }>(
    `SELECT s.simulation_id AS id, sc.fingerprint, f.path, s.sim_key,
            (SELECT m.content FROM conversations m WHERE m.sim_key = s.sim_key AND m.role = 'tool'
             ORDER BY length(m.content) DESC LIMIT 1) AS tool
     FROM simulations s JOIN files f USING (run_id, file_id) JOIN sim_context sc USING (run_id, sim_key)
     JOIN verdicts t ON t.sim_key = s.sim_key AND t.grader = 'tau3' AND t.pass
     JOIN verdicts u ON u.sim_key = s.sim_key AND u.grader = 'structured' AND NOT u.pass
     WHERE f.path = $1
       AND EXISTS (SELECT 1 FROM evidence e WHERE e.sim_key = s.sim_key AND e.grader = 'structured' AND e.message_index IS NOT NULL)
     ORDER BY s.sim_index LIMIT 1`,
    [RETAIL],
  );
  if (f === undefined) throw new Error("the retail file has no simulation τ³ passes and structured fails");
  flipped = f;
  expect(flipped.tool.length).toBeGreaterThan(200);
  const [u] = await query<{ id: string }>(
    `SELECT s.simulation_id AS id FROM simulations s JOIN files f USING (run_id, file_id)
     WHERE f.path = $1 AND s.sim_key NOT IN (SELECT sim_key FROM sim_context) ORDER BY s.sim_index LIMIT 1`,
    [RETAIL],
  );
  unkept = (u as { id: string }).id;
  const [d] = await query<{ id: string }>(
    `SELECT s.simulation_id AS id FROM simulations s JOIN files f USING (run_id, file_id)
     WHERE f.path = $1 ORDER BY s.sim_index LIMIT 1`,
    [AIRLINE_COPY],
  );
  shared = (d as { id: string }).id;
});

describe("show from a store", () => {
  it("finds a simulation by its id and by its fingerprint, and prints the same", async () => {
    const byId = await show(flipped.id, "--db", db);
    expect(byId.status, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(`simulation ${flipped.id}\n`);
    expect(byId.stdout).toContain(`file: ${flipped.path} `);
    expect(byId.stdout).toContain(`fingerprint: ${flipped.fingerprint}\n`);
    const byFingerprint = await show(flipped.fingerprint, "--db", db);
    expect(byFingerprint.status, byFingerprint.stderr).toBe(0);
    expect(byFingerprint.stdout).toBe(byId.stdout);
  });

  it("prints a flip's verdicts and causes, and marks the evidence's messages with the cause's label", async () => {
    const r = await show(flipped.id, "--db", db);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}tau3 +pass +reward 1/m);
    expect(r.stdout).toMatch(/^ {2}structured +FAIL +reward 0/m);
    expect(r.stdout).toContain("tau3-vs-structured: tau3 pass, structured FAIL  (flip pass→fail)");
    const causes = await query<{
      grader: string;
      kind: string;
      reference: string;
      gates: boolean;
      message: string;
    }>(
      "SELECT grader, kind, reference, gates, message FROM causes WHERE sim_key = $1 AND grader = 'structured' ORDER BY seq",
      [flipped.sim_key],
    );
    expect(causes.length).toBeGreaterThan(0);
    // structured comes right after τ³ (which passed, so has none): its causes are C1, C2, …
    causes.forEach((c, i) => {
      expect(r.stdout).toContain(
        `  [C${i + 1}] structured  ${c.kind}:${c.reference}  ${c.gates ? "gates" : "reported"}`,
      );
      expect(r.stdout).toContain(c.message);
    });
    const evidence = await query<{ cause_seq: number; message_index: number; message: string }>(
      `SELECT cause_seq, message_index, message FROM evidence
       WHERE sim_key = $1 AND grader = 'structured' AND message_index IS NOT NULL ORDER BY cause_seq, seq`,
      [flipped.sim_key],
    );
    const conversation = r.stdout.slice(r.stdout.indexOf("\nconversation ("));
    const lines = conversation.split("\n");
    for (const e of evidence) {
      expect(r.stdout).toContain(e.message);
      const head = lines.find((l) => new RegExp(`^\\S.*  #${e.message_index} `).test(l));
      expect(head, `message #${e.message_index} is marked`).toBeDefined();
      const marks = (head as string).split(/\s+/)[0] as string;
      const label = e.cause_seq + 1;
      const covered = marks.split(",").some((m) => {
        const [a, b] = m.split("-").map((x) => Number(x.slice(1)));
        return b === undefined ? a === label : (a as number) <= label && label <= b;
      });
      expect(covered, `${marks} names C${label}`).toBe(true);
    }
    // A message no cause points at has an empty margin.
    expect(lines.some((l) => /^ +#0 \[turn 0\]/.test(l))).toBe(true);
  });

  it("prints every tool result whole", async () => {
    const r = await show(flipped.id, "--db", db);
    expect(r.stdout).toContain(flipped.tool);
    const tools = await query<{ content: string }>(
      "SELECT content FROM conversations WHERE sim_key = $1 AND role = 'tool' AND content IS NOT NULL",
      [flipped.sim_key],
    );
    for (const t of tools) expect(r.stdout).toContain(t.content);
  });

  it("--json is one object with the store's verdicts, causes, evidence and messages", async () => {
    const r = await show(flipped.id, "--db", db, "--json");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.endsWith("}\n")).toBe(true);
    const j = JSON.parse(r.stdout) as Json;
    const verdicts = await query<{ grader: string; pass: boolean | null; reward: number | null }>(
      "SELECT grader, pass, reward FROM verdicts WHERE sim_key = $1 ORDER BY grader",
      [flipped.sim_key],
    );
    const byGrader = (a: { grader: string }, b: { grader: string }) => a.grader.localeCompare(b.grader);
    expect(
      j.verdicts.map((v) => ({ grader: v.grader, pass: v.pass, reward: v.reward })).sort(byGrader),
    ).toEqual(verdicts.sort(byGrader));
    const causes = await query<{
      grader: string;
      seq: number;
      kind: string;
      reference: string;
      evidence: number;
    }>(
      `SELECT c.grader, c.seq, c.kind, c.reference,
              (SELECT count(*)::INTEGER FROM evidence e WHERE e.sim_key = c.sim_key AND e.grader = c.grader AND e.cause_seq = c.seq) AS evidence
       FROM causes c WHERE c.sim_key = $1`,
      [flipped.sim_key],
    );
    expect(j.causes).toHaveLength(causes.length);
    for (const c of causes) {
      const shown = j.causes.find((x) => x.grader === c.grader && x.seq === c.seq);
      expect(shown).toMatchObject({ kind: c.kind, reference: c.reference });
      expect(shown?.evidence).toHaveLength(c.evidence);
    }
    const messages = await query<{ n: number }>(
      "SELECT count(*)::INTEGER AS n FROM conversations WHERE sim_key = $1",
      [flipped.sim_key],
    );
    expect(j.messages).toHaveLength((messages[0] as { n: number }).n);
    const first = j.causes.find(
      (c) => c.grader === "structured" && c.evidence.some((e) => e.message_index !== null),
    );
    const at = first?.evidence.find((e) => e.message_index !== null)?.message_index;
    expect(j.messages?.find((m) => m.message_index === at)?.marks).toContain(first?.label);
    expect(j.messages?.some((m) => m.content === flipped.tool)).toBe(true);
  });

  it("says in one line that the conversation is not stored, and shows the verdicts", async () => {
    const r = await show(unkept, "--db", db);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^conversation: the conversation is not stored: run \S+ kept only those/m);
    expect(r.stdout).toMatch(/^ {2}tau3 +(pass|FAIL)/m);
    const j = JSON.parse((await show(unkept, "--db", db, "--json")).stdout) as Json;
    expect(j.messages).toBeNull();
    expect(j.conversation_note).toContain("not stored");
  });

  it("asks for --path when the id is in several files, and takes it", async () => {
    const r = await show(shared, "--db", db);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("pass --path with one of:");
    expect(r.stderr).toContain(AIRLINE);
    expect(r.stderr).toContain(AIRLINE_COPY);
    const one = await show(shared, "--db", db, "--path", AIRLINE_COPY, "--json");
    expect(one.status, one.stderr).toBe(0);
    expect((JSON.parse(one.stdout) as Json).simulation.path).toBe(AIRLINE_COPY);
  });

  it("an unknown id, or a missing store, is one line naming what was looked for and where", async () => {
    const r = await show("no-such-simulation", "--db", db);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain('"no-such-simulation"');
    expect(r.stderr).toContain(db);
    const missing = join(dir, "none.duckdb");
    const m = await show(flipped.id, "--db", missing);
    expect(m.status).toBe(2);
    expect(m.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(m.stderr).toContain(missing);
  });
});

describe("show from a trajectory file", () => {
  it("grades the simulation now and shows what the run stored", async () => {
    const file = join(dir, "corpus", RETAIL);
    const args = ["--grader", "tau3,structured", "--corrections", "on", "--data-dir", DATA_DIR, "--json"];
    const r = await show(flipped.id, file, ...args);
    expect(r.status, r.stderr).toBe(0);
    const now = JSON.parse(r.stdout) as Json;
    const stored = JSON.parse((await show(flipped.id, "--db", db, "--json")).stdout) as Json;
    const verdicts = (j: Json) => j.verdicts.map((v) => [v.grader, v.pass, v.reward]);
    expect(verdicts(now)).toEqual(verdicts(stored));
    const causes = (j: Json) =>
      j.causes.map((c) => [c.label, c.grader, c.kind, c.reference, c.gates, c.evidence]);
    expect(causes(now)).toEqual(causes(stored));
    expect(now.messages).toEqual(stored.messages);
    expect(now.simulation.fingerprint).toBe(flipped.fingerprint);
    // By fingerprint, too; and store flags do not mix with a file.
    const byFingerprint = await show(flipped.fingerprint, file, ...args);
    expect(byFingerprint.stdout).toBe(r.stdout);
    const mixed = await show(flipped.id, file, "--db", db);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain("--db");
  });

  it("an id the file does not hold is one line naming the file", async () => {
    const file = join(dir, "corpus", RETAIL);
    const r = await show("no-such-simulation", file, "--data-dir", DATA_DIR);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(file);
  });
});
