/**
 * A column of a sheet found by its header. The add-on writes each header in the document's
 * language; a sheet written in the other language keeps its headers, so both are recognised.
 */
import { type Language, type StringKey, translate } from "../i18n";
import { hyperlinkFormula, literalText } from "./cells";

/** A header's texts in both languages. */
export function textsOfHeader(header: StringKey): string[] {
  return [translate("en", header), translate("es", header)];
}

/** The header texts of the column `key` of `columns`, in both languages; none for an unknown key. */
export function headerTexts(key: string, columns: readonly { key: string; header: unknown }[]): string[] {
  const column = columns.find((c) => c.key === key);
  if (!column || typeof column.header !== "string") return [];
  return textsOfHeader(column.header as StringKey);
}

/** 1-based column of the first cell of `headerRow` holding one of `texts`, or null. */
export function columnWithHeader(headerRow: readonly unknown[], texts: readonly string[]): number | null {
  const index = headerRow.findIndex((v) => typeof v === "string" && v !== "" && texts.includes(v));
  return index < 0 ? null : index + 1;
}

/**
 * A header row in `to`: each cell holding one of `headers` in `from` takes its text in `to`;
 * any other cell (a user's column) stays. Null when no cell changes.
 */
export function relabelledHeader(
  row: readonly unknown[],
  headers: readonly StringKey[],
  from: Language,
  to: Language,
): unknown[] | null {
  const byText = new Map(headers.map((h) => [translate(from, h), translate(to, h)]));
  const out = row.map((cell) => (typeof cell === "string" ? (byText.get(cell) ?? cell) : cell));
  return out.some((cell, i) => cell !== row[i]) ? out : null;
}

/**
 * A function giving a cell in `to` when it holds exactly one of `labels` in `from` (a
 * placeholder such as a note's `{date}` carried over, itself relabelled when it is one of
 * `labels`: a note's `{who}`), else the cell as it is (a user's own text stays).
 */
export function labelRelabeller(
  labels: readonly StringKey[],
  from: Language,
  to: Language,
): (cell: unknown) => unknown {
  const patterns = labels.map((key) => {
    const parts = translate(from, key).split(/\{(\w+)\}/);
    const names = parts.filter((_, i) => i % 2 === 1);
    const source = parts
      .map((part, i) => (i % 2 ? "(.*?)" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return { key, names, pattern: new RegExp(`^${source}$`) };
  });
  const relabel = (cell: unknown): unknown => {
    if (typeof cell !== "string" || cell === "") return cell;
    for (const { key, names, pattern } of patterns) {
      const found = pattern.exec(cell);
      if (found)
        return translate(
          to,
          key,
          Object.fromEntries(names.map((n, i) => [n, relabel(found[i + 1] ?? "") as string])),
        );
    }
    return cell;
  };
  return relabel;
}

/**
 * Who refreshed or called, kept as the English catalogue says it ("schedule (<creator>)" for a
 * scheduled run, as earlier versions wrote it too), in `language`.
 */
export const whoText = (who: string, language: Language): string =>
  labelRelabeller(["who.schedule"], "en", language)(who) as string;

/** A column's cells in `to` (see labelRelabeller); null when no cell changes. */
export function relabelledCells(
  cells: readonly (readonly unknown[])[],
  labels: readonly StringKey[],
  from: Language,
  to: Language,
): unknown[][] | null {
  const relabel = labelRelabeller(labels, from, to);
  let changed = false;
  const out = cells.map((row) =>
    row.map((cell) => {
      const next = relabel(cell);
      if (next !== cell) changed = true;
      return next;
    }),
  );
  return changed ? out : null;
}

/**
 * A column of links (General format: a HYPERLINK formula, or literal text) in `to`: a link's
 * label or a text that is one of `labels` in `from` takes its text in `to`. The cells as they
 * are to be written (typed): formulas as formulas, text as literal text; null when none changes.
 */
export function relabelledLinks(
  values: readonly (readonly unknown[])[],
  formulas: readonly (readonly string[])[],
  labels: readonly StringKey[],
  from: Language,
  to: Language,
): unknown[][] | null {
  const relabel = labelRelabeller(labels, from, to);
  const unquote = (s: string) => s.replace(/""/g, '"');
  let changed = false;
  const out = values.map((row, r) =>
    row.map((value, c) => {
      const formula = formulas[r]?.[c] ?? "";
      const link = /^=HYPERLINK\("((?:[^"]|"")*)","((?:[^"]|"")*)"\)$/.exec(formula);
      const label = link ? unquote(link[2] ?? "") : formula === "" ? value : null;
      const next = label === null ? label : relabel(label);
      if (next === label) return formula || (typeof value === "string" ? literalText(value) : value);
      changed = true;
      return link ? hyperlinkFormula(unquote(link[1] ?? ""), String(next)) : literalText(String(next));
    }),
  );
  return changed ? out : null;
}
