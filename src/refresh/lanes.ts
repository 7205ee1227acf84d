/**
 * A refresh of several companies: one lane per company, each the steps of ./engine.ts with its
 * own client, sheets, stores and cursor, all moved in lockstep. Each pass moves every live lane
 * to its next batch of reads and sends them all in one `runRounds` (one fetchAll per pass), so a
 * refresh of two companies takes as many rounds as the larger one alone; the batch size is per
 * lane (rate limits are per account). A lane that throws (its service down, its token refused,
 * an error in a 200) ends alone, its cursor and error kept; the others go on. Each lane writes
 * only its own company's rows (`laneSheets`): its keys prefixed with the company's, its `covers`
 * accepting its own rows only, so marking or removing never touches another company's rows.
 */
import type { Round } from "../api/rounds";
import { originOf } from "../api/urls";
import { FIRST_COMPANY_KEY } from "../company/model";
import { COMPANY_KEY_COLUMN, type CompanyLabel, withCompany } from "../sheets/columns";
import {
  companyAnchor,
  companyCovers,
  companyRowKey,
  legacyPartsOf,
  type SheetCompany,
  showsCompanies,
} from "../sheets/company";
import { EMPLOYEE_NAMES_KEY } from "./employees";
import {
  type EngineDeps,
  type EngineResult,
  isRefreshCursor,
  type Read,
  type RefreshCursor,
  type RefreshKind,
  type RefreshSheets,
  refreshSteps,
  type Stage,
  type StepReads,
  type Steps,
  startCursor,
} from "./engine";
import { FINGERPRINT_KEY } from "./fingerprints";
import type { StartedReads } from "./reader";
import type { TextStore } from "./stored-text";

/** One company's refresh: its key, where it points, and what its steps run over. */
export interface Lane {
  key: string;
  /** The company's name, for messages. */
  name?: string;
  /** The company's key and the origin its requests go to: a lane pointed elsewhere restarts. */
  entry: string;
  deps: EngineDeps & { reader: EngineDeps["reader"] & { start(reads: readonly Read[]): StartedReads } };
}

/** Where one lane is: the engine's cursor, for the entry it was made for. */
export type LaneCursor = RefreshCursor & {
  entry: string;
  /** Funds whose movements were to fetch when that stage began (the progress bar's scale). */
  fundsAtStart?: number;
};

/** Where a refresh of several companies is; plain JSON, stored between executions. */
export interface LanesCursor {
  v: 2;
  kind: RefreshKind;
  /** Per company key; a lane with no stages left is done (a continuation does not run it again). */
  lanes: Record<string, LaneCursor>;
}

/** How one lane ended in this execution. */
export interface LaneOutcome {
  key: string;
  /** What its steps gave; absent when it failed. */
  result?: EngineResult;
  /** Why it failed (its rows are left as they were since its last sheet written). */
  error?: unknown;
}

export interface LanesResult {
  /** Every lane done or failed: nothing left to continue. */
  finished: boolean;
  cursor: LanesCursor | null;
  lanes: LaneOutcome[];
  records: number;
  /** Stages every lane that ran finished in this execution. */
  refreshed: Stage[];
  requests: number;
}

/** The entry of a lane: the company's key and its service's origin. */
export function laneEntry(key: string, apiUrl: string): string {
  return `${key}@${originOf(apiUrl) || apiUrl}`;
}

/** Whether `value` is a cursor of several lanes this version can continue. */
export function isLanesCursor(value: unknown): value is LanesCursor {
  if (!value || typeof value !== "object") return false;
  const c = value as LanesCursor;
  if (c.v !== 2 || !["funds", "transactions", "reports", "all"].includes(c.kind)) return false;
  if (!c.lanes || typeof c.lanes !== "object") return false;
  return Object.values(c.lanes).every(
    (lane) => isRefreshCursor(lane) && typeof (lane as LaneCursor).entry === "string",
  );
}

