/**
 * The playground page: one emulated spreadsheet with its add-on menu, the real sidebars from
 * dist/ beside the grid, alerts answered by clicking, toasts, and a panel to fire the schedule,
 * inject sandbox faults, reset and switch users. Everything goes through the control API.
 */
import type { Selection } from "../a1";
import { ChartLayer } from "./charts";
import {
  type ButtonName,
  type ControlInfo,
  control,
  type MenuEntry,
  type RunResult,
  type SheetSnapshot,
  type ShownHtml,
  type UiState,
} from "./control";
import { FAULT_PRESETS } from "./faults";
import { Grid } from "./grid";

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page lacks #${id}`);
  return el as T;
};

interface PageState {
  info: ControlInfo | null;
  sheets: SheetSnapshot[];
  activeSheet: string;
  /** The active sheet the spreadsheet reported last: when it changes, a script (or a click) changed it. */
  reportedActive: string;
  user: string;
  menu: MenuEntry[];
  sidebarKey: string | null;
  /** The menu item that showed the current sidebar, and the menu item running now. */
  sidebarOpener: string | null;
  menuRunning: string | null;
  lastSidebar: ShownHtml | null;
  dismissedSidebarKey: string | null;
  dialogKey: string | null;
  seenToasts: Set<string>;
  runsInFlight: number;
  answering: boolean;
  shownQuestion: string | null;
  answeredQuestion: string | null;
  bridgeScript: string;
  functions: string[];
  /** The document's language, for the words Sheets itself shows (dialog buttons). */
  language: "en" | "es";
}

const state: PageState = {
  info: null,
  sheets: [],
  activeSheet: "",
  reportedActive: "",
  user: "",
  menu: [],
  sidebarKey: null,
  sidebarOpener: null,
  menuRunning: null,
  lastSidebar: null,
  dismissedSidebarKey: null,
  dialogKey: null,
  seenToasts: new Set(),
  runsInFlight: 0,
  answering: false,
  shownQuestion: null,
  answeredQuestion: null,
  bridgeScript: "",
  functions: [],
  language: "en",
};

/** The last selection sent; runs wait for it so a menu item sees the row just clicked. */
let selectionSent: Promise<unknown> = Promise.resolve();

const grid = new Grid($("grid"), $<HTMLInputElement>("name-box"), $<HTMLInputElement>("formula-bar"), {
  onSelect(range: string, _selection: Selection) {
    selectionSent = control.select(grid.sheetName, range, state.user || undefined).catch(showError);
  },
  onEdit(range: string, values: string[][]) {
    const sheet = grid.sheetName;
    writesPending(1);
    selectionSent = control
      .setCells(sheet, range, values, state.user || undefined)
      .then(() => refreshSheets())
      .catch(showError)
      .finally(() => writesPending(-1));
  },
});
const charts = new ChartLayer($("grid"));

/** Cell writes not yet sent and read back; tests wait for 0. */
function writesPending(change: number): void {
  document.body.dataset.writing = String(Number(document.body.dataset.writing ?? "0") + change);
}

function setStatus(text: string, kind: "idle" | "busy" | "error" = "idle"): void {
  const status = $("run-status");
  status.textContent = text;
  status.dataset.state = kind;
}

function showError(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  setStatus(message, "error");
  showToast({ key: `error-${Date.now()}`, message, title: "Error", seconds: 8 }, true);
}

// ---- sheets and tabs --------------------------------------------------------------------

async function refreshSheets(): Promise<void> {
  const known = new Set(state.sheets.map((s) => s.name));
  state.sheets = await control.sheets();
  // insertSheet activates the new sheet in Sheets: after a run that created sheets, show the
  // active one (else the one created last).
  const created = known.size > 0 ? state.sheets.filter((s) => !known.has(s.name)) : [];
  // The spreadsheet's active sheet when reported (a script may go back to the sheet it showed).
  const reported = state.sheets.find((s) => s.active)?.name ?? "";
  if (created.length > 0) state.activeSheet = reported || (created.at(-1)?.name ?? state.activeSheet);
  // A sheet a script activated (the close's Journal built again, a record's row selected) is
  // shown, as in Sheets; a report that has not changed leaves the tab the user clicked since.
  else if (known.size > 0 && reported !== "" && reported !== state.reportedActive)
    state.activeSheet = reported;
  state.reportedActive = reported;
  if (!state.sheets.some((s) => s.name === state.activeSheet))
    state.activeSheet = state.sheets[0]?.name ?? "";
  renderTabs();
  const sheet = state.sheets.find((s) => s.name === state.activeSheet);
  if (sheet) grid.show(sheet, state.info?.timeZone ?? "UTC", true);
  if (sheet) charts.show(sheet.charts, sheet.values);
}

