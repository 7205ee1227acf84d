/**
 * The refresh sidebar: one button per refresh, a status line that says what is running and, at
 * the end, what was done (records, calls, seconds) or why it failed. Buttons are disabled while
 * a refresh runs, so one click cannot start two. Built with textContent only.
 */
import type * as RefreshServer from "../../../app/refresh";
import { whileDisabled } from "../../client/dom";
import { setLanguage, speak, t } from "../../client/language";
import { serverFunctions } from "../../client/server";
import type { StringKey } from "../../strings";

const server = serverFunctions<typeof RefreshServer>();

const KINDS: { kind: string; label: StringKey }[] = [
  { kind: "funds", label: "menu.refreshFunds" },
  { kind: "transactions", label: "menu.refreshTransactions" },
  { kind: "reports", label: "menu.refreshReports" },
  { kind: "all", label: "menu.refreshAll" },
  { kind: "selected", label: "menu.refreshSelected" },
];

function render(app: HTMLElement): void {
  app.textContent = "";
  const heading = document.createElement("h1");
  heading.textContent = t("refresh.title");
  const status = document.createElement("p");
  status.id = "refresh-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
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
  app.append(heading, list, status);
  app.setAttribute("aria-busy", "false");

  function start(kind: string, label: StringKey): Promise<void> {
    return whileDisabled(buttons, async () => {
      app.setAttribute("aria-busy", "true");
      status.className = "";
      status.textContent = t("refresh.sidebar.running", { what: t(label) });
      try {
        const summary = await server.refreshFromSidebar(kind);
        status.className = summary.ok ? "ok" : "problem";
        status.textContent = summary.message;
      } catch (err) {
        status.className = "problem";
        status.textContent = err instanceof Error ? err.message : String(err);
      } finally {
        app.setAttribute("aria-busy", "false");
      }
    });
  }
}

async function main(): Promise<void> {
  const app = document.getElementById("app");
  if (!app) return;
  try {
    const view = await server.getRefreshSidebarView();
    setLanguage(view.language);
  } catch (_err) {
    speak("en");
  }
  render(app);
}

void main();
