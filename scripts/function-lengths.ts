/**
 * The longest functions of src/, read with TypeScript's own parser: `npx tsx
 * scripts/function-lengths.ts` lists them, longest first; `--limit 200` fails (exit 1) on each
 * one over 200 lines, which `npm run lint` does.
 *
 * A function's lines run from its first token to its closing brace, so the functions and
 * closures nested in it count in its lines. A nested function is not listed on its own: its
 * parent is at least as long, and the limit is about the outer function a reader has to hold
 * in mind. A class's methods and a module-level object's methods are listed one by one (each is
 * a function of its own, not nested in another).
 *
 * `--exempt src/outbox/run.ts:runOutbox` (repeatable) keeps one function out of the limit while
 * it is being split; it is still listed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** One function: its name, where it starts (1-based line) and how many lines it spans. */
export interface FunctionLength {
  name: string;
  file: string;
  line: number;
  lines: number;
}

/** The outermost functions of one source text, each with its lines (nested closures included). */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: functionName(node), file, line: start + 1, lines: end - start + 1 });
      return; // what is nested in it counts in its lines, and is not listed again
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/** The name a reader would search for: the declaration's, the variable's or property's it is
 * assigned to, `Class.method` for a class's member, else `(anonymous)`. */
function functionName(node: FunctionNode): string {
  const own = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
  if (ts.isConstructorDeclaration(node)) return `${className(node.parent)}.constructor`;
  if (ts.isClassLike(node.parent) && own) return `${className(node.parent)}.${own}`;
  if (own) return own;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return `${className(parent.parent)}.${parent.name.text}`;
  }
  if (ts.isExportAssignment(parent)) return "default";
  return "(anonymous)";
}

function className(node: ts.Node): string {
  return ts.isClassLike(node) && node.name ? node.name.text : "(class)";
}

/** Every function of the .ts files under `dir`, longest first; `file` relative to `root`. */
export function longestFunctions(dir: string, root: string): FunctionLength[] {
  return sourceFiles(dir)
    .flatMap((path) => functionLengths(relative(root, path), readFileSync(path, "utf8")))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The functions over `limit` lines that no `exempt` entry (`file:name`) names. */
export function overLimit(
  functions: readonly FunctionLength[],
  limit: number,
  exempt: readonly string[],
): FunctionLength[] {
  return functions.filter((f) => f.lines > limit && !exempt.includes(`${f.file}:${f.name}`));
}

function formatted(f: FunctionLength): string {
  return `${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`;
}

interface Options {
  dir: string;
  limit?: number;
  top?: number;
  exempt: string[];
}

function parseArguments(args: readonly string[]): Options {
  const options: Options = { dir: "src", exempt: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    if (arg === "--limit" && value) options.limit = Number(value);
    else if (arg === "--top" && value) options.top = Number(value);
    else if (arg === "--exempt" && value) options.exempt.push(value);
    else if (arg === "--dir" && value) options.dir = value;
    else throw new Error(`function-lengths: unknown argument ${arg} (--dir, --limit, --top, --exempt)`);
    i++;
  }
  if (options.limit !== undefined && !(options.limit > 0)) throw new Error("function-lengths: --limit N");
  return options;
}

function main(args: readonly string[]): number {
  const options = parseArguments(args);
  const root = process.cwd();
  const functions = longestFunctions(resolve(root, options.dir), root);
  if (options.limit === undefined) {
    for (const f of functions.slice(0, options.top ?? functions.length)) console.log(formatted(f));
    return 0;
  }
  const limit = options.limit;
  const over = overLimit(functions, limit, options.exempt);
  const exemptOver = functions.filter((f) => f.lines > limit && !over.includes(f));
  for (const f of exemptOver) console.log(`${formatted(f)}  (exempt while it is split)`);
  if (over.length === 0) {
    console.log(`function-lengths: no function of ${options.dir}/ over ${options.limit} lines`);
    return 0;
  }
  console.error(
    `function-lengths: ${over.length} function(s) of ${options.dir}/ over ${options.limit} lines:`,
  );
  for (const f of over) console.error(formatted(f));
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "function-lengths.ts")) {
  process.exitCode = main(process.argv.slice(2));
}
