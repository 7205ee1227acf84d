/**
 * The spreadsheet grid: column letters, row numbers, cells displayed through their number
 * formats, frozen header rows, selection by click, shift-click and arrows, and typing into cells
 * (Enter or Tab commits, Escape cancels, Delete clears). It reports what the user did; the page
 * sends it to the control API.
 */

import { displayCell, linkOf } from "../../emulator/spreadsheet/format";
import {
  type CellPosition,
  cellName,
  clickCell,
  clickRow,
  columnLetters,
  type Direction,
  moveSelection,
  type Selection,
  selectionBounds,
  selectionRange,
  singleCell,
} from "../a1";
import type { SheetSnapshot } from "./control";

/** Rows drawn beyond the data, and at most this many rows in all (the rest is summarised). */
const EXTRA_ROWS = 20;
const MIN_ROWS = 40;
const MAX_DRAWN_ROWS = 2000;
const MIN_COLUMNS = 26;
const ROW_HEIGHT = 21;
const HEADER_HEIGHT = 22;
const ROW_HEADER_WIDTH = 46;
const COLUMN_WIDTH = 100;

export interface GridEvents {
  onSelect(range: string, selection: Selection): void;
  onEdit(range: string, values: string[][]): void;
}

export class Grid {
  private sheet: SheetSnapshot | null = null;
  private timeZone = "UTC";
  private selection: Selection = singleCell({ row: 0, column: 0 });
  private rows = MIN_ROWS;
  private columns = MIN_COLUMNS;
  private editor: HTMLInputElement | HTMLSelectElement | null = null;
  private editing: CellPosition | null = null;
  /** A refresh that arrived while the user was typing: drawn once the edit ends. */
  private renderWhenDone = false;
  /** What was last drawn, to skip drawing the same sheet again. */
  private drawn = "";
  private readonly table: HTMLTableElement;

