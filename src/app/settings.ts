/**
 * Settings sidebar entry points: open it, read what it shows, save what it sends, test the
 * connection. The token is the current user's own and lives in their user properties only;
 * every other setting belongs to the document (document properties), so that a second user of
 * a shared spreadsheet sees the settings but must enter a token of their own.
 */

import { ownData, ownRecord } from "../api/arguments";
import { originOf } from "../api/urls";
import { FIRST_COMPANY_KEY } from "../company/model";
import { relabelSheets } from "../gas/relabel";
import { runtime } from "../gas/runtime";
import { type Language, languageForLocale, translate } from "../i18n";
import { sheetNamesIn } from "../refresh/words";
import { MANIFEST_ALLOWLIST } from "../settings/allowlist";
import { COMPANIES_KEY, companyByKey } from "../settings/companies";
import { checkSettingsForm, checkToken, shownDefaults, storedSettingsForm } from "../settings/form";
import type { SettingsText } from "../settings/model";
import type {
  CompaniesResult,
  ConfirmTokenUrlResult,
  ConnectionCheck,
  SaveSettingsResult,
  SettingsForm,
  SettingsView,
} from "../settings/view";
import { fieldProblems, settingsWords } from "../settings/words";
import { checkTokenAccount, type RetakeOutcome, retakeAccountMark } from "./account-mark";
import {
  type CompanyOutcome,
  changeCompanies,
  companiesView,
  confirmFor,
  removeTokenFor,
  saveTokenFor,
} from "./companies";
import { connectionTest } from "./connection-section";
import { currentLanguage, entry, settingsStore, tolerate, userLocale, withDocumentLock } from "./entry";
import { rebuildMenu } from "./open";
import { currentScheduleView } from "./schedule-view";

function settingsView(): SettingsView {
  const store = settingsStore();
  // Empty settings show their defaults in the document's language (the sheets' names).
  const form = storedSettingsForm(store.text(), currentLanguage());
  return {
    language: currentLanguage(),
    form,
    token: store.tokenStatus(),
    companies: companiesView(currentLanguage()),
    schedule: currentScheduleView(),
    allowlist: [...MANIFEST_ALLOWLIST],
    adminIssue: adminIssueText(store.adminIdIssue()),
  };
}

/** Why the document's IdAdmin may not go with this user's writes, in their words; "" when it may. */
function adminIssueText(words: ReturnType<ReturnType<typeof settingsStore>["adminIdIssue"]>): string {
  return words ? settingsWords(words, currentLanguage()) : "";
}

/** Opens the settings sidebar (menu item "Settings…", and the schedule's notice item). */
export function showSettingsSidebar(): void {
  entry("menu", () => {
    const language = currentLanguage();
    runtime().showSidebar("settings", translate(language, "settings.title"));
  });
}

/** What the sidebar shows: the document's settings, whether this user has a token, the schedule. */
export function getSettingsView(): SettingsView {
  return entry("sidebar", settingsView);
}

/**
 * Saves the document's settings and, when `token` is not empty, this user's token. Nothing is
 * saved when any field breaks a rule: the problems come back, each naming its field.
 */
export function saveSettings(input: unknown, token?: unknown): SaveSettingsResult {
  return entry("sidebar", () => saveSettingsForm(input, token));
}

const SHEET_SETTINGS = [
  "sheetFunds",
  "sheetTransactions",
  "sheetReports",
  "sheetAudit",
  "sheetOutbox",
] as const;

/**
 * The form with its sheet names that are the defaults of `from` emptied when the language
 * changes to another one: such a sheet is not named by its user, and takes the new default.
 */
function defaultNamesCleared(input: unknown, stored: SettingsText, from: Language, to: Language): unknown {
  const form = ownRecord(input);
  if (!form || to === from) return ownData(input);
  const shown = shownDefaults(from);
  for (const name of SHEET_SETTINGS) {
    const value = name in form ? form[name] : stored[name];
    if (typeof value === "string" && value.trim() === shown[name]) form[name] = "";
  }
  return form;
}

