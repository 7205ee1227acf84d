/**
 * `google.script` inside a sidebar or dialog of the playground. The real built HTML from dist/
 * runs in a sandboxed iframe (an opaque origin, as Google's IFRAME mode), so every call goes to
 * the page by postMessage and the page runs it through POST /control/run.
 *
 * Like Google's client: `google.script.run` has one method per callable server function (top-level,
 * not ending in `_`); `withSuccessHandler`, `withFailureHandler` and `withUserObject` return a
 * runner that remembers them; arguments are checked before the call leaves (a Date or a function
 * throws); handlers run asynchronously with the result or an Error, and the user object.
 */
import { checkScriptArguments } from "../script-args";

declare global {
  interface Window {
    __PLAYGROUND_FUNCTIONS__?: string[];
  }
}

type Handler = (value: unknown, userObject: unknown) => void;

interface RunnerState {
  success?: Handler;
  failure?: Handler;
  userObject?: unknown;
}

interface ResultMessage {
  source: "playground";
  type: "result";
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

const pending = new Map<number, RunnerState>();
let nextId = 1;

function post(message: Record<string, unknown>): void {
  window.parent.postMessage({ source: "playground-frame", ...message }, "*");
}

window.addEventListener("message", (event: MessageEvent) => {
  if (event.source !== window.parent) return;
  const data = event.data as ResultMessage;
  if (data?.source !== "playground" || data.type !== "result") return;
  const state = pending.get(data.id);
  if (!state) return;
  pending.delete(data.id);
  if (data.ok) state.success?.(data.result ?? null, state.userObject);
  else if (state.failure) {
    const error = new Error(data.error ?? "The script failed");
    error.name = "ScriptError";
    state.failure(error, state.userObject);
  } else {
    // Google logs unhandled failures to the console of the sidebar.
    console.error(data.error);
  }
});

const RESERVED = new Set(["withSuccessHandler", "withFailureHandler", "withUserObject"]);

function makeRunner(state: RunnerState): Record<string, unknown> {
  const runner: Record<string, unknown> = {
    withSuccessHandler: (handler: Handler) => makeRunner({ ...state, success: handler }),
    withFailureHandler: (handler: Handler) => makeRunner({ ...state, failure: handler }),
    withUserObject: (userObject: unknown) => makeRunner({ ...state, userObject }),
  };
  for (const name of window.__PLAYGROUND_FUNCTIONS__ ?? []) {
    if (name.endsWith("_") || RESERVED.has(name)) continue;
    // A method of its runner, as Google's are: taken off it (`const fn = run[name]; fn()`) it has
    // no runner to read its handlers from, and fails (the stricter reading of Google's runner).
    runner[name] = function (this: unknown, ...args: unknown[]) {
      if (this !== runner) {
        throw new TypeError(
          `google.script.run.${name} was called without its runner: call it as a method, google.script.run.${name}(…)`,
        );
      }
      const checked = checkScriptArguments(args);
      const id = nextId++;
      pending.set(id, state);
      post({ type: "run", id, function: name, args: checked });
    };
  }
  return runner;
}

const host = {
  close: () => post({ type: "close" }),
  setHeight: (height: number) => post({ type: "resize", height }),
  setWidth: (width: number) => post({ type: "resize", width }),
  origin: window.location.origin,
  editor: { focus: () => post({ type: "focus-editor" }) },
};

(window as unknown as { google: unknown }).google = {
  script: { run: makeRunner({}), host },
};
