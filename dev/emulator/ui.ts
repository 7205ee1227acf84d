/**
 * The Ui of the spreadsheet: menus (recorded with their items), alerts and prompts answered
 * from a queue filled by the test (or, in interactive mode, by the person at the playground),
 * sidebars and dialogs (their HtmlOutput kept so it can be rendered), toasts.
 */
import { type EnumOf, type EnumValue, enumName, makeEnum } from "./enums";
import { ServiceError } from "./errors";
import type { FakeHtmlOutput } from "./html-service";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export const BUTTON = makeEnum(["CLOSE", "OK", "CANCEL", "YES", "NO"] as const);
export const BUTTON_SET = makeEnum(["OK", "OK_CANCEL", "YES_NO", "YES_NO_CANCEL"] as const);
export type ButtonName = keyof typeof BUTTON;

const BUTTONS_OF_SET: Record<string, ButtonName[]> = {
  OK: ["OK"],
  OK_CANCEL: ["OK", "CANCEL"],
  YES_NO: ["YES", "NO"],
  YES_NO_CANCEL: ["YES", "NO", "CANCEL"],
};

export interface MenuEntry {
  label: string;
  /** The entry point the item calls ("" for separators and submenus). */
  functionName: string;
  separator?: boolean;
  submenu?: MenuRecord;
}

export interface MenuRecord {
  caption: string;
  addon: boolean;
  items: MenuEntry[];
}

/** An alert or prompt as shown to the user (and, once answered, what they chose). */
export interface DialogRecord {
  kind: "alert" | "prompt";
  title: string;
  prompt: string;
  /** Buttons offered (CLOSE, the title-bar X, is always possible too). */
  buttons: ButtonName[];
}

/** An answer to an alert or prompt: a button name, or a button and the text typed in a prompt. */
export type DialogAnswer = string | { button?: string; text?: string };

export interface ShownHtml {
  /** Changes every time the script shows a sidebar or dialog (a page reloads its frame then). */
  key: string;
  kind: "sidebar" | "modal" | "modeless";
  title: string;
  html: string;
  width: number;
  height: number;
}

export interface Toast {
  id: number;
  message: string;
  title: string;
  seconds: number;
  at: number;
}

/** What the Ui has shown so far; the emulator keeps one per spreadsheet. */
export class UiState {
  menus: MenuRecord[] = [];
  sidebar: ShownHtml | null = null;
  dialog: ShownHtml | null = null;
  toasts: Toast[] = [];
  /** Every alert and prompt shown, with the answer given. */
  dialogs: Array<DialogRecord & { answer: { button: ButtonName; text: string } }> = [];
  /** Answers for the next alerts and prompts, in order. */
  readonly answers: DialogAnswer[] = [];
  /** Counts sidebars, dialogs and toasts shown, to key each one. */
  serial = 0;

  /** The add-on menu built by onOpen (or every menu's items if there is no add-on menu). */
  addonMenuItems(): Array<{ label: string; function: string }> {
    const addon = this.menus.filter((m) => m.addon);
    const menus = addon.length > 0 ? addon.slice(-1) : this.menus;
    const out: Array<{ label: string; function: string }> = [];
    const walk = (items: MenuEntry[]) => {
      for (const item of items) {
        if (item.submenu) walk(item.submenu.items);
        else if (!item.separator) out.push({ label: item.label, function: item.functionName });
      }
    };
    for (const m of menus) walk(m.items);
    return out;
  }
}

/** Reads an answer for `dialog`: a button it offers (or CLOSE) and, for prompts, the text. */
export function resolveAnswer(
  dialog: DialogRecord,
  answer: DialogAnswer,
): { button: ButtonName; text: string } {
  let button: string | undefined;
  let text = "";
  if (typeof answer === "string") {
    const upper = answer.toUpperCase();
    if (upper in BUTTON) button = upper;
    else if (dialog.kind === "prompt") {
      button = "OK";
      text = answer;
    } else button = answer;
  } else {
    button = (answer.button ?? "OK").toUpperCase();
    text = answer.text ?? "";
  }
  const allowed: string[] = [...dialog.buttons, "CLOSE"];
  if (!allowed.includes(button)) {
    throw new Error(
      `Answer "${button}" does not fit the ${dialog.kind} "${dialog.prompt}": its buttons are ${allowed.join(", ")}.`,
    );
  }
  if (button === "YES" && !dialog.buttons.includes("YES") && dialog.buttons.includes("OK")) button = "OK";
  return { button: button as ButtonName, text };
}

/** What the Ui needs from the runtime. */
export interface UiHost {
  /** Blocks until the dialog is answered (or throws when nobody can answer it). */
  answer(dialog: DialogRecord): { button: ButtonName; text: string };
  now(): number;
}

