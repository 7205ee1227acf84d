/**
 * One Chromium per browser test file: Debian's build, headless, a fresh profile directory.
 * Missing Chromium is a failure with a clear message, never a skip.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell: the same Chromium
 * release, built without the browser's window layer, the shell Playwright's own headless runs
 * use) when it is installed, else Debian's chromium; CHROMIUM_PATH overrides both. The shell
 * draws and runs the pages as the full browser does, for about a fifth less CPU over the suite
 * (docs/benchmark.md, "The test suite's time").
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const SCREENSHOT_DIR = resolve(import.meta.dirname, "../../test-results/screenshots");

export interface Browser {
  /**
   * The context: its newPage() gives a page put aside earlier when there is one (a new renderer
   * costs about half a second of CPU on these machines), and a page's close() puts it aside,
   * blank, with no listener (but on close and crash) or route, the mouse outside it and the
   * first viewport.
   */
  context: BrowserContext;
  /** Closes (puts aside) every page opened and still open: after each test of a file. */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

const VIEWPORT = { width: 1280, height: 800 };

/** A page's events, but close and crash (Playwright listens to those itself). */
const PAGE_EVENTS = [
  "console",
  "dialog",
  "domcontentloaded",
  "download",
  "filechooser",
  "frameattached",
  "framedetached",
  "framenavigated",
  "load",
  "pageerror",
  "popup",
  "request",
  "requestfailed",
  "requestfinished",
  "response",
  "websocket",
  "worker",
] as const;

/** Launches Chromium once; throws (the suite fails) when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. The browser tests need Debian's Chromium: ` +
        "`apt-get install chromium-headless-shell` (or `chromium`; .ci/run installs the first). " +
        "These tests fail rather than skip without it.",
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "playground-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    timeout: 30_000,
  });
  context.setDefaultTimeout(20_000);
  const aside: Page[] = [];
  const open = new Set<Page>();
  const newPage = context.newPage.bind(context);
  // A page put aside starts again from a new blank document: a navigation gives it a new window
  // (no global, timer or handler of the page before), and nothing the test registered on it stays.
  const putAside = async (page: Page, close: Page["close"]): Promise<void> => {
    open.delete(page);
    if (page.isClosed()) return;
    const reset = async () => {
      // Every event a test may listen to, but not close and crash: Playwright's own listeners on
      // those end what waits on the page when it closes.
      for (const event of PAGE_EVENTS) await page.removeAllListeners(event);
      await page.mouse.move(-1, -1);
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await page.goto("about:blank", { timeout: 5_000 });
      await page.setViewportSize(VIEWPORT);
    };
    // The mouse and the viewport take no timeout: a page that does not answer within the bound
    // is closed for good instead (and never waited on past it), not put aside.
    if (await within(PUT_ASIDE_MS, reset())) aside.push(page);
    else await within(PUT_ASIDE_MS, close());
  };
  context.newPage = async () => {
    const page = aside.pop() ?? (await newPage());
    const close = ownClose(page);
    page.close = () => putAside(page, close);
    open.add(page);
    return page;
  };
  return {
    context,
    async closePages() {
      await Promise.all([...open].map((page) => page.close()));
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const PUT_ASIDE_MS = 15_000;

/** Whether `work` settles well within `ms`; its failure or lateness is false, never thrown. */
async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = work.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The page's own close(), whatever it was set to since. */
function ownClose(page: Page): Page["close"] {
  const own = Object.getPrototypeOf(page).close as Page["close"];
  return (options) => own.call(page, options);
}

/**
 * Saves a screenshot under test-results/screenshots/<name>.png and returns its path: the page,
 * or only `area` of it (a sidebar, the grid), for a picture that stays small.
 */
export async function screenshot(page: Page, name: string, area?: Locator): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await (area ?? page).screenshot({ path });
  return path;
}

/** Collects errors thrown in the page or its frames, so a test can assert there were none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}
