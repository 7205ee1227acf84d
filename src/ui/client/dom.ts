/**
 * Building a sidebar page from DOM nodes: strings become text nodes, never markup, so nothing
 * the server or the service sends can run in the page.
 */
import { t } from "./language";

/** An element with attributes and children; strings become text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children)
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

/**
 * Loads a sidebar's view from the server and shows it in `app`, busy meanwhile. A failure (of
 * the call or of showing) replaces the page with its message, and the page still says it is
 * ready, so that the user (and a test) sees the reason instead of a page that never loads.
 */
export async function loadSidebarView<V>(
  app: HTMLElement,
  load: () => Promise<V>,
  show: (view: V) => void,
): Promise<void> {
  app.setAttribute("aria-busy", "true");
  try {
    show(await load());
  } catch (error) {
    const shown = el("p", { class: "status error", role: "alert" });
    showMessage(shown, (error as Error)?.message ?? String(error));
    app.replaceChildren(shown);
    app.setAttribute("data-ready", "1");
  } finally {
    app.removeAttribute("aria-busy");
  }
}

/**
 * Runs `work` with `buttons` disabled, so that a click meanwhile cannot start it twice; they
 * come back when it settles, whether it succeeded or failed.
 */
export async function whileDisabled<T>(buttons: HTMLButtonElement[], work: () => Promise<T>): Promise<T> {
  for (const b of buttons) b.disabled = true;
  try {
    return await work();
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

/**
 * Shows `text` in `node`: its plain sentence as text, and the technical part the server put
 * after a blank line ("Details: …", src/api/plain.ts) behind a "Details" toggle.
 */
export function showMessage(node: HTMLElement, text: string): void {
  const at = text.indexOf("\n\n");
  if (at < 0) {
    node.textContent = text;
    return;
  }
  const label = t("error.details");
  const detail = text.slice(at + 2);
  node.replaceChildren(
    text.slice(0, at),
    el(
      "details",
      {},
      el("summary", {}, label),
      detail.startsWith(`${label}: `) ? detail.slice(label.length + 2) : detail,
    ),
  );
}
