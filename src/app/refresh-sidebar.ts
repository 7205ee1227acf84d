/**
 * The Refresh sidebar: opening it, what it draws (how fresh each sheet is, a paused refresh it
 * can continue), and its buttons, which run the same refreshes as the menu.
 */

import { runtime } from "../gas/runtime";
import { refreshStamps, refreshStampsByCompany } from "../gas/spreadsheet";
import { type Language, translate } from "../i18n";
import type { CompanyFreshness } from "../refresh/company-freshness";
import type { RefreshKind } from "../refresh/engine";
import { loadText } from "../refresh/stored-text";
import { companyFreshness, sheetNamesIn } from "../refresh/words";
import { whoText } from "../sheets/headers";
import { currentLanguage, entry, settingsStore, tolerate } from "./entry";
import { runRefreshNow } from "./refresh";
import { runSelectedRowsRefresh } from "./refresh-selected";
import {
  ACTION_OF,
  MENU_CURSOR_KEY,
  myPosition,
  openRefreshSidebar,
  PAUSED_BY_ME_KEY,
  parseStoredCursor,
  type RefreshSummary,
} from "./refresh-session";

/** Menu: Refresh… (the refresh sidebar). */
export function showRefreshSidebar(): void {
  entry("menu", () => openRefreshSidebar(currentLanguage()));
}

/** A paused refresh is picked up by a sidebar opened this soon after it stopped (the menu opens it). */
const AUTO_CONTINUE_MS = 2 * 60_000;

export interface RefreshSidebarView {
  language: Language;
  /** How fresh each data sheet is: "Funds: refreshed … by …", one line each refreshed so far. */
  fresh: string[];
  /** A refresh started by hand that stopped near the time limit and can go on. */
  paused: {
    kind: RefreshKind;
    action: string;
    percent: number;
    /** It stopped moments ago (the menu opened this sidebar to continue it): go on at once. */
    continueNow: boolean;
  } | null;
  /**
   * With several companies: each one's last refresh and whether this user can refresh it
   * (`fresh` above is then the first company's too). Absent with one company: its view is as
   * it always was.
   */
  companies?: CompanyFreshness[];
}

/** What the refresh sidebar needs to draw itself, and a paused refresh it can continue. */
export function getRefreshSidebarView(): RefreshSidebarView {
  return entry("sidebar", refreshSidebarView);
}

function refreshSidebarView(): RefreshSidebarView {
  const language = currentLanguage();
  const text = tolerate("unreadable", () => loadText(runtime().documentProperties(), MENU_CURSOR_KEY), null);
  const stored = parseStoredCursor(text);
  const paused: RefreshSidebarView["paused"] = stored && {
    kind: stored.kind,
    action: translate(language, ACTION_OF[stored.kind]),
    percent: stored.percent,
    continueNow:
      Date.now() - stored.pausedAt < AUTO_CONTINUE_MS && myPosition(PAUSED_BY_ME_KEY).is(text as string),
  };
  const store = settingsStore();
  const names = sheetNamesIn(store.fields(), language);
  const stamps = refreshStamps();
  const fresh = (["funds", "transactions", "reports"] as const).flatMap((stage) => {
    const stamp = stamps[stage];
    return stamp
      ? [
          translate(language, "refresh.sidebar.fresh", {
            sheet: names[stage],
            ...stamp,
            who: whoText(stamp.who, language),
          }),
        ]
      : [];
  });
  const companies = severalCompanies(store, names, language);
  return companies ? { language, fresh, paused, companies } : { language, fresh, paused };
}

/** Each company's freshness and status for this user, when the document lists several. */
function severalCompanies(
  store: ReturnType<typeof settingsStore>,
  names: ReturnType<typeof sheetNamesIn>,
  language: Language,
): CompanyFreshness[] | null {
  return tolerate(
    "unreadable",
    () => {
      if (!store.companies().several) return null;
      const statuses = store.companyStatuses();
      return companyFreshness(statuses, refreshStampsByCompany(statuses.map((s) => s.key)), names, language);
    },
    null,
  );
}

const KINDS: readonly string[] = ["funds", "transactions", "reports", "all", "selected"];

/**
 * For sidebars (google.script.run): refreshes `kind` ("funds", "transactions", "reports",
 * "all" or "selected") and returns the summary. The argument is checked: anyone who can open
 * a sidebar can call this with anything.
 */
export function refreshFromSidebar(kind: unknown): RefreshSummary {
  return entry("sidebar", () => refreshKind(kind));
}

function refreshKind(kind: unknown): RefreshSummary {
  if (typeof kind !== "string" || !KINDS.includes(kind)) {
    throw new Error(`kind: must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
  }
  return kind === "selected"
    ? runSelectedRowsRefresh("sidebar")
    : runRefreshNow(kind as RefreshKind, "sidebar");
}
