/** What every tau2 domain provides to replay and grading. */
import type { DomainName } from "../formats/domains.ts";
import type { Action } from "../formats/model.ts";
import type { PyDict } from "../py/value.ts";
import type { DbBase, DbState } from "./db-state.ts";
import type { Toolkit, ToolSession } from "./toolkit.ts";

export type { DomainName } from "../formats/domains.ts";

export interface DomainDef {
  readonly name: DomainName;
  /**
   * The variant this definition grades (`domains/<variant>/variant.json` extending `name`, see
   * `variants.ts`): the base's tools and code on the variant's own documents.
   */
  readonly variant?: string;
  /** Loads and validates the agent DB from a tau2 data dir (`data/tau2`). */
  loadAgentDb(dataDir: string): DbBase;
  /** Loads the user DB, for domains that have one. */
  loadUserDb?(dataDir: string): DbBase;
  /**
   * Re-validates plain data as the agent/user DB (after `initialization_data` is deep-merged into a
   * dump): pydantic lax coercion, defaults added, unknown nested keys dropped.
   */
  agentDbFromPlain(plain: unknown): DbBase;
  userDbFromPlain?(plain: unknown): DbBase;
  readonly agentTools: Toolkit;
  readonly userTools?: Toolkit;
  /** tau2's `sync_tools` (telecom only): copies agent-DB facts into the user DB. */
  sync?(agent: DbState, user: DbState): void;
  /** Solo mode (`llm_agent_solo` + `dummy_user`) support; airline and retail raise. */
  readonly supportsSolo: boolean;
  /** The agent's policy document, relative to the domain folder (what probes and policy clauses quote). */
  readonly policyFile: string;
  /** The policy a solo agent works under, where it has its own (telecom). */
  readonly soloPolicyFile?: string;
  /** Fields `sync` writes from other fields (declared next to the sync code). */
  readonly derived?: readonly DerivedField[];
  /** What tau2 raises when the environment is built in solo mode (default: "<Name> domain does not ..."). */
  readonly soloError?: string;
  /** Agent and user toolkits hold one DB object (banking): the user DB is the agent DB, always. */
  readonly sharedDb?: boolean;
  /**
   * Records are `Dict[str, Any]` (banking): values keep the Python types they were written with, so
   * `initialization_data` merges as Python values and `*DbFromPlain` receive Python values.
   */
  readonly untypedRecords?: boolean;
  /**
   * The toolkit-instance state a fresh tau2 environment starts with for a task, from its gold actions
   * (banking's read-log allow-list is tau2's per-task `env_kwargs`).
   */
  newSession?(goldActions: readonly Action[] | null): ToolSession;
  /** Tools whose decorator says non-mutating although their body writes (quirk discoverableDirectReadSkip). */
  readonly hiddenWrites?: ReadonlySet<string>;
  /**
   * What a dispatcher's call does (banking: `call_discoverable_agent_tool` runs `agent_tool_name` with
   * its JSON `arguments`): the tool and arguments that requirement rules, policy clauses and policy
   * rules match on. Null when the call dispatches nothing; undefined: every call is what it names.
   */
  effectiveCall?(name: string, args: PyDict): EffectiveCall | null;
  /** Documents every agent of the domain works under besides `policyFile` (banking's prompt components). */
  readonly policyIncludes?: readonly string[];
  /**
   * Fields records of a table may have that no record of the loaded DB has (banking's records are
   * untyped dicts: its tools add fields, tasks add records): policy clauses may read them.
   */
  readonly recordFields?: Readonly<Record<string, readonly string[]>>;
  /** The knowledge base the agent searches (one `{id, title, content}` JSON file per document), relative to the domain folder. */
  readonly knowledgeBase?: string;
}

/**
 * A domain definition with every optional member present (undefined when the domain has none), in
 * one order. Domains differ in which members they define; as five object shapes they made each
 * `domain.agentTools` read in grading polymorphic, and every domain a grading thread met for the
 * first time deoptimized the functions compiled for the others (see README, Performance). One object
 * literal (not a loop of keyed stores, which leaves a 21-member object in dictionary mode), typed so
 * that the compiler asks for every member.
 */
export function defineDomain(def: DomainDef): DomainDef {
  // Each value is the domain's own member: the type only has to make the compiler ask for every key.
  const uniform: Record<keyof DomainDef, unknown> = {
    name: def.name,
    variant: def.variant,
    loadAgentDb: def.loadAgentDb,
    loadUserDb: def.loadUserDb,
    agentDbFromPlain: def.agentDbFromPlain,
    userDbFromPlain: def.userDbFromPlain,
    agentTools: def.agentTools,
    userTools: def.userTools,
    sync: def.sync,
    supportsSolo: def.supportsSolo,
    policyFile: def.policyFile,
    soloPolicyFile: def.soloPolicyFile,
    derived: def.derived,
    soloError: def.soloError,
    sharedDb: def.sharedDb,
    untypedRecords: def.untypedRecords,
    newSession: def.newSession,
    hiddenWrites: def.hiddenWrites,
    effectiveCall: def.effectiveCall,
    policyIncludes: def.policyIncludes,
    recordFields: def.recordFields,
    knowledgeBase: def.knowledgeBase,
  };
  return uniform as unknown as DomainDef;
}

/** A call as what it does: the tool a dispatcher runs, with the arguments that tool receives. */
export interface EffectiveCall {
  readonly name: string;
  readonly args: PyDict;
}

/** A DB field by table (or atom) and the path inside its records: `agent lines[*].status`. */
export interface FieldRef {
  readonly db: "agent" | "user";
  readonly table: string;
  readonly path: readonly string[];
}

/** A field the environment's sync writes from others: a change there is a change of its sources. */
export interface DerivedField {
  readonly field: FieldRef;
  readonly from: readonly FieldRef[];
}

/** A domain's freshly loaded DBs (loaded once per data dir and shared read-only). */
export interface DomainData {
  readonly domain: DomainDef;
  /** The tau2 data dir the DBs came from (policy documents are read from it too). */
  readonly dataDir: string;
  readonly agentBase: DbBase;
  readonly userBase: DbBase | null;
}
