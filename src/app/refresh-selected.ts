/**
 * Menu: Refresh selected rows. Only the funds or expense reports of the selected rows, read
 * again, within a quota check of about one call per row.
 */

import { selectedRecords } from "../gas/spreadsheet";
import { keepSummaryCurrent } from "../gas/summary-sheet";
import { type Language, translate } from "../i18n";
import { refreshSelection } from "../refresh/engine";
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
    const selection = selectedRecords(built.context.names);
    if (!selection)
      return summary(false, true, 0, 0, started, [], translate(language, "refresh.selection.none"));
    if (selection.ids.length === 0) {
      return summary(false, true, 0, 0, started, [], translate(language, "refresh.selection.noIds"));
    }
    // About one call per selected record (plus the pages of a list): checked like a refresh.
    const refused = quotaRefusal(
      smallQuotaCheck(selection.ids.length + 1),
      language,
      translate(language, "refresh.title"),
      source,
    );
    if (refused) return summary(false, true, 0, 0, started, [], refused);
    const result = refreshSelection(built.deps, selection);
    keepSummaryCurrent(built, result.refreshed, translate(language, "menu.refreshSelected"), source);
    const calls = built.audit.requests();
    const message = translate(language, "refresh.summary", {
      records: result.records,
      calls,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    });
    toast(message, translate(language, "refresh.title"), 10);
    return summary(true, true, result.records, calls, started, result.refreshed, message);
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
