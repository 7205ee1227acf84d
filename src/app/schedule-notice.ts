/**
 * On opening the spreadsheet: the notice of a failed or stalled scheduled run, as a menu item
 * and, for a failure, a toast. Read-only, and never in the way of the menu.
 */

import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { readHistory, settleAbandonedRuns } from "../schedule/history";
import { currentNotice, type Notice } from "../schedule/notices";
import { currentLanguage, tolerate } from "./entry";
import type { MenuItem } from "./menu";
import { documentStore, NOTICE_DISMISSED_KEY, readState } from "./schedule-state";

/** The notice of the document, if any (read-only: safe in onOpen's LIMITED mode). */
export function currentScheduleNotice(): Notice | null {
  const props = documentStore().getProperties();
  const now = Date.now();
  const view = readHistory(props);
  const settled = new Map(settleAbandonedRuns(view.runs, now).map((r) => [r.id, r]));
  const runs = view.runs.map((r) => settled.get(r.id) ?? r);
  return currentNotice(runs, readState(), now, props[NOTICE_DISMISSED_KEY] ?? null);
}

/**
 * Menu items that carry the schedule's notice, for onOpen outside AuthMode.NONE. Any error
 * reading the document leaves the menu as it is: the menu must always appear.
 */
export function scheduleNoticeMenuItems(): MenuItem[] {
  return tolerate("shown only", (): MenuItem[] => {
    const notice = currentScheduleNotice();
    if (!notice) return [];
    const label = notice.kind === "failed" ? "menu.notice.failed" : "menu.notice.stalled";
    return [{ label, functionName: "showSettingsSidebar" }];
  }, []);
}

/**
 * On opening the spreadsheet (outside AuthMode.NONE): a failed scheduled run also pops up in
 * the corner, besides its menu item, so that nobody works on stale data without knowing it.
 */
export function toastScheduleNotice(): void {
  tolerate(
    "shown only",
    () => {
      if (currentScheduleNotice()?.kind !== "failed") return;
      const language = currentLanguage();
      runtime()
        .spreadsheet()
        .toast(translate(language, "notice.toast.failed"), translate(language, "menu.notice.failed"), 15);
    },
    undefined,
  );
}
