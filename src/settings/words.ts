/**
 * The settings' one words module: what the settings core returns as data (an issue's words, a
 * token's or a company's status, the filters a refresh applied) said in the user's language.
 * The model, the store and the companies' rules take no language; the surfaces that show their
 * outcomes (the settings sidebar, the runs' notices) say them through here.
 */
import { hostOf } from "../api/urls";
import { type Language, translate } from "../i18n";
import { say, type Words } from "../i18n/words";
import { SETTING_LABELS, type SettingName, type SettingsIssue, shownDefaultText, tokenWords } from "./model";

/** A setting's label in the settings form. */
export function settingLabel(name: SettingName, language: Language): string {
  return translate(language, SETTING_LABELS[name]);
}

/** How a message names a company: its name, or its host while it has none. */
export function companyLabel(entry: { name: string; apiUrl: string }, language: Language): string {
  return entry.name || translate(language, "company.unnamed", { host: hostOf(entry.apiUrl) });
}

/** Any settings outcome's words in `language`. */
export function settingsWords(words: Words, language: Language): string {
  return say(language, words);
}

/** An issue in `language`, its field named as the issue names it. */
export function settingsIssueText(found: Pick<SettingsIssue, "words">, language: Language): string {
  return say(language, found.words);
}

/** Issues as a form shows them: each field with its message in `language`. */
export function fieldProblems(
  issues: readonly SettingsIssue[],
  language: Language,
): { field: string; message: string }[] {
  return issues.map((found) => ({ field: found.field, message: say(language, found.words) }));
}

/** A company's token status (data) as Settings shows it: its words said in `language`. */
export function statusInWords<S extends { words: Words }>(
  status: S,
  language: Language,
): Omit<S, "words"> & { message: string } {
  const { words, ...rest } = status;
  return { ...rest, message: say(language, words) };
}

/** Why a token was refused (`checkToken`'s issue's `params.reason`), in `language`. */
export function tokenIssueText(reason: string, language: Language): string {
  return say(language, tokenWords(reason));
}

/**
 * The filters a refresh applied in a person's words: each by its setting's label ("Currency =
 * CLP"), leaving out those at what an empty setting means (the send date, the contract's
 * order); "" when none. A filter's setting is named after its request parameter.
 */
export function appliedFilters(
  settings: { reportFilters: object; fundFilters: object },
  language: Language,
): string {
  const shown = shownDefaultText();
  const out: string[] = [];
  for (const [prefix, filters] of [
    ["report", settings.reportFilters],
    ["fund", settings.fundFilters],
  ] as const) {
    for (const [param, value] of Object.entries(filters)) {
      const name = `${prefix}${param === "ExpensePolicyId" ? "PolicyId" : param}` as SettingName;
      if (!(name in SETTING_LABELS) || value == null || value === "" || String(value) === shown[name])
        continue;
      const text =
        name === "reportTypeDateFilter"
          ? translate(language, `settings.reports.typeDateFilter.${value === 1 ? "close" : "send"}`)
          : String(value);
      out.push(`${settingLabel(name, language)} = ${text}`);
    }
  }
  return out.join(", ");
}
