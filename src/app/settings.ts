/**
 * Settings sidebar entry points: open it, read what it shows, save what it sends, test the
 * connection. The token is the current user's own and lives in their user properties only;
 * every other setting belongs to the document (document properties), so that a second user of
 * a shared spreadsheet sees the settings but must enter a token of their own.
 */
import { createClient } from "../api/client";
import {
  HttpError,
  ServiceError,
  TransportError,
  UnexpectedResponseError,
  withoutSecrets,
} from "../api/errors";
import { documentSettingsStore } from "../gas/properties";
import { appsScriptClock, urlFetchTransport } from "../gas/transport";
import { withoutSecret } from "../schedule/notices";
import { checkSettingsForm, checkToken, storedSettingsForm } from "../ui/sidebars/settings/form";
import type {
  ConnectionCheck,
  SaveSettingsResult,
  SettingsForm,
  SettingsView,
} from "../ui/sidebars/settings/view";
import { type Language, languageForLocale, translate } from "../ui/strings";
import { getScheduleView } from "./schedule";

function localeLanguage(): Language {
  try {
    return languageForLocale(Session.getActiveUserLocale());
  } catch (_err) {
    return "en";
  }
}

/**
 * The document's settings as the form shows them (src/settings/ reads and stores them); the
 * language defaults to the user's locale.
 */
export function loadSettingsForm(): SettingsForm {
  return storedSettingsForm(documentSettingsStore().text(), localeLanguage());
}

function formLanguage(form: SettingsForm): Language {
  return form.language === "es" ? "es" : "en";
}

function settingsView(): SettingsView {
  const store = documentSettingsStore();
  const form = storedSettingsForm(store.text(), localeLanguage());
  return {
    language: formLanguage(form),
    form,
    token: store.tokenStatus(),
    schedule: getScheduleView(),
  };
}

/** Opens the settings sidebar (menu item "Settings…", and the schedule's notice item). */
export function showSettingsSidebar(): void {
  const language = formLanguage(loadSettingsForm());
  SpreadsheetApp.getUi().showSidebar(
    HtmlService.createHtmlOutputFromFile("settings").setTitle(translate(language, "settings.title")),
  );
}

/** What the sidebar shows: the document's settings, whether this user has a token, the schedule. */
export function getSettingsView(): SettingsView {
  return settingsView();
}

/**
 * Saves the document's settings and, when `token` is not empty, this user's token. Nothing is
 * saved when any field breaks a rule: the problems come back, each naming its field.
 */
export function saveSettings(input: unknown, token?: unknown): SaveSettingsResult {
  const store = documentSettingsStore();
  const language = formLanguage(storedSettingsForm(store.text(), localeLanguage()));
  const checked = checkSettingsForm(input, language, store.text());
  const tokenText = typeof token === "string" ? token.trim() : token;
  const tokenCheck =
    tokenText === undefined || tokenText === null || tokenText === ""
      ? null
      : checkToken(tokenText, language);
  const problems = [
    ...(checked.ok ? [] : checked.problems),
    ...(tokenCheck && !tokenCheck.ok ? [tokenCheck.problem] : []),
  ];
  if (!checked.ok || problems.length > 0) return { ok: false, problems };
  const saved = store.save(checked.form, language, { labels: true });
  if (!saved.ok)
    return { ok: false, problems: saved.issues.map(({ field, message }) => ({ field, message })) };
  if (tokenCheck?.ok) store.saveToken(tokenCheck.token, language);
  return { ok: true, view: settingsView() };
}

/** Removes this user's token (other users' tokens are theirs and untouched). */
export function removeMyToken(): SettingsView {
  documentSettingsStore().removeToken();
  return settingsView();
}

/** Plain words for what a failed connection test found. */
export function explainConnectionFailure(err: unknown, language: Language, token: string): string {
  const detail = (text: string) => withoutSecret(withoutSecrets(text, token ? [token] : []), token);
  if (err instanceof HttpError) {
    if (err.status === 401 || err.status === 403)
      return translate(language, "settings.test.badToken", { status: err.status });
    if (err.status === 404 || err.status === 405)
      return translate(language, "settings.test.badUrl", { detail: `HTTP ${err.status}` });
    if (err.status >= 500 || err.status === 408 || err.status === 429) {
      return translate(language, "settings.test.down", { detail: `HTTP ${err.status}` });
    }
    return translate(language, "settings.test.other", { detail: detail(err.message) });
  }
  if (err instanceof ServiceError)
    return translate(language, "settings.test.errorIn200", {
      detail: detail(err.serviceMessage || err.message),
    });
  if (err instanceof UnexpectedResponseError)
    return translate(language, "settings.test.notService", { detail: detail(err.detail) });
  if (err instanceof TransportError) {
    const text = detail(err.message);
    return /DNS error|Invalid argument|Address unavailable/i.test(text)
      ? translate(language, "settings.test.badUrl", { detail: text })
      : translate(language, "settings.test.down", { detail: text });
  }
  const message = err instanceof Error ? err.message : String(err);
  return translate(language, "settings.test.other", { detail: detail(message) });
}

/**
 * Makes one small call (one fund) and says what happened. Uses the service URL shown in the
 * form (`input.baseUrl`, checked like a save) and the token typed there, else the saved ones,
 * so that a connection can be tried before it is saved.
 */
export function testSettingsConnection(input?: unknown): ConnectionCheck {
  const saved = loadSettingsForm();
  const language = formLanguage(saved);
  const given = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  let baseUrl = saved.baseUrl;
  if (given["baseUrl"] !== undefined) {
    const checked = checkSettingsForm({ ...saved, baseUrl: given["baseUrl"] }, language);
    const problem = checked.ok ? null : checked.problems.find((p) => p.field === "baseUrl");
    if (problem) return { ok: false, message: problem.message };
    if (checked.ok) baseUrl = checked.form.baseUrl;
    else baseUrl = String(given["baseUrl"]).trim().replace(/\/+$/, "");
  }
  let token = documentSettingsStore().token();
  if (typeof given["token"] === "string" && given["token"].trim() !== "") {
    const typed = checkToken(given["token"], language);
    if (!typed.ok) return { ok: false, message: typed.problem.message };
    token = typed.token;
  }
  if (!token) return { ok: false, message: translate(language, "settings.test.noToken") };
  try {
    const client = createClient({
      transport: urlFetchTransport(),
      baseUrl,
      token,
      clock: appsScriptClock(),
      retry: { maxAttempts: 1 },
    });
    const answer = client.call("getFunds", { ResultsPerPage: 1, Page: 1 });
    return {
      ok: true,
      message: translate(language, "settings.test.ok", { total: answer.records.totalRecords }),
    };
  } catch (err) {
    return { ok: false, message: explainConnectionFailure(err, language, token) };
  }
}
