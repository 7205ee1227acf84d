/**
 * How often the core still names `language`: the whole word, in the TypeScript of the core's
 * folders (src/outbox, src/refresh, src/api, src/settings, src/sheets, src/schedule), outside
 * each surface's words module (`words.ts`) and the modules whose language is the sheets' layout
 * language (LAYOUT below; ARCHITECTURE.md, "Messages at the edge"). The core returns outcomes
 * as data and a words module says them; this count only goes down. `npx tsx
 * scripts/language-ceiling.ts` prints the count by file; `npm run lint` fails when the total
 * is over CEILING. Lower CEILING when a change takes more out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

/** The folders of the core that speak through a words module. */
export const CORE = ["outbox", "refresh", "api", "settings", "sheets", "schedule"];

/** Modules whose `language` is the sheets' layout language (headers, default sheet names). */
export const LAYOUT = [
  "src/sheets/columns.ts",
  "src/sheets/headers.ts",
  "src/sheets/merge.ts", // the headers and cells it writes
  "src/sheets/apply.ts", // what it hands the merge; a foreign sheet's refusal is data (words.ts)
  "src/outbox/headers.ts",
  "src/outbox/layout.ts",
  "src/settings/sheet-names.ts",
  "src/refresh/options.ts", // the sheets' default names; a clash of names is data (words.ts)
  "src/settings/form.ts",
];

/** The most mentions the core may hold; today's figure. */
export const CEILING = 27;

/** Whether `file` (relative to the repository) is a words or layout module, where it is allowed. */
export function allowed(file: string): boolean {
  return file.endsWith("/words.ts") || LAYOUT.includes(file);
}

/** Mentions of the whole word `language` in `text`. */
export function mentions(text: string): number {
  return text.match(/(?<![\w$])language(?![\w$])/g)?.length ?? 0;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The core's mentions outside the allowed modules, by file (relative to `root`). */
export function coreMentions(root: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const folder of CORE)
    for (const path of tsFiles(join(root, "src", folder))) {
      const file = relative(root, path).split("\\").join("/");
      if (allowed(file)) continue;
      const n = mentions(readFileSync(path, "utf8"));
      if (n > 0) counts.set(file, n);
    }
  return counts;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "language-ceiling.ts")) {
  const counts = coreMentions(resolve(import.meta.dirname, ".."));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (process.argv.includes("--list"))
    for (const [file, n] of [...counts].sort((a, b) => b[1] - a[1]))
      console.log(`${String(n).padStart(4)}  ${file}`);
  console.log(`language in the core, outside words and layout modules: ${total} (ceiling ${CEILING})`);
  if (total > CEILING) {
    console.error(
      `Over the ceiling by ${total - CEILING}: say it in the surface's words module instead (scripts/language-ceiling.ts).`,
    );
    process.exit(1);
  }
}
