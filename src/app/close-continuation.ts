/**
 * The month-end close's marking continued past the time limit: where it stopped (the approved
 * journal's digest, the reports still to go, what was settled so far), kept in document
 * properties with the refresh's continuation store (`longrun/continuation.ts`) under a key of its
 * own; this user's mark on the position they stored (only they go on with it, with their token);
 * the one-off clock trigger that goes on when no sidebar does; and the last marking's outcome,
 * shown when the sidebar opens and in a notice on opening the spreadsheet.
 */
import type { MarkOutcome } from "../close/types";
import { createCloseFollowUp, deleteMyCloseFollowUps, myCloseFollowUps } from "../gas/close-trigger";
import { runtime } from "../gas/runtime";
import { type Language, translate } from "../i18n";
import {
  type Continuation,
  clearContinuation,
  loadContinuation,
  type PropertyStore,
  saveContinuation,
} from "../longrun/continuation";
import { parseJson } from "./close";
import { currentLanguage, tolerate } from "./entry";
import { myPosition } from "./refresh-session";
import { currentUser } from "./schedule-state";

/** Document property: the marking's position (chunks under `close.continuation.<generation>.<n>`). */
export const CLOSE_CONTINUATION_KEY = "close.continuation";
/** Document property: the last marking's outcome, until the next marking starts. */
export const CLOSE_LAST_MARKING_KEY = "close.lastMarking";
/** Document property: a stop asked while a piece of the marking was running (its chain id). */
export const CLOSE_STOP_KEY = "close.stopMarking";
/** User property prefix (the spreadsheet's id follows): this user's mark on the position they stored. */
const MINE_KEY = "close.continuationMine.";

/** Where the marking stopped: what the next execution goes on from. */
export interface CloseCursor {
  /** Reports of the approved journal, and how many of them are done so far. */
  total: number;
  done: number;
  /** The first execution's integration date, kept for every report of the marking. */
  integrationDate: string;
  /** The reports still to go, `<company>:<report id>`, in the journal's order. */
  remaining: string[];
  /** What was settled otherwise so far (another code, refused), named at the end. */
  notes: MarkOutcome[];
  /** When the follow-up trigger fires; null when none could be made (the sidebar goes on). */
  triggerAt: number | null;
}

export type CloseChain = Continuation<CloseCursor>;

/** The last marking's outcome, as the sidebar and the notice show it. */
export interface LastMarking {
  at: number;
  by: string;
  ok: boolean;
  message: string;
  /** Seen in the sidebar: the notice on opening is not shown again. */
  seen: boolean;
}

export const markKeyOf = (m: { company: string; reportId: number }) => `${m.company}:${m.reportId}`;

function store(): PropertyStore {
  return runtime().documentProperties();
}

const mine = () => myPosition(MINE_KEY);

/** The stored position, when there is one and it reads whole. */
export function loadChain(): CloseChain | null {
  return loadContinuation<CloseCursor>(store(), CLOSE_CONTINUATION_KEY);
}

/** Whether `chain` is this user's own: named theirs, and the very text they stored. */
export function isMyChain(chain: CloseChain): boolean {
  return chain.ownerKey === currentUser().key && mine().is(JSON.stringify(chain));
}

/** Stores `chain` as this user's position, and their mark on it. */
export function saveChain(chain: CloseChain): void {
  saveContinuation(store(), chain, runtime().uuid(), CLOSE_CONTINUATION_KEY);
  mine().keep(JSON.stringify(chain));
}

/** Forgets the position, and this user's follow-up trigger. */
export function clearChain(): void {
  clearContinuation(store(), CLOSE_CONTINUATION_KEY);
  store().deleteProperty(CLOSE_STOP_KEY);
  tolerate("tried again later", () => deleteMyCloseFollowUps(runtime().spreadsheet()), 0);
}

/**
 * This user's follow-up execution, an hour ahead (the least an add-on's clock trigger allows):
 * when it fires, when one was made; null when Google refused it (the user's one clock trigger
 * in this document is their refresh schedule's, or they hold 20).
 */
