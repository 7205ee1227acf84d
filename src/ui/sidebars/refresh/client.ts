/**
 * The refresh sidebar: one button per refresh, a status line that says what is running and, at
 * the end, what was done (records, calls, seconds) or why it failed. Buttons are disabled while
 * a refresh runs, so one click cannot start two. Built with textContent only.
 *
 * A refresh longer than one execution goes on from here: each call to the server runs one
 * piece inside Google's time limit and keeps where it stopped; the page calls again, piece
 * after piece, with a progress bar and a Cancel button. Closing the sidebar (or Cancel) leaves
 * the refresh where it stopped: opening the sidebar again offers Continue. No extra trigger is
 * needed, which add-ons could only run once an hour.
 */
import type * as RefreshServer from "../../../app/refresh-sidebar";
import type { StringKey } from "../../../i18n";
import { showMessage, whileDisabled } from "../../client/dom";
import { setLanguage, speak, t } from "../../client/language";
import { serverFunctions } from "../../client/server";

const server = serverFunctions<typeof RefreshServer>();

const KINDS: { kind: string; label: StringKey }[] = [
  { kind: "funds", label: "menu.refreshFunds" },
  { kind: "transactions", label: "menu.refreshTransactions" },
  { kind: "reports", label: "menu.refreshReports" },
  { kind: "all", label: "menu.refreshAll" },
  { kind: "selected", label: "menu.refreshSelected" },
];

/** Pieces one click may run before it stops by itself (a refresh that never ends is a fault). */
const MAX_PIECES = 200;

type View = Awaited<ReturnType<typeof server.getRefreshSidebarView>>;
type Companies = NonNullable<View["companies"]>;

/** The parts of the page a refresh changes, and what it last drew. */
interface RefreshPage {
  app: HTMLElement;
  /** One per refresh, disabled while one runs. */
  buttons: HTMLButtonElement[];
  progress: HTMLProgressElement;
  resume: HTMLButtonElement;
  cancel: HTMLButtonElement;
  status: HTMLParagraphElement;
  /** How fresh each data sheet is; drawn again after each run. */
  fresh: HTMLUListElement;
  /**
   * With several companies: each one's last refresh and whether this user can refresh it, and
   * while a refresh runs, which of them it is refreshing. Drawn again after each run.
   */
  companies: HTMLDivElement;
  /** Set by Cancel: the run stops after the piece under way. */
  cancelled: boolean;
  /** The companies drawn last, drawn again as they were when a fresh view cannot be read. */
  shownCompanies: Companies | null;
}

function render(app: HTMLElement, view: View | null): void {
  app.textContent = "";
  const page = refreshPage(app);
  showFresh(page, view?.fresh ?? []);
  showCompanies(page, view?.companies);
  const list = actions(...page.buttons);
  const controls = actions(page.resume, page.cancel);
  const heading = document.createElement("h1");
  heading.textContent = t("refresh.title");
  app.append(heading, list, page.progress, controls, page.status, page.fresh, page.companies);
  app.setAttribute("aria-busy", "false");

  if (view?.paused) {
    const paused = view.paused;
    const label = KINDS.find((k) => k.kind === paused.kind)?.label ?? "menu.refreshAll";
    page.status.textContent = t("refresh.sidebar.paused", { action: paused.action, percent: paused.percent });
    offerContinue(page, paused.kind, label, paused.percent);
    if (paused.continueNow) void start(page, paused.kind, label);
  }
}

/** The page's parts, not yet in the page: its buttons start a refresh, Cancel stops one. */
function refreshPage(app: HTMLElement): RefreshPage {
  const status = document.createElement("p");
  status.id = "refresh-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const progress = document.createElement("progress");
  progress.id = "refresh-progress";
  progress.max = 100;
  progress.value = 0;
  progress.hidden = true;
  const fresh = document.createElement("ul");
  fresh.id = "refresh-fresh";
  fresh.className = "hint";
  const companies = document.createElement("div");
  companies.id = "refresh-companies";
  const page: RefreshPage = {
    app,
    buttons: [],
    progress,
    resume: button("refresh-continue", t("refresh.sidebar.continue")),
    cancel: button("refresh-cancel", t("refresh.sidebar.cancel")),
    status,
    fresh,
    companies,
    cancelled: false,
    shownCompanies: null,
  };
  page.resume.hidden = true;
  page.cancel.hidden = true;
  page.cancel.addEventListener("click", () => {
    page.cancelled = true;
    page.cancel.disabled = true;
  });
  page.buttons = KINDS.map(({ kind, label }) => {
    const refresh = button(`refresh-${kind}`, t(label));
    refresh.addEventListener("click", () => void start(page, kind, label));
    return refresh;
  });
  return page;
}

function button(id: string, text: string): HTMLButtonElement {
  const made = document.createElement("button");
  made.type = "button";
  made.id = id;
  made.textContent = text;
  return made;
}

function actions(...buttons: HTMLButtonElement[]): HTMLDivElement {
  const row = document.createElement("div");
  row.className = "actions";
  row.append(...buttons);
  return row;
}

/** One list item per line, as text. */
function listItems(lines: readonly string[]): HTMLLIElement[] {
  return lines.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  });
}