function renderTabs(): void {
  const tabs = $("sheet-tabs");
  const buttons = state.sheets.map((sheet) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "sheet-tab";
    b.textContent = sheet.name;
    b.setAttribute("role", "tab");
    b.dataset.testid = "sheet-tab";
    b.dataset.sheet = sheet.name;
    const active = sheet.name === state.activeSheet;
    b.setAttribute("aria-selected", String(active));
    b.tabIndex = active ? 0 : -1;
    b.addEventListener("click", () => {
      switchSheet(sheet.name);
      focusTab(sheet.name);
    });
    b.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const i = state.sheets.findIndex((s) => s.name === sheet.name);
      const next =
        state.sheets[(i + (e.key === "ArrowRight" ? 1 : -1) + state.sheets.length) % state.sheets.length];
      if (next) {
        switchSheet(next.name);
        focusTab(next.name);
      }
    });
    return b;
  });
  tabs.replaceChildren(...buttons);
}

function focusTab(name: string): void {
  ($("sheet-tabs").querySelector(`[data-sheet="${CSS.escape(name)}"]`) as HTMLElement | null)?.focus();
}

function switchSheet(name: string): void {
  state.activeSheet = name;
  renderTabs();
  const sheet = state.sheets.find((s) => s.name === name);
  if (sheet) grid.show(sheet, state.info?.timeZone ?? "UTC", false);
  if (sheet) charts.show(sheet.charts, sheet.values);
  selectionSent = control.select(name, "A1", state.user || undefined).catch(showError);
}

// ---- add-on menu ------------------------------------------------------------------------

function renderMenu(): void {
  const addOnName = state.info?.addOnName || "Funds and expense reports";
  const addOnButton = $("menu-addon");
  addOnButton.textContent = addOnName;
  const list = $("menu-items");
  const items = state.menu.map((entry) => {
    const li = document.createElement("li");
    li.setAttribute("role", "none");
    if (!entry.functionName || entry.label === "-" || entry.label === "") {
      li.className = "separator";
      li.setAttribute("role", "separator");
      return li;
    }
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "menuitem");
    b.textContent = entry.label;
    b.dataset.testid = `menu-item-${entry.functionName}`;
    b.dataset.function = entry.functionName;
    b.addEventListener("click", () => {
      closeMenus();
      void runFromMenu(entry);
    });
    li.appendChild(b);
    return li;
  });
  if (items.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "(onOpen built no menu)";
    items.push(li);
  }
  list.replaceChildren(...items);
}

function openMenu(which: "extensions" | "addon"): void {
  $("menu-extensions-list").hidden = false;
  $("menu-extensions").setAttribute("aria-expanded", "true");
  if (which === "addon") {
    $("menu-items").hidden = false;
    $("menu-addon").setAttribute("aria-expanded", "true");
  }
}

function closeMenus(): void {
  $("menu-extensions-list").hidden = true;
  $("menu-items").hidden = true;
  $("menu-extensions").setAttribute("aria-expanded", "false");
  $("menu-addon").setAttribute("aria-expanded", "false");
}

function visibleMenuItems(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>("#menubar [role=menuitem]")).filter(
    (el) => el.offsetParent !== null,
  );
}

