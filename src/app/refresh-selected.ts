/**
 * Menu: Refresh selected rows. Only the funds or expense reports of the selected rows, read
 * again, within a quota check of about one call per row.
 */

import { selectedRecords } from "../gas/spreadsheet";
import { keepSummaryCurrent } from "../gas/summary-sheet";
import { type Language, translate } from "../i18n";
import { say } from "../i18n/words";
import { OtherAccount, refreshSelection, type Stage } from "../refresh/engine";
import { companyRefusalText } from "../sheets/words";
import { currentLanguage, entry, withDocumentLock } from "./entry";
import { smallQuotaCheck } from "./quota";
import {
  busy,
  endRefresh,
  failedRefresh,
  fromMenu,
  quotaRefusal,
  type RefreshSource,
  type RefreshSummary,
  session,
  summary,
  toast,
} from "./refresh-session";

/** Refreshes only the funds or reports of the selected rows. Never throws. */
export function runSelectedRowsRefresh(source: RefreshSource): RefreshSummary {
  const started = Date.now();
  return withDocumentLock(
    "refresh",
    10_000,
    (lock) => busy(started, lock),
    () => selectedRowsUnderLock(source, started),
  );
}

function selectedRowsUnderLock(source: RefreshSource, started: number): RefreshSummary {
  // The document's language, so that a failure before the session (no token) speaks it too.
  let language: Language = currentLanguage();
  let built: ReturnType<typeof session> | null = null;
  try {
    built = session(source, "menu.refreshSelected");
    language = built.context.language;
    const selection = selectedRecords(built.context.names, built.companies);
    if (!selection)
      return summary(false, true, 0, 0, started, [], translate(language, "refresh.selection.none"));
    // Rows whose company cannot be told (key and name disagree, unknown, removed): refused.
    const refusals = selection.refused.map((r) => companyRefusalText(r, language));
    if (selection.ids.length === 0) {
      const none = translate(language, "refresh.selection.noIds");
      return summary(false, true, 0, 0, started, [], [none, ...refusals].join("\n"));
    }
    // About one call per selected record (plus the pages of a list): checked like a refresh.
    const refused = quotaRefusal(
      smallQuotaCheck(selection.ids.length + 1),
      language,
      translate(language, "refresh.title"),
      source,
    );
    if (refused) return summary(false, true, 0, 0, started, [], refused);
    // Each company's rows read with that company's client only; one without a usable token for
    // this user is named and its rows left as they are.
    let records = 0;
    let refreshed: Stage[] = [];
    const notes: string[] = [...refusals];
    let failed = false;
    const lanes = built.lanes;
    for (const group of selection.groups) {
      const lane = lanes.find((l) => l.key === group.key);
      if (!lane) {
        const unusable = built.unusable.find((u) => u.key === group.key);
        notes.push(
          translate(language, "refresh.lane.skipped", {
            company: unusable?.name || group.key,
            message: unusable?.message ?? translate(language, "refresh.noToken"),
          }),
        );
        continue;
      }
      // Read with another account than the company's mark (checked first, with the first
      // batch): nothing of it is written.
      try {
        const result = refreshSelection(lane.deps, { target: selection.target, ids: group.ids });
        records += result.records;
        refreshed = result.refreshed;
      } catch (err) {
        if (!(err instanceof OtherAccount)) throw err;
        failed = true;
        notes.push(
          translate(language, "refresh.lane.failed", {
            company: err.company,
            message: say(language, err.words),
          }),
        );
      }
    }
    keepSummaryCurrent(built, refreshed, translate(language, "menu.refreshSelected"), source);
    const calls = built.audit.requests();
    const message = translate(language, "refresh.summary", {
      records,
      calls,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    });
    const told = [message, ...notes].join("\n");
    toast(told, translate(language, "refresh.title"), notes.length === 0 ? 10 : 30);
    return summary(refusals.length === 0 && !failed, true, records, calls, started, refreshed, told);
  } catch (err) {
    return failedRefresh(err, source, language, built, started);
  } finally {
    endRefresh(built);
  }
}

/** Menu: Refresh selected rows. */
export function refreshSelectedRows(): void {
  entry("menu", () => fromMenu(() => runSelectedRowsRefresh("menu")));
}
