/**
 * The Companies section of Settings (docs/design/several-companies.md §2, §5): what it lists,
 * and each change it sends. The list is the document's (any editor changes it, under the
 * document lock, refused when the `rev` the form showed is stale); a token and its IdAdmin are
 * each user's own, saved, confirmed or removed for one company at a time, bound as the store
 * says (src/settings/bindings.ts). Every argument comes from a sidebar and is checked.
 *
 * A change also reaches the sheets: adding the second company labels the rows already there
 * with the first company (the Company columns inserted by the merge, no user cell lost), a
 * rename rewrites the Company cells of that key, a removal greys or removes its rows.
 */

import { ownMember } from "../api/arguments";
import type { MessageLanguage } from "../api/messages";
import { hostOf } from "../api/urls";
import { labelFirstCompanyRows, relabelCompanyRows, removedCompanyRows } from "../gas/company-rows";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { sheetNamesIn } from "../refresh/words";
import {
  type CompanyEntry,
  companyByKey,
  companyKeyFromUuid,
  companyLabel,
  isCompanyKey,
  listedCompanies,
  MAX_COMPANIES,
} from "../settings/companies";
import type { SettingsIssue } from "../settings/model";
import { checkToken } from "../settings/store";
import type { CompaniesView, FieldProblem } from "../settings/view";
import { fieldProblems, statusInWords } from "../settings/words";
import { accountMarks, accountStatus, checkTokenAccount } from "./account-mark";
import { currentLanguage, settingsStore, withDocumentLock } from "./entry";

/** The companies Settings lists, with this user's status for each. */
export function companiesView(language: MessageLanguage): CompaniesView {
  const store = settingsStore();
  const companies = store.companies();
  const marks = accountMarks();
  return {
    rev: companies.rev,
    several: companies.several,
    max: MAX_COMPANIES,
    entries: store.companyStatuses().map((status) => statusInWords(status, language)),
    accounts: Object.fromEntries(
      listedCompanies(companies).map((c) => [
        c.key,
        { marked: c.key in marks, message: accountStatus(c, marks, language) },
      ]),
    ),
  };
}

export type CompanyOutcome = { ok: true; message: string } | { ok: false; problems: FieldProblem[] };

function problems(issues: readonly SettingsIssue[], language: MessageLanguage): CompanyOutcome {
  return { ok: false, problems: fieldProblems(issues, language) };
}

function kindOf(change: unknown): string {
  if (typeof change !== "object" || change === null) return "";
  const kind = Object.getOwnPropertyDescriptor(change, "kind")?.value;
  return typeof kind === "string" ? kind : "";
}

function today(): string {
  return runtime().formatDate(new Date(), runtime().spreadsheet().getSpreadsheetTimeZone(), "yyyy-MM-dd");
}

/**
 * One editor's change to the list (add, rename, repoint, remove, restore, move), under the
 * document lock: saved, and its rows in the sheets brought along; or the problems, nothing
 * saved. A stale `rev` is refused whole.
 */
export function changeCompanies(change: unknown): CompanyOutcome {
  const language = currentLanguage();
  return withDocumentLock(
    "form",
    10_000,
    (lock) => ({
      ok: false,
      problems: [
        {
          field: "change",
          message: lock?.busyMessage(language, "busy.refresh") ?? translate(language, "busy.refresh"),
        },
      ],
    }),
    () => applyChange(change, language),
  );
}

function applyChange(change: unknown, language: MessageLanguage): CompanyOutcome {
  const store = settingsStore();
  const before = store.companies();
  const result = store.changeCompanies(change, {
    newKey: () => companyKeyFromUuid(runtime().uuid()),
    now: Date.now(),
  });
  if (!result.ok) return problems(result.issues, language);
  const after = result.companies;
  const entry = companyByKey(after, result.key) as CompanyEntry;
  const was = companyByKey(before, result.key);
  const label = companyLabel(entry, language);
  const names = sheetNamesIn(store.fields(), currentLanguage());
  const lines: string[] = [];
  switch (kindOf(change)) {
    case "add": {
      lines.push(translate(language, "companies.added", { company: label }));
      const first = listedCompanies(before)[0];
      const firstAfter = first ? companyByKey(after, first.key) : undefined;
      // The first company's name given in the same form: its rows keep their key, show the name.
      if (first && firstAfter && first.name !== "" && first.name !== firstAfter.name)
        relabelCompanyRows(names, first, firstAfter.name);
      if (!before.several && after.several && firstAfter) {
        const labelled = labelFirstCompanyRows(names, after.entries, currentLanguage());
        if (labelled.length > 0)
          lines.push(
            translate(language, "companies.labelled", { company: companyLabel(firstAfter, language) }),
          );
      }
      break;
    }
    case "rename":
      if (was) relabelCompanyRows(names, was, entry.name);
      lines.push(
        translate(language, "companies.renamed", {
          former: was ? companyLabel(was, language) : label,
          company: label,
        }),
      );
      break;
    case "repoint":
      lines.push(translate(language, "companies.repointed", { company: label, host: hostOf(entry.apiUrl) }));
      break;
    case "remove": {
      const rows = entry.removed?.rows ?? "keep";
      removedCompanyRows(
        names,
        entry,
        rows,
        translate(currentLanguage(), "companies.rowsNote", { company: label, date: today() }),
        currentLanguage(),
      );
      lines.push(translate(language, "companies.removed", { company: label }));
      break;
    }
    case "restore":
      lines.push(translate(language, "companies.restored", { company: label }));
      break;
    default:
      break;
  }
  return { ok: true, message: lines.join(" ") };
}