/**
 * The cursor a refresh of `kind` over `lanes` starts from: `stored` continued where it can be.
 * A cursor of the previous version (one company, v1) is the first company's lane; a lane whose
 * entry changed (its company re-pointed) starts again, a new lane starts fresh, a lane of a
 * company no longer refreshed is dropped.
 */
export function lanesCursor(
  stored: unknown,
  kind: RefreshKind,
  lanes: readonly Pick<Lane, "key" | "entry">[],
): LanesCursor {
  const kept: Record<string, RefreshCursor & { entry?: string; fundsAtStart?: number }> = isLanesCursor(
    stored,
  )
    ? stored.kind === kind
      ? stored.lanes
      : {}
    : isRefreshCursor(stored)
      ? { [FIRST_COMPANY_KEY]: stored }
      : {};
  const out: Record<string, LaneCursor> = {};
  for (const lane of lanes) {
    const was = kept[lane.key];
    // A v1 cursor names no entry: it was the first company's, wherever that pointed then.
    const same = was && (was.entry === undefined || was.entry === lane.entry);
    out[lane.key] = same ? { ...was, entry: lane.entry } : { ...startCursor(kind), entry: lane.entry };
  }
  return { v: 2, kind, lanes: out };
}

/** The engine's cursor of a lane (without what only the lanes keep). */
function engineCursor(lane: LaneCursor): RefreshCursor {
  const { entry: _entry, fundsAtStart: _funds, ...cursor } = lane;
  return cursor;
}

interface Running {
  lane: Lane;
  from: LaneCursor;
  steps: Steps<EngineResult> | null;
  next: IteratorResult<StepReads, EngineResult> | null;
  outcome: LaneOutcome;
}

/**
 * Runs every lane from its place in `cursor` until each is done, stopped or failed, its reads
 * sent with the other lanes' by `send` (`runRounds` over the transport: one fetchAll a pass).
 */
export function runLanes(
  lanes: readonly Lane[],
  cursor: LanesCursor,
  shouldStop: () => boolean,
  send: (rounds: Round[]) => void,
): LanesResult {
  const running: Running[] = lanes.map((lane) => {
    const from = cursor.lanes[lane.key] ?? { ...startCursor(cursor.kind), entry: lane.entry };
    return { lane, from, steps: null, next: null, outcome: { key: lane.key } };
  });
  const advance = (r: Running, move: () => IteratorResult<StepReads, EngineResult>) => {
    try {
      r.next = move();
      if (r.next.done) r.outcome.result = r.next.value;
    } catch (error) {
      r.outcome.error = error;
      r.next = null;
    }
  };
  for (const r of running) {
    // A lane done in an earlier execution is not run again.
    if (r.from.stages.length === 0) continue;
    const steps = refreshSteps(r.lane.deps, engineCursor(r.from), shouldStop);
    r.steps = steps;
    advance(r, () => steps.next());
  }
  const waiting = () => running.filter((r) => r.steps && r.next && !r.next.done);
  for (let live = waiting(); live.length > 0; live = waiting()) {
    const started: { r: Running; reads: StartedReads }[] = [];
    for (const r of live) {
      const steps = r.steps as Steps<EngineResult>;
      try {
        const asked = (r.next as IteratorYieldResult<StepReads>).value;
        started.push({ r, reads: r.lane.deps.reader.start(asked.reads) });
      } catch (err) {
        advance(r, () => steps.throw(err));
      }
    }
    send(started.map((s) => s.reads.round));
    for (const { r, reads } of started) {
      const steps = r.steps as Steps<EngineResult>;
      let results: ReturnType<StartedReads["results"]>;
      try {
        results = reads.results();
      } catch (err) {
        advance(r, () => steps.throw(err));
        continue;
      }
      advance(r, () => steps.next(results));
    }
  }
  return lanesResult(cursor.kind, running);
}