function wireMenu(): void {
  $("menu-extensions").addEventListener("click", () => {
    if ($("menu-extensions-list").hidden) openMenu("extensions");
    else closeMenus();
  });
  $("menu-addon").addEventListener("click", () => openMenu("addon"));
  $("menu-addon").addEventListener("mouseenter", () => openMenu("addon"));
  $("menubar").addEventListener("keydown", (e) => {
    const items = visibleMenuItems();
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === "Escape") {
      closeMenus();
      $("menu-extensions").focus();
    } else if (e.key === "ArrowDown") {
      e.preventDefault();
      if ($("menu-extensions-list").hidden) openMenu("extensions");
      const next = visibleMenuItems();
      next[(i + 1) % next.length]?.focus();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    } else if (e.key === "ArrowRight" && document.activeElement === $("menu-addon")) {
      e.preventDefault();
      openMenu("addon");
      ($("menu-items").querySelector("[role=menuitem]") as HTMLElement | null)?.focus();
    } else if (e.key === "ArrowLeft" && $("menu-items").contains(document.activeElement)) {
      e.preventDefault();
      $("menu-items").hidden = true;
      $("menu-addon").focus();
    }
  });
  document.addEventListener("mousedown", (e) => {
    if (!$("menubar").contains(e.target as Node)) closeMenus();
  });
}

// ---- running server functions -----------------------------------------------------------

let uiPoll: number | undefined;

function startPolling(): void {
  if (uiPoll !== undefined) return;
  uiPoll = window.setInterval(() => {
    void refreshUi().catch(() => undefined);
  }, 200);
}

function stopPolling(): void {
  if (state.runsInFlight > 0 || uiPoll === undefined) return;
  window.clearInterval(uiPoll);
  uiPoll = undefined;
}

/** What the sidebars' calls do, in a person's words (they have no menu label). */
const SIDEBAR_ACTIONS: Record<string, string> = {
  getFundSidebarView: "Load the fund",
  depositToFund: "Deposit",
  withdrawFromFund: "Withdrawal",
  changeFundStatus: "Fund status change",
  createFundForEmployee: "Fund creation",
  updateFundDetails: "Fund update",
  getReportSidebarView: "Load the selected reports",
  markReportsIntegrated: "Integration mark",
  markReportsNotIntegrated: "Integration removal",
  setReportsCustomStatus: "Custom status change",
  getRefreshSidebarView: "Load the refresh status",
  refreshFromSidebar: "Refresh",
  continueRefresh: "Refresh (continued)",
  getSettingsView: "Load the settings",
  saveSettings: "Save settings",
  testSettingsConnection: "Test connection",
  removeMyToken: "Remove my token",
  confirmMyTokenUrl: "Confirm the token's address",
  getScheduleView: "Load the schedule",
  saveSchedule: "Save the schedule",
  saveSchedulePreferences: "Save the schedule's e-mail choice",
  runRefreshFromSettings: "Refresh now",
  dismissScheduleNotice: "Dismiss the notice",
};

/**
 * What a person calls a server function: the menu's own label when the menu has it, else the
 * function's name in words ("saveSettings" → "Save settings").
 */
function actionLabel(functionName: string): string {
  const item = state.menu.find((m) => m.functionName === functionName && m.label);
  if (item) return item.label.replace(/…$/, "");
  const named = SIDEBAR_ACTIONS[functionName];
  if (named) return named;
  const words = functionName.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Runs a server function as the acting user; the grid and the UI refresh afterwards. */
async function runScript(
  functionName: string,
  args: unknown[],
  as: "menu" | "script.run",
): Promise<RunResult> {
  state.runsInFlight++;
  document.body.dataset.running = String(state.runsInFlight);
  const action = actionLabel(functionName);
  setStatus(`${action}…`, "busy");
  startPolling();
  try {
    await selectionSent;
    const result = await control.run(functionName, args, as, state.user || undefined);
    // "finished", not "done": the script returned, and what it did (done, refused, no answer
    // in time) is the add-on's to say, in its alert, toast or sidebar.
    setStatus(
      result.ok ? `${action}: finished` : `${action}: failed: ${result.error}`,
      result.ok ? "idle" : "error",
    );
    return result;
  } finally {
    state.runsInFlight--;
    document.body.dataset.running = String(state.runsInFlight);
    stopPolling();
    await Promise.all([refreshSheets(), refreshUi(), refreshLanguage()]).catch(showError);
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed ?? "0") + 1);
  }
}