/**
 * This user's token and IdAdmin for company `key`, as the form showed the company (`seen`). The
 * account the token opens is checked against the company's mark first (the mark taken when it
 * has none): a token of another account is refused, nothing saved.
 */
export function saveTokenFor(key: unknown, token: unknown, adminId: unknown, seen: unknown): CompanyOutcome {
  const language = currentLanguage();
  const store = settingsStore();
  if (!isCompanyKey(key)) return unknownKey(key, language);
  const company = companyByKey(store.companies(), key);
  // Only a token that could be saved is read with (the store says why any other is refused).
  let note = "";
  if (company && !company.removed && typeof token === "string" && checkToken(token).ok) {
    const account = checkTokenAccount(company, token.trim(), language);
    if (!account.ok) return { ok: false, problems: [{ field: "token", message: account.message }] };
    note = account.note;
  }
  const saved = store.saveCompanyToken(key, token, adminId, seen);
  if (!saved.ok) return problems(saved.issues, language);
  const message = translate(language, "companies.tokenSaved", { company: labelOf(key, language) });
  return { ok: true, message: note ? `${message} ${note}` : message };
}

/**
 * The owner's confirmation of their token for `key`, as the company is listed now (`seen`). When
 * the company's URL moved to another host since the token was bound, the account the token opens
 * there is checked against the company's mark first, as a token saved is, and one that opens
 * another account (or cannot be read with while the company is marked) is refused with the same
 * message, nothing bound.
 */
export function confirmFor(key: unknown, seen: unknown): CompanyOutcome {
  const language = currentLanguage();
  const store = settingsStore();
  if (!isCompanyKey(key)) return unknownKey(key, language);
  const company = companyByKey(store.companies(), key);
  const token = store.savedCompanyToken(key);
  // Read with only when the confirmation is of the company as listed (the store says why else)
  // and its host is not the one the token is bound to (a rename alone reaches the same account).
  const bound = store.companyStatuses().find((c) => c.key === key);
  const moved = bound === undefined || bound.boundHost !== bound.host;
  if (company && !company.removed && token !== "" && moved && sameAsListed(company, seen)) {
    const account = checkTokenAccount(company, token, language);
    if (!account.ok) return { ok: false, problems: [{ field: "token", message: account.message }] };
  }
  const confirmed = store.confirmCompany(key, seen);
  if (!confirmed.ok) return problems(confirmed.issues, language);
  const entry = companyByKey(store.companies(), key);
  return {
    ok: true,
    message: translate(language, "companies.confirmed", {
      company: labelOf(key, language),
      host: entry ? hostOf(entry.apiUrl) : "",
    }),
  };
}

/** Whether `seen` (what the form showed) is `company` as it is listed now. */
function sameAsListed(company: CompanyEntry, seen: unknown): boolean {
  const name = ownMember(seen, "name");
  const apiUrl = ownMember(seen, "apiUrl");
  return (
    typeof name === "string" &&
    typeof apiUrl === "string" &&
    name.trim() === company.name &&
    apiUrl.trim() === company.apiUrl
  );
}

/** Removes this user's token for `key` (nobody else's). */
export function removeTokenFor(key: unknown): CompanyOutcome {
  const language = currentLanguage();
  if (!isCompanyKey(key)) return unknownKey(key, language);
  settingsStore().removeCompanyToken(key);
  return {
    ok: true,
    message: translate(language, "companies.tokenRemoved", { company: labelOf(key, language) }),
  };
}

function labelOf(key: string, language: MessageLanguage): string {
  const entry = companyByKey(settingsStore().companies(), key);
  return entry ? companyLabel(entry, language) : key;
}

function unknownKey(key: unknown, language: MessageLanguage): CompanyOutcome {
  return {
    ok: false,
    problems: [
      {
        field: "key",
        message: translate(language, "company.issue.unknown", { key: String(key).slice(0, 40) }),
      },
    ],
  };
}