function lanesResult(kind: RefreshKind, running: readonly Running[]): LanesResult {
  const lanes: Record<string, LaneCursor> = {};
  let finished = true;
  for (const r of running) {
    const result = r.outcome.result;
    if (r.outcome.error !== undefined || !r.steps) {
      // Failed: it goes on from where this execution found it; done earlier: stays done.
      lanes[r.lane.key] = r.from;
    } else if (result?.finished || !result?.cursor) {
      lanes[r.lane.key] = { v: 1, stages: [], entry: r.lane.entry };
    } else {
      finished = false;
      const next = result.cursor;
      const fundsAtStart =
        r.from.fundsAtStart ||
        (next.stages[0] === "transactions" ? (next.pendingFundIds?.length ?? 0) : 0) ||
        undefined;
      lanes[r.lane.key] = { ...next, entry: r.lane.entry, ...(fundsAtStart ? { fundsAtStart } : {}) };
    }
  }
  const ran = running.filter((r) => r.outcome.result);
  const sum = (of: (e: EngineResult) => number) =>
    ran.reduce((total, r) => total + of(r.outcome.result as EngineResult), 0);
  const refreshed = (["funds", "transactions", "reports"] as const).filter(
    (stage) => ran.length > 0 && ran.every((r) => r.outcome.result?.refreshed.includes(stage)),
  );
  return {
    finished,
    cursor: finished ? null : { v: 2, kind, lanes },
    lanes: running.map((r) => r.outcome),
    records: sum((e) => e.records),
    refreshed,
    requests: sum((e) => e.requests),
  };
}

/**
 * The sheets as one company's lane writes them. Without company columns (a one-company
 * spreadsheet), the first company's as they are. With them, the rows of this company only:
 * Company and Company key after the first column, keys "K|…", covers and anchors within K, old
 * rows of a layout without the columns labelled the first company's.
 */
export function laneSheets(
  sheets: RefreshSheets,
  company: CompanyLabel,
  several: boolean,
  companies: readonly SheetCompany[],
): RefreshSheets {
  const withColumns = (target: Parameters<RefreshSheets["apply"]>[0]) =>
    showsCompanies(several, sheets.layout?.(target) ?? []);
  return {
    apply(target, update) {
      if (!withColumns(target)) {
        if (company.key !== FIRST_COMPANY_KEY)
          throw new Error(`The ${target} sheet has no company columns: only ${FIRST_COMPANY_KEY} writes it.`);
        return sheets.apply(target, update);
      }
      const first = update.columnsFor([])[0]?.key ?? "id";
      return sheets.apply(target, {
        ...update,
        columnsFor: (previousKeys) => withCompany(update.columnsFor(previousKeys), company),
        keyOf: (record) => companyRowKey(company.key, update.keyOf(record)),
        keyColumns: [COMPANY_KEY_COLUMN, first],
        legacyParts: legacyPartsOf(companies),
        covers: companyCovers(company.key, true, update.covers),
        anchorOf: companyAnchor(company.key, true, update.anchorOf),
      });
    },
    isEmpty: (target) => sheets.isEmpty(target, company.key),
    layout: sheets.layout,
  };
}

/** Document properties a lane keeps of its own: the first company under today's names. */
const LANE_KEPT = [FINGERPRINT_KEY, EMPLOYEE_NAMES_KEY];

/**
 * A lane's view of a store: the first company's is the store itself (today's keys); another's
 * keeps fingerprints and employees' names under `<name>.<key>` (`<name>.<key>.<chunk>`).
 */
export function laneStore(store: TextStore, key: string): TextStore {
  if (key === FIRST_COMPANY_KEY) return store;
  const name = (property: string) => {
    const kept = LANE_KEPT.find((k) => property === k || property.startsWith(`${k}.`));
    return kept ? `${kept}.${key}${property.slice(kept.length)}` : property;
  };
  return {
    getProperty: (property) => store.getProperty(name(property)),
    setProperty: (property, value) => store.setProperty(name(property), value),
    deleteProperty: (property) => store.deleteProperty(name(property)),
  };
}
