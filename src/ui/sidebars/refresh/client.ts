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

function render(app: HTMLElement, view: View | null): void {
  app.textContent = "";
  const heading = document.createElement("h1");
  heading.textContent = t("refresh.title");
  const status = document.createElement("p");
  status.id = "refresh-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const progress = document.createElement("progress");
  progress.id = "refresh-progress";
  progress.max = 100;
  progress.value = 0;
  progress.hidden = true;
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.id = "refresh-cancel";
  cancel.textContent = t("refresh.sidebar.cancel");
  cancel.hidden = true;
  const resume = document.createElement("button");
  resume.type = "button";
  resume.id = "refresh-continue";
  resume.textContent = t("refresh.sidebar.continue");
  resume.hidden = true;
  let cancelled = false;
  cancel.addEventListener("click", () => {
    cancelled = true;
    cancel.disabled = true;
  });

  const buttons = KINDS.map(({ kind, label }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `refresh-${kind}`;
    button.textContent = t(label);
    button.addEventListener("click", () => void start(kind, label));
    return button;
  });
  const list = document.createElement("div");
  list.className = "actions";
  list.append(...buttons);
  const controls = document.createElement("div");
  controls.className = "actions";
  controls.append(resume, cancel);
  // How fresh each data sheet is; drawn again after each run.
  const fresh = document.createElement("ul");
  fresh.id = "refresh-fresh";
  fresh.className = "hint";
  const showFresh = (lines: readonly string[]) => {
    fresh.replaceChildren(
      ...lines.map((line) => {
        const item = document.createElement("li");
        item.textContent = line;
        return item;
      }),
    );
  };
  // With several companies: each one's last refresh and whether this user can refresh it, and
  // while a refresh runs, which of them it is refreshing. Drawn again after each run.
  const companies = document.createElement("div");
  companies.id = "refresh-companies";
  type Companies = NonNullable<View["companies"]>;
  let shownCompanies: Companies | null = null;
  const showCompanies = (list: Companies | null | undefined, running = false) => {
    shownCompanies = list ?? null;
    companies.replaceChildren(
      ...(list ?? []).map((company) => {
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
        lines.append(
          ...company.fresh.map((line) => {
            const item = document.createElement("li");
            item.textContent = line;
            return item;
          }),
        );
        section.append(name, state, lines);
        return section;
      }),
    );
    // The first company's lines are in its own section.
    fresh.hidden = (list ?? []).length > 0;
  };
  showFresh(view?.fresh ?? []);
  showCompanies(view?.companies);
  app.append(heading, list, progress, controls, status, fresh, companies);
  app.setAttribute("aria-busy", "false");

  const offerContinue = (kind: string, label: StringKey, percent: number) => {
    resume.hidden = false;
    resume.onclick = () => void start(kind, label);
    progress.hidden = false;
    progress.value = percent;
  };

  if (view?.paused) {
    const paused = view.paused;
    const label = KINDS.find((k) => k.kind === paused.kind)?.label ?? "menu.refreshAll";
    status.textContent = t("refresh.sidebar.paused", { action: paused.action, percent: paused.percent });
    offerContinue(paused.kind, label, paused.percent);
    if (paused.continueNow) void start(paused.kind, label);
  }

  /** Draws each company again from a fresh view; kept as it was when the view cannot be read. */
  async function redrawCompanies(running: boolean): Promise<void> {
    try {
      showCompanies((await server.getRefreshSidebarView()).companies, running);
    } catch (_err) {
      if (shownCompanies) showCompanies(shownCompanies, running);
    }
  }

  function start(kind: string, label: StringKey): Promise<void> {
    return whileDisabled([...buttons, resume], async () => {
      app.setAttribute("aria-busy", "true");
      cancelled = false;
      cancel.disabled = false;
      cancel.hidden = false;
      resume.hidden = true;
      progress.hidden = kind === "selected";
      status.className = "";
      status.textContent = t("refresh.sidebar.running", { what: t(label) });
      if (shownCompanies) showCompanies(shownCompanies, true);
      let records = 0;
      let calls = 0;
      let seconds = 0;
      try {
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
          if (cancelled) {
            status.textContent = t("refresh.sidebar.cancelled", { records });
            offerContinue(kind, label, progress.value);
            return;
          }
          status.textContent = t("refresh.sidebar.piece", {
            what: t(label),
            percent: summary.percent,
            piece: piece + 1,
          });
          // Each company's sheets done so far (their stamps), drawn again between pieces.
          if (shownCompanies) await redrawCompanies(true);
        }
      } catch (err) {
        status.className = "problem";
        showMessage(status, err instanceof Error ? err.message : String(err));
      } finally {
        cancel.hidden = true;
        app.setAttribute("aria-busy", "false");
        try {
          const next = await server.getRefreshSidebarView();
          showFresh(next.fresh ?? []);
          showCompanies(next.companies);
        } catch (_err) {
          if (shownCompanies) showCompanies(shownCompanies);
          // The lines stay as they were; the status line already says how the run ended.
        }
      }
    });
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
