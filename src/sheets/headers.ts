/**
 * A column of a sheet found by its header. The add-on writes each header in the document's
 * language; a sheet written in the other language keeps its headers, so both are recognised.
 */
import { type StringKey, translate } from "../i18n";

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