  constructor(
    private readonly container: HTMLElement,
    private readonly nameBox: HTMLInputElement,
    private readonly formulaBar: HTMLInputElement,
    private readonly events: GridEvents,
  ) {
    this.table = document.createElement("table");
    this.table.className = "grid";
    this.table.setAttribute("role", "grid");
    this.table.setAttribute("aria-label", "Spreadsheet cells");
    this.container.appendChild(this.table);
    this.container.addEventListener("keydown", (e) => this.onKey(e));
    this.table.addEventListener("mousedown", (e) => this.onMouseDown(e));
    this.table.addEventListener("dblclick", (e) => {
      const pos = this.positionOf(e.target);
      if (pos) this.startEditing(pos, null);
    });
    this.formulaBar.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.commitText(this.selection.anchor, this.formulaBar.value);
        this.container.focus();
      } else if (e.key === "Escape") {
        this.formulaBar.value = this.rawText(this.selection.anchor);
        this.container.focus();
      }
    });
  }

  /** The current sheet's name. */
  get sheetName(): string {
    return this.sheet?.name ?? "";
  }

  /** The selection in A1 notation. */
  get range(): string {
    return selectionRange(this.selection, this.columns);
  }

  show(sheet: SheetSnapshot, timeZone: string, keepSelection: boolean): void {
    const sameSheet = this.sheet?.name === sheet.name;
    // Most runs leave the sheet on screen as it was: drawing it again would only cost time.
    // Past a few thousand rows the comparison costs more than it saves.
    const fingerprint = sheet.values.length <= 5000 ? JSON.stringify([sheet, timeZone]) : "";
    if (fingerprint && sameSheet && keepSelection && fingerprint === this.drawn && !this.renderWhenDone)
      return;
    this.drawn = fingerprint;
    this.sheet = sheet;
    this.timeZone = timeZone;
    let dataColumns = 0;
    for (const row of sheet.values) dataColumns = Math.max(dataColumns, row.length);
    for (const row of sheet.formulas) dataColumns = Math.max(dataColumns, row.length);
    this.columns = Math.max(MIN_COLUMNS, dataColumns);
    this.rows = Math.min(MAX_DRAWN_ROWS, Math.max(MIN_ROWS, sheet.values.length + EXTRA_ROWS));
    if (!(keepSelection && sameSheet)) this.selection = singleCell({ row: 0, column: 0 });
    // Redrawing under the cell editor would throw away what the user is typing.
    if (this.editing && sameSheet) {
      this.renderWhenDone = true;
      return;
    }
    this.render();
  }

  private render(): void {
    const sheet = this.sheet;
    if (!sheet) return;
    this.editor?.remove();
    this.editor = null;
    this.editing = null;
    this.renderWhenDone = false;
    const frozen = sheet.frozenRows;
    const frozenColumns = sheet.frozenColumns;
    const controls = new Map(sheet.validations.map((v) => [`${v.row - 1},${v.column - 1}`, v.kind]));
    // Hidden columns are not drawn; the column before one shows a mark, as in Sheets.
    const hidden = new Set(sheet.hiddenColumns.map((c) => c - 1));
    const head = document.createElement("thead");
    const headRow = document.createElement("tr");
    const corner = document.createElement("th");
    corner.className = "corner";
    headRow.appendChild(corner);
    for (let c = 0; c < this.columns; c++) {
      const th = document.createElement("th");
      th.textContent = columnLetters(c);
      th.className = "col-header";
      th.dataset.testid = `col-header-${columnLetters(c)}`;
      th.setAttribute("scope", "col");
      if (hidden.has(c)) th.hidden = true;
      else if (hidden.has(c + 1)) th.classList.add("before-hidden");
      headRow.appendChild(th);
    }
    head.appendChild(headRow);
    const body = document.createElement("tbody");
    for (let r = 0; r < this.rows; r++) {
      const tr = document.createElement("tr");
      tr.setAttribute("role", "row");
      if (r < frozen) {
        tr.className = "frozen";
        tr.style.setProperty("--frozen-top", `${HEADER_HEIGHT + r * ROW_HEIGHT}px`);
        if (r === frozen - 1) tr.classList.add("frozen-last");
      }
      const th = document.createElement("th");
      th.textContent = String(r + 1);
      th.className = "row-header";
      th.dataset.row = String(r);
      th.dataset.testid = `row-header-${r + 1}`;
      th.setAttribute("scope", "row");
      tr.appendChild(th);
      const values = sheet.values[r] ?? [];
      const formats = sheet.numberFormats[r] ?? [];
      for (let c = 0; c < this.columns; c++) {
        const td = document.createElement("td");
        const value = values[c] ?? "";
        const shown = displayCell(value, formats[c] ?? "", this.timeZone);
        const color = shown.color ?? sheet.fontColors[r]?.[c] ?? "";
        if (/^#[0-9a-f]{3,8}$/i.test(color)) td.style.color = color;
        if (sheet.bold?.[r]?.[c]) td.style.fontWeight = "bold";
        const background = sheet.backgrounds[r]?.[c] ?? "";
        if (/^#[0-9a-f]{3,8}$/i.test(background)) td.style.backgroundColor = background;
        if (hidden.has(c)) td.hidden = true;
        const control = controls.get(`${r},${c}`);
        if (control === "checkbox") {
          // Sheets draws a checkbox where TRUE/FALSE would be.
          td.textContent = value === true ? "☑" : "☐";
          td.className = "align-center checkbox";
          td.setAttribute("aria-checked", String(value === true));
        } else if (linkOf(sheet.formulas[r]?.[c] ?? "")) {
          // A HYPERLINK cell opens its address, as in Sheets (only http and https ones).
          const a = document.createElement("a");
          a.href = linkOf(sheet.formulas[r]?.[c] ?? "") as string;
          a.target = "_blank";
          a.rel = "noopener noreferrer";
          a.textContent = shown.text;
          td.appendChild(a);
        } else {
          td.textContent = shown.text;
          if (shown.align !== "left") td.className = `align-${shown.align}`;
          if (control === "list") td.classList.add("dropdown");
        }
        // A note shows as Sheets shows it: a corner mark, its text on hover.
        const note = sheet.notes[r]?.[c] ?? "";
        if (note) {
          td.title = note;
          td.classList.add("has-note");
        }
        if (c < frozenColumns) {
          td.classList.add("frozen-column");
          td.style.setProperty("--frozen-left", `${ROW_HEADER_WIDTH + c * COLUMN_WIDTH}px`);
          if (c === frozenColumns - 1) td.classList.add("frozen-column-last");
        }
        const name = cellName({ row: r, column: c });
        td.dataset.cell = name;
        td.dataset.testid = `cell-${name}`;
        td.dataset.row = String(r);
        td.dataset.column = String(c);
        td.setAttribute("role", "gridcell");
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    this.table.replaceChildren(head, body);
    const total = sheet.values.length;
    this.container.dataset.rows = String(total);
    const note = this.container.querySelector(".grid-note") ?? document.createElement("p");
    note.className = "grid-note";
    note.textContent = total > MAX_DRAWN_ROWS ? `Showing the first ${MAX_DRAWN_ROWS} of ${total} rows.` : "";
    this.container.appendChild(note);
    this.paintSelection();
  }

  private positionOf(target: EventTarget | null): CellPosition | null {
    const el = (target as HTMLElement | null)?.closest?.("td[data-row]") as HTMLElement | null;
    if (!el) return null;
    return { row: Number(el.dataset.row), column: Number(el.dataset.column) };
  }

  private onMouseDown(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    if (this.editor && target === this.editor) return;
    const rowHeader = target.closest("th.row-header") as HTMLElement | null;
    if (rowHeader) {
      e.preventDefault();
      this.commitEditing();
      this.select(clickRow(this.selection, Number(rowHeader.dataset.row), e.shiftKey));
      this.container.focus();
      return;
    }
    const pos = this.positionOf(target);
    if (!pos) return;
    e.preventDefault();
    this.commitEditing();
    this.select(clickCell(this.selection, pos, e.shiftKey));
    this.container.focus();
    // A click on a checkbox ticks or unticks it, and one on a dropdown's arrow opens its list, as
    // in Sheets (a click elsewhere in the cell only selects it, so typing types a value).
    if (!e.shiftKey && this.isCheckbox(pos)) this.toggleCheckbox(pos);
    else if (!e.shiftKey && this.dropdownValues(pos) && onArrow(e)) this.startEditing(pos, null);
  }

  /** The values of a dropdown (list validation) cell, or null when the cell is no dropdown. */
  private dropdownValues(pos: CellPosition): string[] | null {
    const rule = this.sheet?.validations.find(
      (v) => v.kind === "list" && v.row === pos.row + 1 && v.column === pos.column + 1,
    );
    return rule ? rule.values : null;
  }

  private isCheckbox(pos: CellPosition): boolean {
    return (
      this.sheet?.validations.some(
        (v) => v.kind === "checkbox" && v.row === pos.row + 1 && v.column === pos.column + 1,
      ) ?? false
    );
  }

  private toggleCheckbox(pos: CellPosition): void {
    const checked = this.sheet?.values[pos.row]?.[pos.column] === true;
    this.commitText(pos, checked ? "FALSE" : "TRUE");
  }

  private select(selection: Selection): void {
    this.selection = selection;
    this.paintSelection();
    this.events.onSelect(this.range, selection);
  }

  private paintSelection(): void {
    const b = selectionBounds(this.selection, this.columns);
    for (const el of Array.from(this.table.querySelectorAll(".selected, .active"))) {
      el.classList.remove("selected", "active");
      el.removeAttribute("aria-selected");
      el.removeAttribute("id");
    }
    const body = this.table.tBodies[0];
    if (!body) return;
    for (let r = b.top; r <= Math.min(b.bottom, this.rows - 1); r++) {
      const tr = body.rows[r];
      if (!tr) continue;
      if (this.selection.wholeRows) tr.cells[0]?.classList.add("selected");
      for (let c = b.left; c <= b.right; c++) {
        const td = tr.cells[c + 1];
        td?.classList.add("selected");
        td?.setAttribute("aria-selected", "true");
      }
    }
    // The active cell is where the selection started (the formula bar shows it, as in Sheets);
    // the view follows the end that moves.
    const at = (p: { row: number; column: number }) => body.rows[p.row]?.cells[p.column + 1];
    const active = at(this.selection.anchor);
    active?.classList.add("active");
    if (active) {
      active.id = "active-cell";
      this.container.setAttribute("aria-activedescendant", "active-cell");
    }
    at(this.selection.focus)?.scrollIntoView({ block: "nearest", inline: "nearest" });
    this.nameBox.value = this.range;
    this.formulaBar.value = this.rawText(this.selection.anchor);
  }

  /** What the formula bar shows: the formula if any, else the value as displayed. */
  private rawText(pos: CellPosition): string {
    const formula = this.sheet?.formulas[pos.row]?.[pos.column];
    if (formula) return formula;
    const value = this.sheet?.values[pos.row]?.[pos.column] ?? "";
    if (typeof value === "number") return String(value);
    const format = this.sheet?.numberFormats[pos.row]?.[pos.column] ?? "";
    return displayCell(value, format, this.timeZone).text;
  }

  /** The selection after an arrow key, stepping over hidden columns as Sheets does. */
  private move(direction: Direction, extend: boolean): Selection {
    const hidden = new Set((this.sheet?.hiddenColumns ?? []).map((c) => c - 1));
    let next = moveSelection(this.selection, direction, extend, this.rows, this.columns);
    while (hidden.has(next.focus.column)) {
      const further = moveSelection(next, direction, extend, this.rows, this.columns);
      if (further.focus.column === next.focus.column) break; // the edge of the grid
      next = further;
    }
    return next;
  }

  private onKey(e: KeyboardEvent): void {
    if (this.editing) {
      this.onEditorKey(e);
      return;
    }
    const arrows: Record<string, Direction> = {
      ArrowUp: "up",
      ArrowDown: "down",
      ArrowLeft: "left",
      ArrowRight: "right",
    };
    const direction = arrows[e.key];
    if (direction) {
      e.preventDefault();
      this.select(this.move(direction, e.shiftKey));
    } else if (e.key === "Enter" || e.key === "F2") {
      e.preventDefault();
      this.startEditing(this.selection.focus, null);
    } else if (e.key === "Tab") {
      e.preventDefault();
      this.select(this.move(e.shiftKey ? "left" : "right", false));
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      const b = selectionBounds(this.selection, this.columns);
      const empty = Array.from({ length: b.bottom - b.top + 1 }, () =>
        Array.from({ length: b.right - b.left + 1 }, () => ""),
      );
      this.events.onEdit(this.range, empty);
    } else if (e.key === " " && this.isCheckbox(this.selection.focus)) {
      e.preventDefault();
      this.toggleCheckbox(this.selection.focus);
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Typing on a selected cell replaces its content, as in Sheets.
      e.preventDefault();
      this.startEditing(this.selection.focus, e.key);
    }
  }

  private startEditing(pos: CellPosition, initial: string | null): void {
    this.cancelEditing();
    const td = this.table.tBodies[0]?.rows[pos.row]?.cells[pos.column + 1];
    if (!td) return;
    if (!(this.selection.anchor.row === pos.row && this.selection.anchor.column === pos.column)) {
      this.select(singleCell(pos));
    }
    const choices = this.dropdownValues(pos);
    // Typing on a dropdown cell types its value, as in Sheets; a click or Enter opens the list.
    if (choices && initial === null) {
      this.startChoosing(td, pos, choices);
      return;
    }
    const input = document.createElement("input");
    input.className = "cell-editor";
    input.dataset.testid = "cell-editor";
    input.setAttribute("aria-label", `Edit cell ${cellName(pos)}`);
    input.value = initial ?? this.rawText(pos);
    td.appendChild(input);
    this.editor = input;
    this.editing = pos;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
    input.addEventListener("input", () => {
      this.formulaBar.value = input.value;
    });
  }

  /** A dropdown cell edits through a list of its values, as Sheets shows a chip's menu. */
  private startChoosing(td: HTMLTableCellElement, pos: CellPosition, choices: string[]): void {
    const select = document.createElement("select");
    select.className = "cell-editor";
    select.dataset.testid = "cell-dropdown";
    select.setAttribute("aria-label", `Choose a value for cell ${cellName(pos)}`);
    const current = this.rawText(pos);
    for (const value of ["", ...choices]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value === "" ? "(empty)" : value;
      option.selected = value === current;
      select.appendChild(option);
    }
    td.appendChild(select);
    this.editor = select;
    this.editing = pos;
    select.focus();
    select.addEventListener("change", () => {
      const value = select.value;
      this.cancelEditing();
      this.commitText(pos, value);
      this.container.focus();
    });
  }

  private onEditorKey(e: KeyboardEvent): void {
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      const pos = this.editing as CellPosition;
      this.commitEditing();
      const direction: Direction =
        e.key === "Tab" ? (e.shiftKey ? "left" : "right") : e.shiftKey ? "up" : "down";
      this.select(moveSelection(singleCell(pos), direction, false, this.rows, this.columns));
      this.container.focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      this.cancelEditing();
      this.container.focus();
    }
  }

  private commitEditing(): void {
    if (!this.editor || !this.editing) return;
    const text = this.editor.value;
    const pos = this.editing;
    this.cancelEditing();
    this.commitText(pos, text);
  }

  private commitText(pos: CellPosition, text: string): void {
    // Show the typed text at once; the refresh after the write shows it as the sheet parsed it.
    const td = this.table.tBodies[0]?.rows[pos.row]?.cells[pos.column + 1];
    if (td) td.textContent = text;
    // The screen no longer shows the last snapshot: the next one must be drawn whatever it holds.
    this.drawn = "";
    this.events.onEdit(cellName(pos), [[text]]);
  }

  private cancelEditing(): void {
    this.editor?.remove();
    this.editor = null;
    this.editing = null;
    if (this.renderWhenDone) this.render();
  }
}

/** True when a click landed on the arrow drawn at the right end of a dropdown cell. */
function onArrow(e: MouseEvent): boolean {
  const td = (e.target as HTMLElement | null)?.closest("td");
  if (!td) return false;
  return e.clientX >= td.getBoundingClientRect().right - 18;
}