export class FakeMenu
  extends Fake
  implements Implements<GoogleAppsScript.Base.Menu, "addItem" | "addSeparator" | "addSubMenu" | "addToUi">
{
  static override readonly service = "Menu";
  constructor(
    private readonly state: UiState,
    readonly record: MenuRecord,
  ) {
    super();
  }
  addItem(caption: string, functionName: string): this {
    if (typeof functionName !== "string" || functionName === "") {
      throw new ServiceError("Invalid argument: functionName");
    }
    this.record.items.push({ label: String(caption), functionName });
    return this;
  }
  addSeparator(): this {
    this.record.items.push({ label: "-", functionName: "", separator: true });
    return this;
  }
  addSubMenu(menu: GoogleAppsScript.Base.Menu): this {
    const sub = (menu as unknown as FakeMenu).record;
    this.record.items.push({ label: sub.caption, functionName: "", submenu: sub });
    return this;
  }
  addToUi(): void {
    // A menu added again (onOpen run twice) replaces the earlier one of the same caption.
    const existing = this.state.menus.findIndex(
      (m) => m.caption === this.record.caption && m.addon === this.record.addon,
    );
    if (existing >= 0) this.state.menus.splice(existing, 1, this.record);
    else this.state.menus.push(this.record);
  }
}

export class FakePromptResponse
  extends Fake
  implements Implements<GoogleAppsScript.Base.PromptResponse, "getResponseText" | "getSelectedButton">
{
  static override readonly service = "PromptResponse";
  constructor(
    private readonly text: string,
    private readonly button: EnumValue,
  ) {
    super();
  }
  getResponseText(): string {
    return this.text;
  }
  getSelectedButton(): GoogleAppsScript.Base.Button {
    return this.button as unknown as GoogleAppsScript.Base.Button;
  }
}

type UiMembers =
  | "alert"
  | "prompt"
  | "createAddonMenu"
  | "createMenu"
  | "showSidebar"
  | "showModalDialog"
  | "showModelessDialog";

export class FakeUi extends Fake implements Implements<GoogleAppsScript.Base.Ui, UiMembers> {
  static override readonly service = "Ui";
  readonly Button: EnumOf<ButtonName> = BUTTON;
  readonly ButtonSet: EnumOf<"OK" | "OK_CANCEL" | "YES_NO" | "YES_NO_CANCEL"> = BUTTON_SET;

  constructor(
    private readonly state: UiState,
    private readonly host: UiHost,
    private readonly addonName: string,
  ) {
    super();
  }

  private dialogArgs(kind: "alert" | "prompt", args: unknown[]): DialogRecord {
    let title = "";
    let prompt: unknown;
    let set: unknown = BUTTON_SET.OK;
    if (args.length >= 3) [title, prompt, set] = [String(args[0]), args[1], args[2]];
    else if (args.length === 2) [prompt, set] = args;
    else [prompt] = args;
    if (kind === "prompt" && args.length < 2) set = BUTTON_SET.OK;
    const setName = enumName(set);
    if (!setName || !(setName in BUTTONS_OF_SET)) {
      throw new ServiceError(`Invalid argument: buttons`);
    }
    return { kind, title, prompt: String(prompt ?? ""), buttons: BUTTONS_OF_SET[setName] as ButtonName[] };
  }

  alert(
    ...args:
      | [string]
      | [string, GoogleAppsScript.Base.ButtonSet]
      | [string, string, GoogleAppsScript.Base.ButtonSet]
  ): GoogleAppsScript.Base.Button {
    const dialog = this.dialogArgs("alert", args);
    const answer = this.host.answer(dialog);
    this.state.dialogs.push({ ...dialog, answer });
    return BUTTON[answer.button] as unknown as GoogleAppsScript.Base.Button;
  }

  prompt(
    ...args:
      | [string]
      | [string, GoogleAppsScript.Base.ButtonSet]
      | [string, string, GoogleAppsScript.Base.ButtonSet]
  ): FakePromptResponse {
    const dialog = this.dialogArgs("prompt", args);
    const answer = this.host.answer(dialog);
    this.state.dialogs.push({ ...dialog, answer });
    return new FakePromptResponse(answer.text, BUTTON[answer.button]);
  }

  createAddonMenu(): FakeMenu {
    return new FakeMenu(this.state, { caption: this.addonName, addon: true, items: [] });
  }

  createMenu(caption: string): FakeMenu {
    return new FakeMenu(this.state, { caption: String(caption), addon: false, items: [] });
  }

  private shown(kind: ShownHtml["kind"], output: unknown, title?: string): ShownHtml {
    const html = output as FakeHtmlOutput;
    if (!html || typeof html.getContent !== "function")
      throw new ServiceError("Invalid argument: userInterface");
    this.state.serial++;
    return {
      key: `${kind}-${this.state.serial}`,
      kind,
      title: title ?? html.getTitle(),
      html: html.getContent(),
      // Sidebars are 300 px wide whatever setWidth says.
      width: kind === "sidebar" ? 300 : html.getWidth(),
      height: html.getHeight(),
    };
  }

  showSidebar(userInterface: GoogleAppsScript.HTML.HtmlOutput): void {
    this.state.sidebar = this.shown("sidebar", userInterface);
  }

  showModalDialog(userInterface: GoogleAppsScript.HTML.HtmlOutput, title: string): void {
    this.state.dialog = this.shown("modal", userInterface, String(title));
  }

  showModelessDialog(userInterface: GoogleAppsScript.HTML.HtmlOutput, title: string): void {
    this.state.dialog = this.shown("modeless", userInterface, String(title));
  }
}