async function runFromMenu(entry: MenuEntry): Promise<void> {
  // A menu item may show the sidebar that was closed before: show it again.
  state.dismissedSidebarKey = null;
  const keyBefore = state.sidebarKey;
  state.menuRunning = entry.functionName;
  const result = await runScript(entry.functionName, [], "menu").finally(() => {
    state.menuRunning = null;
  });
  // The control API gives a shown sidebar no identity, and showing the same HTML again looks
  // the same from here. Sheets reloads the sidebar on every showSidebar: when the item that
  // opened this sidebar runs again, load it afresh.
  if (
    result.ok &&
    state.lastSidebar &&
    state.sidebarKey !== null &&
    state.sidebarKey === keyBefore &&
    state.sidebarOpener === entry.functionName
  ) {
    showFrame("sidebar", state.lastSidebar);
  }
  // Sheets shows a failed menu item as an error notice at the top of the grid.
  if (!result.ok)
    showToast({ key: `error-${Date.now()}`, message: result.error, title: "Error", seconds: 10 }, true);
}

// ---- sidebar, dialogs, alerts and toasts -------------------------------------------------

async function refreshUi(): Promise<void> {
  const ui = await control.ui();
  applyUi(ui);
}

function applyUi(ui: UiState): void {
  if (ui.addonMenu && JSON.stringify(ui.addonMenu) !== JSON.stringify(state.menu)) {
    state.menu = ui.addonMenu;
    renderMenu();
  }
  if (ui.sidebar && ui.sidebar.key !== state.sidebarKey && ui.sidebar.key !== state.dismissedSidebarKey) {
    showFrame("sidebar", ui.sidebar);
    state.sidebarKey = ui.sidebar.key;
    state.sidebarOpener = state.menuRunning;
    state.lastSidebar = ui.sidebar;
  } else if (!ui.sidebar && state.sidebarKey !== null) {
    hideFrame("sidebar");
  }
  if (ui.dialog && ui.dialog.key !== state.dialogKey) {
    showFrame("dialog", ui.dialog);
    state.dialogKey = ui.dialog.key;
  } else if (!ui.dialog && state.dialogKey !== null) {
    hideFrame("dialog");
  }
  for (const toast of ui.toasts) {
    if (state.seenToasts.has(toast.key)) continue;
    state.seenToasts.add(toast.key);
    showToast(toast, false);
  }
  showQuestion(ui);
}

/** The built HTML with google.script bridged to the page, inlined before anything else runs. */
function withBridge(html: string): string {
  const safe = (code: string) => code.replace(/<\/script/gi, "<\\/script");
  const scripts =
    `<script>window.__PLAYGROUND_FUNCTIONS__=${safe(JSON.stringify(state.functions))};</script>` +
    `<script>${safe(state.bridgeScript)}</script>`;
  const head = /<head[^>]*>/i.exec(html);
  if (head)
    return html.slice(0, head.index + head[0].length) + scripts + html.slice(head.index + head[0].length);
  return scripts + html;
}

function frameOf(kind: "sidebar" | "dialog"): HTMLIFrameElement {
  return $<HTMLIFrameElement>(kind === "sidebar" ? "sidebar-frame" : "dialog-frame");
}

function showFrame(kind: "sidebar" | "dialog", shown: ShownHtml): void {
  $(kind === "sidebar" ? "sidebar" : "dialog-layer").hidden = false;
  document.body.classList.toggle("with-sidebar", kind === "sidebar" || !$("sidebar").hidden);
  // A new frame each time, made once its box is shown: Chromium runs a sandboxed frame in a
  // process of its own, and a frame that was hidden (display: none) while its document was
  // replaced could stay undrawn once shown again (every sidebar blank after a reset).
  const old = frameOf(kind);
  const frame = old.cloneNode(false) as HTMLIFrameElement;
  frame.removeAttribute("srcdoc");
  old.replaceWith(frame);
  frame.title = shown.title || (kind === "sidebar" ? "Sidebar" : "Dialog");
  $(`${kind}-title`).textContent = shown.title;
  if (kind === "dialog") {
    frame.style.width = `${Math.min(shown.width ?? 600, window.innerWidth - 40)}px`;
    frame.style.height = `${Math.min(shown.height ?? 400, window.innerHeight - 120)}px`;
  }
  frame.srcdoc = withBridge(shown.html);
}

