/**
 * The refresh's words module: what the refresh core returns as data (a company's status and
 * stamps, a paused run's figures, another account's answers, settings a refresh cannot run
 * with) said in the user's language. The refresh core takes no language but the sheets' layout
 * language (the sheets' default names, ./options.ts `sheetNamesFrom`, said with a clash of
 * names in the user's words by `sheetNamesIn`).
 */
import { type Language, type StringKey, translate } from "../i18n";
import { say } from "../i18n/words";
import type { CompanyUsability } from "../settings/bindings";
import { settingsIssueText } from "../settings/words";
import { whoText } from "../sheets/headers";
import { type CompanyFreshness, refreshStatusOf, STAGES } from "./company-freshness";
import type { RefreshOptions } from "./engine";
import {
  RefreshSettingsError,
  refreshOptionsFrom,
  SettingsError,
  type SheetNames,
  sheetNamesFrom,
} from "./options";
import type { PausedRefresh } from "./paused";
import { OtherAccount } from "./run/account";

/** The refresh's options from the stored settings, a wrong setting's message in `language`. */
export function refreshOptionsIn(
  form: Partial<Record<string, string | undefined>>,
  today: string,
  language: Language,
): RefreshOptions {
  return settingsSaid(language, () => refreshOptionsFrom(form, today));
}

/**
 * The sheets' names (./options.ts `sheetNamesFrom`: the defaults in `language`), two sheets
 * sharing a name refused in `language`.
 */
export function sheetNamesIn(
  form: Partial<Record<string, string | undefined>>,
  language: Language,
): SheetNames {
  return settingsSaid(language, () => sheetNamesFrom(form, language));
}

/** `read`'s value; settings a refresh cannot run with (RefreshSettingsError) thrown in `language`. */
function settingsSaid<T>(language: Language, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof RefreshSettingsError)) throw err;
    throw new SettingsError(err.field, err.issues.map((i) => settingsIssueText(i, language)).join(" "));
  }
}

/** A refresh's failure with another account's answers said in `language`; any other as it is. */
export function otherAccountInWords(err: unknown, language: Language): unknown {
  return err instanceof OtherAccount
    ? new OtherAccount(err.company, err.fund, say(language, err.words))
    : err;
}

/** Each listed company (removed ones left out), in the list's order. */
export function companyFreshness(
  companies: readonly { key: string; name: string; status: CompanyUsability; removed: boolean }[],
  stamps: Readonly<Record<string, Partial<Record<(typeof STAGES)[number], { when: string; who: string }>>>>,
  names: Pick<SheetNames, (typeof STAGES)[number]>,
  language: Language,
): CompanyFreshness[] {
  return companies
    .filter((company) => !company.removed)
    .map((company) => {
      const status = refreshStatusOf(company.status);
      const own = stamps[company.key] ?? {};
      const fresh = STAGES.flatMap((stage) => {
        const stamp = own[stage];
        return stamp
          ? [
              translate(language, "refresh.sidebar.fresh", {
                sheet: names[stage],
                when: stamp.when,
                who: whoText(stamp.who, language),
              }),
            ]
          : [];
      });
      return {
        key: company.key,
        name: company.name || company.key,
        status,
        statusText: translate(language, `refresh.company.${status}`),
        fresh: fresh.length > 0 ? fresh : [translate(language, "refresh.company.never")],
      };
    });
}
export function pausedRefreshMessage(language: Language, paused: PausedRefresh): string {
  const sheets =
    paused.refreshed.length > 0
      ? paused.refreshed.map((stage) => translate(language, `refresh.stage.${stage}` as StringKey)).join(", ")
      : translate(language, "refresh.pausedSheetsNone");
  const text = translate(language, "refresh.pausedDetail", {
    calls: paused.calls,
    records: paused.records,
    sheets,
    action: paused.action,
  });
  return paused.scheduled ? text + translate(language, "refresh.pausedSchedule") : text;
}
