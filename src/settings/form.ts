/**
 * The settings form over the settings model (src/settings/): what the form shows for stored
 * settings, and the check of what it sends, its issues naming each field by its label (said in
 * the user's words by ./words.ts). The form shows an empty setting's default in the document's
 * language (the sheets' default names): that language is the sheets', not a message's.
 * The keys, defaults and rules are the model's; this only shapes them for the form.
 */
import type { Language } from "../i18n";
import {
  defaultSettingsText,
  SETTING_NAMES,
  type SettingName,
  type SettingsIssue,
  type SettingsText,
  settingsFromText,
  settingsInputIssues,
  settingsTextFrom,
  shownDefaultText,
} from "./model";
import { sheetNamesFor } from "./sheet-names";
import { checkToken as checkStoredToken } from "./store";
import type { SettingsForm } from "./view";

/** What an empty setting means, as the form shows it (model.ts), the sheets named in `language`. */
export function shownDefaults(language: Language): SettingsText {
  const text = shownDefaultText();
  const names = sheetNamesFor(
    { sheetNames: { funds: "", transactions: "", reports: "", audit: "", outbox: "" } },
    language,
  );
  text.sheetFunds = names.funds;
  text.sheetTransactions = names.transactions;
  text.sheetReports = names.reports;
  text.sheetAudit = names.audit;
  text.sheetOutbox = names.outbox;
  text.language = language;
  return text;
}

/** Stored text as the form shows it: each empty setting shows what it means (shownDefaults). */
export function shownSettingsText(text: SettingsText, language: Language): SettingsText {
  const shown = shownDefaults(language);
  const out = { ...text };
  for (const name of SETTING_NAMES) if (out[name] === "") out[name] = shown[name];
  return out;
}

/** The form as a new document shows it, in `language`. */
export function defaultSettingsForm(language: Language): SettingsForm {
  return shownSettingsText(defaultSettingsText(), language);
}

/** Stored settings (any JSON) as the form shows them: every empty setting shows its default. */
export function storedSettingsForm(stored: unknown, language: Language): SettingsForm {
  return shownSettingsText(settingsTextFrom(stored), language);
}

/**
 * Checks `input` (untrusted) over `stored` and returns the text to store, or the issues
 * found, each naming its field by its label. Text is trimmed and normalised as the model does
 * (upper-case currency, URL without a trailing slash).
 */
export function checkSettingsForm(
  input: unknown,
  stored: SettingsText = defaultSettingsText(),
): { ok: true; form: SettingsForm } | { ok: false; issues: SettingsIssue[] } {
  const shape = settingsInputIssues(input, { labels: true });
  const checked = settingsFromText(settingsTextFrom(input, stored), { labels: true });
  const issues = [...shape, ...(checked.ok ? [] : checked.issues)];
  if (issues.length > 0 || !checked.ok) return { ok: false, issues };
  const form = {} as SettingsForm;
  for (const name of SETTING_NAMES) form[name as SettingName] = checked.text[name];
  return { ok: true, form };
}

/** Checks a token typed in the form with the store's own rule. */
export function checkToken(
  token: unknown,
): { ok: true; token: string } | { ok: false; issue: SettingsIssue } {
  const checked = checkStoredToken(token);
  if (!checked.ok) return { ok: false, issue: checked.issues[0] as SettingsIssue };
  return { ok: true, token: (token as string).trim() };
}