export function arrangeFollowUp(): number | null {
  return tolerate(
    "tried again later",
    () => {
      createCloseFollowUp(runtime().spreadsheet());
      return Date.now() + 60 * 60 * 1000;
    },
    null,
  );
}

/** Whether this user still holds a follow-up trigger in this document. */
export function holdsFollowUp(): boolean {
  return tolerate("shown only", () => myCloseFollowUps(runtime().spreadsheet()).length > 0, false);
}

function readStop(): { chainId: string; by: string } | null {
  const value = parseJson(store().getProperty(CLOSE_STOP_KEY)) as { chainId?: unknown; by?: unknown } | null;
  return value && typeof value.chainId === "string" && typeof value.by === "string"
    ? { chainId: value.chainId, by: value.by }
    : null;
}

/** Whether a stop was asked for `chain` while a piece of it was running. */
export function stopAsked(chain: CloseChain): boolean {
  return readStop()?.chainId === chain.chainId;
}

/** Who asked the stop ("" when nobody did). */
export function stopperOf(): string {
  return readStop()?.by ?? "";
}

/** Asks the piece running now to stop when it ends, in the name of this user. */
export function askStop(chain: CloseChain): void {
  store().setProperty(CLOSE_STOP_KEY, JSON.stringify({ chainId: chain.chainId, by: currentUser().label }));
}

export function readLastMarking(): LastMarking | null {
  const value = parseJson(store().getProperty(CLOSE_LAST_MARKING_KEY)) as LastMarking | null;
  return value && typeof value.message === "string" && typeof value.at === "number" ? value : null;
}

/**
 * Keeps the marking's outcome. `seen` when a sidebar showed it as it ended; one a trigger's
 * execution ended is shown in a notice on opening the spreadsheet until a sidebar shows it.
 */
export function saveLastMarking(ok: boolean, message: string, seen: boolean): void {
  const last: LastMarking = { at: Date.now(), by: currentUser().label, ok, message, seen };
  store().setProperty(CLOSE_LAST_MARKING_KEY, JSON.stringify(last));
}

export function forgetLastMarking(): void {
  store().deleteProperty(CLOSE_LAST_MARKING_KEY);
}

/** The last marking's outcome marked as seen (the sidebar showed it). */
export function lastMarkingSeen(last: LastMarking): void {
  if (!last.seen) store().setProperty(CLOSE_LAST_MARKING_KEY, JSON.stringify({ ...last, seen: true }));
}

/** A time in the spreadsheet's zone, for messages. */
export function timeText(ms: number, format = "HH:mm"): string {
  const zone = runtime().spreadsheet().getSpreadsheetTimeZone();
  return runtime().formatDate(new Date(ms), zone, format);
}

/** "N of M marked, continuing automatically", and how it goes on. */
export function progressText(chain: CloseChain, language: Language, own: boolean): string {
  const { done, total: count, triggerAt } = chain.cursor;
  const first = own
    ? translate(language, "close.continue.progress", { done, count })
    : translate(language, "close.continue.progressOther", { done, count, who: chain.ownerLabel });
  if (!own) return first;
  const how =
    triggerAt !== null && holdsFollowUp()
      ? translate(language, "close.continue.next", { time: timeText(triggerAt) })
      : translate(language, "close.continue.noTrigger");
  return `${first} ${how}`;
}

/**
 * On opening the spreadsheet: the last marking's outcome not yet seen in the sidebar pops up in
 * the corner, as a failed scheduled refresh does. Read-only, and never in the way of the menu.
 */
export function toastCloseOutcome(): void {
  tolerate(
    "shown only",
    () => {
      const last = readLastMarking();
      if (!last || last.seen) return;
      const language = currentLanguage();
      runtime().spreadsheet().toast(last.message, translate(language, "close.continue.noticeTitle"), 15);
    },
    undefined,
  );
}
