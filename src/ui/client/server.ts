/**
 * A typed promise wrapper over google.script.run, typed by the server module's own exports:
 *
 *   const server = serverFunctions<typeof import("../../../app/settings")>();
 *   const view = await server.getSettingsView();
 *
 * Renaming or retyping a server function breaks the sidebar's compile. Only the type is
 * imported: nothing of the server is bundled into the sidebar.
 */

/** The part of google.script.run used here. */
export interface ScriptRunner {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRunner;
  withFailureHandler(handler: (error: Error) => void): ScriptRunner;
}

type AnyFunction = (...args: never[]) => unknown;

/** A server function's promise form: same arguments, the result as a promise. */
export type Remote<M> = {
  [K in keyof M as M[K] extends AnyFunction ? K : never]: M[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<R>
    : never;
};

/** google.script.run runs at most 10 calls at once; more wait their turn here. */
export const MAX_CONCURRENT_CALLS = 10;

/** google.script.run of the page, or an error that says why there is none. */
function pageRunner(): ScriptRunner {
  const g = (globalThis as { google?: { script?: { run?: ScriptRunner } } }).google;
  const run = g?.script?.run;
  if (!run)
    throw new Error("google.script.run is not available: open this page as a sidebar of the spreadsheet.");
  return run;
}

/**
 * The server's functions as promises. `runner` gives google.script.run (the page's by default;
 * tests hand in a fake).
 */
export function serverFunctions<M>(runner: () => ScriptRunner = pageRunner): Remote<M> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    waiting.shift()?.();
  };

  function call(name: string, args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const start = () => {
        running++;
        let run: ScriptRunner;
        try {
          run = runner();
        } catch (err) {
          next();
          reject(err);
          return;
        }
        const target = run
          .withSuccessHandler((value) => {
            next();
            resolve(value);
          })
          .withFailureHandler((error) => {
            next();
            reject(error instanceof Error ? error : new Error(String(error)));
          }) as unknown as Record<string, ((...a: unknown[]) => void) | undefined>;
        const fn = target[name];
        if (typeof fn !== "function") {
          next();
          reject(new Error(`The server has no function named ${name}.`));
          return;
        }
        fn.apply(target, args);
      };
      if (running < MAX_CONCURRENT_CALLS) start();
      else waiting.push(start);
    });
  }

  const cache: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  return new Proxy(cache, {
    get(target, name) {
      if (typeof name !== "string") return undefined;
      // A promise library probing for `then` must not see a callable.
      if (name === "then") return undefined;
      target[name] ??= (...args: unknown[]) => call(name, args);
      return target[name];
    },
  }) as unknown as Remote<M>;
}
