/**
 * What a refresh needs from the settings: page size, report window and filters, fund filters,
 * sheet names, and what to do with rows whose record is gone. The settings are read
 * and checked by the settings model (src/settings/: keys, defaults, rules and messages); this
 * turns them into the refresh's options. A setting that is set but wrong is an error naming the
 * field and the rule.
 */

import { type Language, translate } from "../i18n";
import { say } from "../i18n/words";
import {
  MAX_PAGE_SIZE,
  reportWindowDates,
  type SettingsIssue,
  settingsFromText,
  settingsTextFrom,
  sheetNameIssues,
} from "../settings/model";
import { auditArchiveName, sheetNamesFor } from "../settings/sheet-names";
import { fetchBatchSize, SettingsError } from "../settings/tuning";
import type { RefreshOptions } from "./engine";

export interface SheetNames {
  funds: string;
  transactions: string;
  reports: string;
  audit: string;
  auditArchive: string;
  outbox: string;
  /** The report files' sheet (no setting): beside the reports sheet's name. */
  files: string;
}

export { SettingsError };

type Form = Partial<Record<string, string | undefined>>;

/**
 * Settings a refresh cannot run with: the first issue's field, the message the issues in English
 * (./words.ts, `refreshOptionsIn` and `sheetNamesIn`, says them in the user's words).
 */
export class RefreshSettingsError extends SettingsError {
  constructor(readonly issues: readonly SettingsIssue[]) {
    super((issues[0] as { field: string }).field, issues.map((i) => say("en", i.words)).join(" "));
  }
}

/**
 * The refresh's options from the stored settings; `today` is YYYY-MM-DD in the document's zone.
 * Throws RefreshSettingsError when a setting is set but wrong.
 */
export function refreshOptionsFrom(form: Form, today: string): RefreshOptions {
  const checked = settingsFromText(settingsTextFrom(form));
  if (!checked.ok) throw new RefreshSettingsError(checked.issues);
  const { settings } = checked;
  // An empty page size: the largest the service accepts, found once (./page-size.ts).
  const findPageSize = (form.pageSize ?? "").trim() === "";
  return {
    pageSize: settings.pageSize,
    ...(findPageSize ? { pageSizeProbe: { ask: MAX_PAGE_SIZE, serviceUrl: settings.baseUrl } } : {}),
    batchSize: fetchBatchSize(form),
    fundFilters: { ...settings.fundFilters },
    reportWindow: reportWindowDates(settings.reportWindow, today),
    reportFilters: { ...settings.reportFilters },
    missingRows: settings.missingRows,
  };
}

/**
 * The sheets' names: the settings' when set, else the defaults in the sheets' layout language.
 * Throws a RefreshSettingsError (the issues as data) when two of the add-on's sheets would share
 * a name (a value stored before that was refused): nothing then writes into another sheet's rows.
 */
export function sheetNamesFrom(form: Form, language: Language): SheetNames {
  // As stored even when another setting is wrong: the sheets must still be found.
  const text = settingsTextFrom(form);
  const clash = sheetNameIssues(text, { labels: true });
  if (clash.length > 0) {
    throw new RefreshSettingsError(clash);
  }
  const names = sheetNamesFor(
    {
      sheetNames: {
        funds: text.sheetFunds,
        transactions: text.sheetTransactions,
        reports: text.sheetReports,
        audit: text.sheetAudit,
        outbox: text.sheetOutbox,
      },
    },
    language,
  );
  return {
    funds: names.funds,
    transactions: names.transactions,
    reports: names.reports,
    audit: names.audit,
    outbox: names.outbox,
    auditArchive: auditArchiveName(names.audit, language),
    files:
      names.reports === translate(language, "sheet.reports")
        ? translate(language, "sheet.files")
        : `${names.reports} (files)`,
  };
}

/** A short text that changes whenever a setting that shapes the refresh changes. */
export function optionsFingerprint(options: RefreshOptions, names: SheetNames): string {
  return JSON.stringify([
    options.pageSize,
    options.fundFilters,
    options.reportWindow,
    options.reportFilters,
    options.missingRows,
    names.funds,
    names.transactions,
    names.reports,
  ]);
}
