/**
 * The settings form over the settings model (src/settings/): what the form shows for stored
 * settings, and the check of what it sends, with messages that name each field by its label.
 * The keys, defaults, rules and messages are the model's; this only shapes them for the form.
 */
import type { Language } from "../i18n";
import {
  defaultSettingsText,
  SETTING_NAMES,
  type SettingName,
  type SettingsText,
  settingsFromText,
  settingsInputIssues,
  settingsTextFrom,
  shownSettingsText,
} from "./model";
import { checkToken as checkStoredToken } from "./store";
import type { FieldProblem, SettingsForm } from "./view";

/** The form as a new document shows it, in `language`. */
export function defaultSettingsForm(language: Language): SettingsForm {
  return shownSettingsText(defaultSettingsText(), language);
}

/** Stored settings (any JSON) as the form shows them: every empty setting shows its default. */
export function storedSettingsForm(stored: unknown, language: Language): SettingsForm {
  return shownSettingsText(settingsTextFrom(stored), language);
}

/**
 * Checks `input` (untrusted) over `stored` and returns the text to store, or the problems
 * found, each naming its field by its label. Text is trimmed and normalised as the model does
 * (upper-case currency, URL without a trailing slash).
 */
export function checkSettingsForm(
  input: unknown,
  language: Language,
  stored: SettingsText = defaultSettingsText(),
): { ok: true; form: SettingsForm } | { ok: false; problems: FieldProblem[] } {
  const shape = settingsInputIssues(input, language, { labels: true });
  const checked = settingsFromText(settingsTextFrom(input, stored), language, { labels: true });
  const problems = [...shape, ...(checked.ok ? [] : checked.issues)].map(({ field, message }) => ({
    field,
    message,
  }));
  if (problems.length > 0 || !checked.ok) return { ok: false, problems };
  const form = {} as SettingsForm;
  for (const name of SETTING_NAMES) form[name as SettingName] = checked.text[name];
  return { ok: true, form };
}

/** Checks a token typed in the form with the store's own rule. */
export function checkToken(
  token: unknown,
  language: Language,
): { ok: true; token: string } | { ok: false; problem: FieldProblem } {
  const checked = checkStoredToken(token, language);
  if (!checked.ok) {
    const first = checked.issues[0];
    return { ok: false, problem: { field: "token", message: first?.message ?? "token" } };
  }
  return { ok: true, token: (token as string).trim() };
}
