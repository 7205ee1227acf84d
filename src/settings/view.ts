/**
 * What the settings sidebar and the server exchange (plain data only: google.script.run passes
 * no Date, no function). Shared by src/app/settings.ts and the sidebar's client so that a change
 * on one side breaks the other's compile.
 */

import type { Language } from "../i18n";
import type { ScheduleSidebarView } from "../schedule/view";
import type { SettingName } from "./model";
import type { CompanyStatus } from "./store";

/** Every document setting the form edits, as text keyed by name: the settings model's own. */
export type SettingsField = SettingName;
export type SettingsForm = Record<SettingsField, string>;

export interface TokenStatus {
  /** True when the current user has a token saved (in their own user properties). */
  saved: boolean;
  /** Last four characters, to tell tokens apart; never more. */
  last4: string;
  /** Host (and port) the token is sent to; "" when none is saved or it is bound to none. */
  host?: string;
  /**
   * The document's service URL when the token is saved but not bound to its origin (another
   * editor changed it): the sidebar offers to confirm it. "" when the token can be used.
   */
  confirmUrl?: string;
}

/** The document's companies as Settings lists them, with this user's token for each. */
export interface CompaniesView {
  /** The list's revision: every change sends it back, refused when the list changed since. */
  rev: number;
  /** True once a second company was added: the Connection section lists companies for good. */
  several: boolean;
  /** Most companies listed at once. */
  max: number;
  /** Every company, removed ones too (to restore), in display order. */
  entries: CompanyStatus[];
  /**
   * Per listed company's key: whether its account is marked (tokens saved for it are checked
   * against the mark) and what Settings says of it (the check could not be made until then).
   */
  accounts?: Record<string, { marked: boolean; message: string }>;
}

export interface SettingsView {
  language: Language;
  form: SettingsForm;
  token: TokenStatus;
  /** Absent from an older server: the Connection section as with one company. */
  companies?: CompaniesView;
  schedule: ScheduleSidebarView;
  /**
   * The built manifest's urlFetchWhitelist: the form warns about a service URL outside it
   * (Apps Script would refuse the requests). Empty or absent: no warning.
   */
  allowlist?: string[];
  /**
   * Why the document's IdAdmin does not go with this user's writes (another editor changed it
   * since they saved theirs), shown beside the field: saving the form confirms it. "" or absent
   * when it does.
   */
  adminIssue?: string;
}

export interface FieldProblem {
  field: string;
  message: string;
}

export type SaveSettingsResult = { ok: true; view: SettingsView } | { ok: false; problems: FieldProblem[] };

/** What confirming the service URL for one's own token answers. */
export type ConfirmTokenUrlResult =
  | { ok: true; view: SettingsView }
  | { ok: false; message: string; view: SettingsView };

export interface ConnectionCheck {
  ok: boolean;
  message: string;
}

/** What a change to the companies, or to this user's token for one, answers: always a fresh view. */
export type CompaniesResult =
  | { ok: true; message: string; view: SettingsView }
  | { ok: false; problems: FieldProblem[]; view: SettingsView };