/** Closes a sidebar or dialog here and in the emulation (google.script.host.close()). */
function closeFrame(kind: "sidebar" | "dialog"): void {
  hideFrame(kind);
  void control.closeUi(kind).catch(showError);
}

function hideFrame(kind: "sidebar" | "dialog"): void {
  if (kind === "sidebar") {
    state.dismissedSidebarKey = state.sidebarKey;
    state.sidebarKey = null;
    $("sidebar").hidden = true;
    document.body.classList.remove("with-sidebar");
  } else {
    state.dialogKey = null;
    $("dialog-layer").hidden = true;
  }
  frameOf(kind).srcdoc = "";
}

function wireBridge(): void {
  window.addEventListener("message", (event: MessageEvent) => {
    const data = event.data as {
      source?: string;
      type?: string;
      id?: number;
      function?: string;
      args?: unknown[];
    };
    if (data?.source !== "playground-frame") return;
    const kind =
      event.source === frameOf("sidebar").contentWindow
        ? "sidebar"
        : event.source === frameOf("dialog").contentWindow
          ? "dialog"
          : null;
    if (!kind) return;
    const reply = event.source as Window;
    if (data.type === "run" && typeof data.function === "string") {
      // A sidebar's call runs as google.script.run does, even when a menu item has the same name.
      void runScript(data.function, Array.isArray(data.args) ? data.args : [], "script.run").then(
        (result) => {
          reply.postMessage({ source: "playground", type: "result", id: data.id, ...result }, "*");
        },
      );
    } else if (data.type === "close") {
      closeFrame(kind);
    }
  });
  $("sidebar-close").addEventListener("click", () => closeFrame("sidebar"));
  $("dialog-close").addEventListener("click", () => closeFrame("dialog"));
}

function showQuestion(ui: UiState): void {
  const layer = $("alert-layer");
  const q = ui.waiting;
  if (!q) {
    state.answeredQuestion = null;
    if (!state.answering) layer.hidden = true;
    return;
  }
  // A snapshot taken before the answer landed still shows the question just answered.
  const key = JSON.stringify(q);
  if (!layer.hidden || state.answering || key === state.answeredQuestion) return;
  state.shownQuestion = key;
  $("alert-title").textContent = q.title;
  $("alert-message").textContent = q.message;
  const input = $<HTMLInputElement>("prompt-input");
  $("prompt-field").hidden = q.kind !== "prompt";
  input.value = "";
  const buttons = q.buttons.map((name) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = BUTTON_LABELS[state.language][name] ?? name;
    b.dataset.testid = `alert-button-${name}`;
    b.className = name === "OK" || name === "YES" ? "answer primary" : "answer";
    b.addEventListener("click", () => answer(name, q.kind === "prompt" ? input.value : undefined));
    return b;
  });
  $("alert-buttons").replaceChildren(...buttons);
  // The title bar's X answers CLOSE, as in Sheets; so does Escape.
  $("alert-close").onclick = () => answer("CLOSE", q.kind === "prompt" ? input.value : undefined);
  layer.onkeydown = (e) => {
    if (e.key === "Escape") answer("CLOSE", q.kind === "prompt" ? input.value : undefined);
  };
  layer.hidden = false;
  (q.kind === "prompt" ? input : buttons[0])?.focus();
}

/** The buttons' words in the document's language (Sheets uses the user's; see control.documentLanguage). */
const BUTTON_LABELS: Record<"en" | "es", Record<ButtonName, string>> = {
  en: { OK: "OK", CANCEL: "Cancel", YES: "Yes", NO: "No", CLOSE: "Close" },
  es: { OK: "Aceptar", CANCEL: "Cancelar", YES: "Sí", NO: "No", CLOSE: "Cerrar" },
};