function showFresh(page: RefreshPage, lines: readonly string[]): void {
  page.fresh.replaceChildren(...listItems(lines));
}

/** Draws each company (none with one company); `running` says the ready ones are refreshing. */
function showCompanies(page: RefreshPage, list: Companies | null | undefined, running = false): void {
  page.shownCompanies = list ?? null;
  page.companies.replaceChildren(...(list ?? []).map((company) => companySection(company, running)));
  // The first company's lines are in its own section.
  page.fresh.hidden = (list ?? []).length > 0;
}

/** One company: its name, its status (refreshing while `running`) and how fresh its sheets are. */
function companySection(company: Companies[number], running: boolean): HTMLElement {
  const section = document.createElement("section");
  section.className = "company";
  section.dataset["company"] = company.key;
  section.dataset["status"] = company.status;
  const name = document.createElement("h2");
  name.textContent = company.name;
  const state = document.createElement("p");
  state.className = company.status === "ready" ? "company-status" : "company-status problem";
  state.textContent =
    running && company.status === "ready" ? t("refresh.company.running") : company.statusText;
  const lines = document.createElement("ul");
  lines.className = "hint";
  lines.append(...listItems(company.fresh));
  section.append(name, state, lines);
  return section;
}

/** Shows the Continue button (going on with `kind` where it stopped) and the progress so far. */
function offerContinue(page: RefreshPage, kind: string, label: StringKey, percent: number): void {
  page.resume.hidden = false;
  page.resume.onclick = () => void start(page, kind, label);
  page.progress.hidden = false;
  page.progress.value = percent;
}

/**
 * Runs the refresh `kind`, piece after piece, with every refresh button disabled meanwhile;
 * then draws how fresh the sheets are from a fresh view.
 */
function start(page: RefreshPage, kind: string, label: StringKey): Promise<void> {
  return whileDisabled([...page.buttons, page.resume], async () => {
    page.app.setAttribute("aria-busy", "true");
    page.cancelled = false;
    page.cancel.disabled = false;
    page.cancel.hidden = false;
    page.resume.hidden = true;
    page.progress.hidden = kind === "selected";
    page.status.className = "";
    page.status.textContent = t("refresh.sidebar.running", { what: t(label) });
    if (page.shownCompanies) showCompanies(page, page.shownCompanies, true);
    try {
      await runPieces(page, kind, label);
    } catch (err) {
      page.status.className = "problem";
      showMessage(page.status, err instanceof Error ? err.message : String(err));
    } finally {
      page.cancel.hidden = true;
      page.app.setAttribute("aria-busy", "false");
      await redrawAfterRun(page);
    }
  });
}

/**
 * Calls the server for one piece of the refresh after another (at most MAX_PIECES), the
 * progress and status drawn after each, until it is done, fails or is cancelled.
 */
async function runPieces(page: RefreshPage, kind: string, label: StringKey): Promise<void> {
  const { progress, status } = page;
  let records = 0;
  let calls = 0;
  let seconds = 0;
  for (let piece = 1; piece <= MAX_PIECES; piece += 1) {
    const summary = await server.refreshFromSidebar(kind);
    records += summary.records;
    calls += summary.calls;
    seconds += summary.seconds;
    const percent = Number(summary.percent);
    if (Number.isFinite(percent)) progress.value = percent;
    else if (summary.finished) progress.value = 100;
    if (!summary.ok || summary.finished) {
      status.className = summary.ok ? "ok" : "problem";
      showMessage(
        status,
        summary.ok && piece > 1
          ? t("refresh.sidebar.done", {
              records,
              calls,
              seconds: Math.round(seconds * 10) / 10,
              pieces: piece,
            })
          : summary.message,
      );
      return;
    }
    if (page.cancelled) {
      status.textContent = t("refresh.sidebar.cancelled", { records });
      offerContinue(page, kind, label, progress.value);
      return;
    }
    status.textContent = t("refresh.sidebar.piece", {
      what: t(label),
      percent: summary.percent,
      piece: piece + 1,
    });
    // Each company's sheets done so far (their stamps), drawn again between pieces.
    if (page.shownCompanies) await redrawCompanies(page, true);
  }
}

/** Draws each company again from a fresh view; kept as it was when the view cannot be read. */
async function redrawCompanies(page: RefreshPage, running: boolean): Promise<void> {
  try {
    showCompanies(page, (await server.getRefreshSidebarView()).companies, running);
  } catch (_err) {
    if (page.shownCompanies) showCompanies(page, page.shownCompanies, running);
  }
}

/** After a run: how fresh the sheets and each company are, from a fresh view. */
async function redrawAfterRun(page: RefreshPage): Promise<void> {
  try {
    const next = await server.getRefreshSidebarView();
    showFresh(page, next.fresh ?? []);
    showCompanies(page, next.companies);
  } catch (_err) {
    if (page.shownCompanies) showCompanies(page, page.shownCompanies);
    // The lines stay as they were; the status line already says how the run ended.
  }
}

async function main(): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  let view: View | null = null;
  try {
    view = await server.getRefreshSidebarView();
    setLanguage(view.language);
  } catch (_err) {
    speak("en");
  }
  render(app, view);
}

void main();