function saveSettingsForm(input: unknown, token: unknown): SaveSettingsResult {
  const store = settingsStore();
  const language = currentLanguage();
  const asked = ownRecord(input)?.language ?? store.text().language;
  const to = asked === "en" || asked === "es" ? asked : languageForLocale(userLocale());
  const form = defaultNamesCleared(input, store.text(), language, to);
  const checked = checkSettingsForm(form, store.text());
  const tokenText = typeof token === "string" ? token.trim() : token;
  const tokenCheck =
    tokenText === undefined || tokenText === null || tokenText === "" ? null : checkToken(tokenText);
  const problems = fieldProblems(
    [...(checked.ok ? [] : checked.issues), ...(tokenCheck && !tokenCheck.ok ? [tokenCheck.issue] : [])],
    language,
  );
  if (!checked.ok || problems.length > 0) return { ok: false, problems };
  // The first company's token, saved from this form as from its card: checked first against the
  // account mark (at the URL being saved), refused when it opens another account.
  if (tokenCheck?.ok) {
    const first = companyByKey(store.companies(), FIRST_COMPANY_KEY);
    if (first) {
      const account = checkTokenAccount(
        { ...first, apiUrl: checked.form.baseUrl || first.apiUrl },
        tokenCheck.token,
        language,
      );
      if (!account.ok) return { ok: false, problems: [{ field: "token", message: account.message }] };
    }
  } else {
    const moved = followedTokenRefusal(checked.form.baseUrl, language);
    if (moved) return { ok: false, problems: [{ field: "baseUrl", message: moved }] };
  }
  if (to === language) return saveChecked(checked.form, tokenCheck, language, false);
  // Sheets are renamed: not while a refresh or an Outbox run writes into them.
  return withDocumentLock(
    "form",
    10_000,
    (lock) => ({
      ok: false,
      problems: [
        {
          field: "language",
          message: lock?.busyMessage(language, "busy.refresh") ?? translate(language, "busy.refresh"),
        },
      ],
    }),
    () => saveChecked(checked.form, tokenCheck, language, true),
  );
}

/**
 * In a document without a company list, this user's own token follows a change of the service
 * URL they make themselves (src/settings/store.ts): it is checked first as a token saved at the
 * new URL is (the account it opens there against the first company's mark, or marking it when
 * there is none). Why not, naming what to do; null when it may follow (or none would).
 */
function followedTokenRefusal(url: string, language: Language): string | null {
  const store = settingsStore();
  if (runtime().documentProperties().getProperty(COMPANIES_KEY) !== null) return null;
  const before = store.load().settings.baseUrl;
  const status = store.tokenStatus();
  if (!status.saved || status.confirmUrl !== "" || originOf(url) === originOf(before)) return null;
  const first = companyByKey(store.companies(), FIRST_COMPANY_KEY);
  const token = store.savedCompanyToken(FIRST_COMPANY_KEY);
  if (!first || token === "") return null;
  const account = checkTokenAccount({ ...first, apiUrl: url }, token, language);
  return account.ok ? null : translate(language, "account.urlMoved", { message: account.message });
}

function saveChecked(
  form: SettingsForm,
  tokenCheck: ReturnType<typeof checkToken> | null,
  language: Language,
  relabel: boolean,
): SaveSettingsResult {
  const store = settingsStore();
  const before = relabel ? tolerate("unreadable", () => sheetNamesIn(store.fields(), language), null) : null;
  const saved = store.save(form, { labels: true });
  if (!saved.ok) return { ok: false, problems: fieldProblems(saved.issues, language) };
  if (tokenCheck?.ok) store.saveToken(tokenCheck.token);
  // A new language: the add-on's sheets take its names (where they are the defaults) and headers.
  const now = currentLanguage();
  if (before && now !== language) {
    relabelSheets(before, sheetNamesIn(store.fields(), now), language, now);
    // The menu follows at once, not at the next opening of the document.
    tolerate("no Ui", rebuildMenu, undefined);
  }
  return { ok: true, view: settingsView() };
}

/**
 * Binds this user's token to the document's service URL `url`, the one the sidebar showed
 * them: the explicit confirmation after another editor changed it. Refused when the URL is no
 * longer the document's (it changed again meanwhile) or no token is saved.
 */