/** Reads the document's language again (after a run: saving the settings may have changed it). */
async function refreshLanguage(): Promise<void> {
  state.language = await control.documentLanguage().catch(() => state.language);
  $("alert-layer").lang = state.language;
  $("alert-close").setAttribute("aria-label", BUTTON_LABELS[state.language].CLOSE);
}

function answer(button: ButtonName, text?: string): void {
  state.answering = true;
  state.answeredQuestion = state.shownQuestion;
  $("alert-layer").hidden = true;
  void control
    .answer(button, text)
    .catch(showError)
    .finally(() => {
      state.answering = false;
    });
}

function showToast(
  toast: { key: string; message: string; title: string; seconds: number },
  error: boolean,
): void {
  const box = document.createElement("div");
  box.className = error ? "toast error" : "toast";
  box.dataset.testid = error ? "error-toast" : "toast";
  box.setAttribute("role", error ? "alert" : "status");
  if (toast.title) {
    const title = document.createElement("strong");
    title.textContent = toast.title;
    box.appendChild(title);
  }
  const message = document.createElement("span");
  message.textContent = toast.message;
  box.appendChild(message);
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "×";
  close.setAttribute("aria-label", "Dismiss");
  close.className = "close";
  close.addEventListener("click", () => box.remove());
  box.appendChild(close);
  $("toasts").appendChild(box);
  // A negative duration stays until dismissed, as in Sheets.
  if (toast.seconds >= 0) window.setTimeout(() => box.remove(), Math.max(toast.seconds, 3) * 1000);
}

// ---- the panel: schedule, faults, reset, user ----------------------------------------------

function wirePanel(): void {
  $("fire-trigger").addEventListener("click", () => {
    setStatus("Firing the scheduled trigger…", "busy");
    void control
      .fireTriggers(state.user || undefined)
      .then((body) => {
        const fired = Array.isArray(body) ? body.length : (body as { fired?: unknown })?.fired;
        // Only the acting user's triggers run (a schedule runs as the user who set it): a bare
        // "(0)" would leave them wondering why nothing happened.
        if (fired === 0) {
          const who = $<HTMLSelectElement>("acting-user").value;
          setStatus(
            `No scheduled refresh of ${who} to fire: set one in Settings, under Scheduled refresh (it runs as the user who set it).`,
          );
        } else
          setStatus(`Scheduled trigger fired${fired !== undefined ? ` (${JSON.stringify(fired)})` : ""}`);
      })
      .catch(showError)
      .finally(() => Promise.all([refreshSheets(), refreshUi()]).catch(showError));
  });
  const presets = $<HTMLSelectElement>("fault-preset");
  presets.replaceChildren(
    ...FAULT_PRESETS.map((p) => {
      const o = document.createElement("option");
      o.value = p.id;
      o.textContent = p.label;
      return o;
    }),
  );
  $("fault-apply").addEventListener("click", () => {
    const preset = FAULT_PRESETS.find((p) => p.id === presets.value);
    if (!preset) return;
    const chosen = $<HTMLSelectElement>("fault-company").value;
    const targets = faultTargets(chosen);
    // One company's fault first clears the others', so that what the panel says is what is on.
    const others = faultTargets(EVERY_COMPANY).filter((c) => !targets.includes(c));
    const where = chosen === EVERY_COMPANY || targets[0] === undefined ? "" : ` (${chosen})`;
    void Promise.all(others.map((c) => control.clearFaults(c)))
      .then(() => Promise.all(targets.map((c) => control.setFaults(preset.faults, c))))
      .then(() => {
        $("fault-active").textContent = `Active: ${preset.label}${where}`;
        setStatus(`Sandbox fault on: ${preset.label}${where}`);
      })
      .catch(showError);
  });
  $("clock-advance").addEventListener("click", () => {
    void control
      .advanceClock(5 * 60_000)
      .then(() => setStatus("The clock moved 5 minutes ahead"))
      .catch(showError);
  });
  $("fault-clear").addEventListener("click", () => {
    void Promise.all(faultTargets(EVERY_COMPANY).map((c) => control.clearFaults(c)))
      .then(() => {
        $("fault-active").textContent = "Active: none";
        setStatus("Sandbox faults cleared");
      })
      .catch(showError);
  });
  $("reset").addEventListener("click", () => {
    setStatus("Resetting…", "busy");
    // The sandbox resets only when the playground runs on it; another service keeps its data.
    void control
      .resetSandbox()
      .catch(() => undefined)
      .then(() => control.reset())
      .then(async () => {
        hideFrame("sidebar");
        hideFrame("dialog");
        state.dismissedSidebarKey = null;
        $("fault-active").textContent = "Active: none";
        await loadAll();
        setStatus("Reset done");
      })
      .catch(showError);
  });
  $<HTMLSelectElement>("acting-user").addEventListener("change", (e) => {
    state.user = (e.target as HTMLSelectElement).value;
    setStatus(`Acting as ${state.user}`);
    void control.menu().then((menu) => {
      state.menu = menu;
      renderMenu();
    });
  });
}