export function confirmMyTokenUrl(url: unknown): ConfirmTokenUrlResult {
  return entry("sidebar", () => {
    const store = settingsStore();
    // The token is bound to the new URL only if it opens the first company's marked account
    // there, as a token saved is checked; refused with the same message otherwise.
    const first = companyByKey(store.companies(), FIRST_COMPANY_KEY);
    const token = store.savedCompanyToken(FIRST_COMPANY_KEY);
    const documentUrl = store.load().settings.baseUrl;
    if (first && token !== "" && typeof url === "string" && url.trim() === documentUrl) {
      const account = checkTokenAccount({ ...first, apiUrl: documentUrl }, token, currentLanguage());
      if (!account.ok) return { ok: false, message: account.message, view: settingsView() };
    }
    if (store.confirmTokenUrl(url)) return { ok: true, view: settingsView() };
    const view = settingsView();
    return { ok: false, message: translate(view.language, "settings.token.confirmStale"), view };
  });
}

/** Removes this user's token (other users' tokens are theirs and untouched). */
export function removeMyToken(): SettingsView {
  return entry("sidebar", () => {
    settingsStore().removeToken();
    return settingsView();
  });
}

/**
 * "Test connection" of the settings sidebar's Connection section (src/settings/connection-test.ts;
 * its calls audited and counted, src/app/connection-section.ts), with the service URL shown in the form
 * and the token typed there, else the saved ones, so that a connection can be tried before it
 * is saved.
 */
export function testSettingsConnection(input?: unknown): ConnectionCheck {
  return entry("sidebar", () => {
    const given = ownRecord(input) ?? {};
    // The form sends its URL and the token being typed; nothing else is a connection setting.
    // With `key`, a company of the list: its URL, and this user's token for it unless typed.
    const { baseUrl, token, key } = given;
    const result = connectionTest({
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(token !== undefined ? { token } : {}),
      ...(key !== undefined ? { key } : {}),
    });
    return { ok: result.ok, message: result.message };
  });
}

function withView(outcome: CompanyOutcome): CompaniesResult {
  // Always the list as it is now: a form refused as stale shows what changed.
  return { ...outcome, view: settingsView() };
}

/**
 * A change to the document's companies (Settings, Companies): `{ kind, rev, … }` as
 * src/settings/companies.ts reads it. Saved under the document lock, or refused with the
 * problems (a stale `rev`: the list changed since it was shown); a fresh view either way.
 */
export function saveCompanies(change: unknown): CompaniesResult {
  return entry("sidebar", () => withView(changeCompanies(change)));
}

/**
 * This user's token and IdAdmin for company `key`, bound to the company as the form showed it
 * (`seen`: its name and URL); refused when it changed since.
 */
export function saveMyCompanyToken(
  key: unknown,
  token: unknown,
  adminId: unknown,
  seen: unknown,
): CompaniesResult {
  return entry("sidebar", () => withView(saveTokenFor(key, token, adminId, seen)));
}

/**
 * The owner's confirmation, after another editor renamed or re-pointed company `key`: their
 * saved token is bound to the company as `seen` shows it, only if that is how it is listed now.
 */
export function confirmMyCompanyToken(key: unknown, seen: unknown): CompaniesResult {
  return entry("sidebar", () => withView(confirmFor(key, seen)));
}

/** Removes this user's token for company `key` (other users' tokens are theirs and untouched). */
export function removeMyCompanyToken(key: unknown): CompaniesResult {
  return entry("sidebar", () => withView(removeTokenFor(key)));
}

/**
 * Takes company `key`'s account mark again from the account this user's token for it opens
 * (the service's data really changed: a test account reset). Without `confirmed`, only the
 * question naming what changes (`ask`) and what it showed (`shown`); with `confirmed`, that
 * `shown` sent back, the new mark is saved if it is still what was shown, else the question
 * comes again. A fresh view either way.
 */
export function retakeCompanyAccountMark(
  key: unknown,
  confirmed: unknown,
): RetakeOutcome & { view: SettingsView } {
  return entry("sidebar", () => {
    const outcome = retakeAccountMark(key, confirmed, currentLanguage());
    return { ...outcome, view: settingsView() };
  });
}