/** The fault picker's choice that sets a fault on every company. */
const EVERY_COMPANY = "";

/** The named companies of the spreadsheet (none for a one-company spreadsheet). */
function namedCompanies(): string[] {
  const companies = state.info?.companies ?? [];
  return companies.length > 1 ? companies.map((c) => c.name).filter((n) => n !== "") : [];
}

/**
 * The companies a fault goes to: the one chosen, or every one. `undefined` stands for the
 * sandbox's default company, that of a one-company spreadsheet.
 */
function faultTargets(chosen: string): Array<string | undefined> {
  const names = namedCompanies();
  if (names.length === 0) return [undefined];
  return chosen === EVERY_COMPANY ? names : [chosen];
}

/** The fault picker's company choice: shown only when the spreadsheet has two companies or more. */
function renderFaultCompanies(): void {
  const select = $<HTMLSelectElement>("fault-company");
  const names = namedCompanies();
  const before = select.value;
  select.replaceChildren(
    ...[EVERY_COMPANY, ...names].map((name) => {
      const o = document.createElement("option");
      o.value = name;
      o.textContent = name === EVERY_COMPANY ? "every company" : name;
      o.selected = name === before;
      return o;
    }),
  );
  select.hidden = names.length === 0;
  $("fault-company-label").hidden = names.length === 0;
}

function renderUsers(): void {
  const select = $<HTMLSelectElement>("acting-user");
  const users = state.info?.users.length ? state.info.users : [state.info?.user ?? ""].filter(Boolean);
  if (!state.user) state.user = state.info?.user || users[0] || "";
  select.replaceChildren(
    ...users.map((u) => {
      const o = document.createElement("option");
      o.value = u;
      o.textContent = u;
      o.selected = u === state.user;
      return o;
    }),
  );
}

// ---- start ------------------------------------------------------------------------------

async function loadAll(options: { quietToasts?: boolean } = {}): Promise<void> {
  const [info, menu, ui] = await Promise.all([control.info(), control.menu(), control.ui()]);
  // Toasts shown before the page was (re)loaded are history, not news: they do not pop up again.
  if (options.quietToasts) for (const toast of ui.toasts) state.seenToasts.add(toast.key);
  state.info = info;
  state.menu = menu;
  $("document-title").textContent = info.spreadsheetName || "Untitled spreadsheet";
  $("api-url").textContent = info.apiUrl;
  renderUsers();
  renderFaultCompanies();
  renderMenu();
  await Promise.all([refreshSheets(), refreshLanguage()]);
  applyUi(ui);
}

async function start(): Promise<void> {
  wireMenu();
  wireBridge();
  wirePanel();
  const [bridge, functions] = await Promise.all([
    fetch("bridge.js").then((r) => r.text()),
    fetch("functions.json").then((r) => r.json() as Promise<string[]>),
  ]);
  state.bridgeScript = bridge;
  state.functions = functions;
  await loadAll({ quietToasts: true });
  // Loading the page is opening the spreadsheet: onOpen runs, as in Sheets (the menu in the
  // document's language, a notice of a failed scheduled refresh).
  if (state.functions.includes("onOpen")) {
    await control.run("onOpen", [], "simple", state.user || undefined);
    await refreshUi();
  }
  document.body.dataset.ready = "1";
  setStatus("Ready");
}

start().catch(showError);
