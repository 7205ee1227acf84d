/**
 * Embedded charts: `Sheet.newChart()` and its builder, `insertChart`, `getCharts`,
 * `updateChart`, `removeChart`, typed against @types/google-apps-script. A chart keeps what a
 * reader of the spreadsheet can check (type, ranges, options such as its title, position);
 * nothing is drawn here: the playground draws them from the control API's `charts`.
 */
import { ServiceError } from "../errors";
import { Fake } from "../realm";
import type { Implements } from "../typed";
import { type GridRect, toA1 } from "./a1";
import type { SheetData } from "./model";

type Builder = GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder;
type Chart = GoogleAppsScript.Spreadsheet.EmbeddedChart;
type ContainerInfo = GoogleAppsScript.Spreadsheet.ContainerInfo;

/** What a chart's range needs to be: a fake Range (or its script-side proxy). */
export interface ChartRange {
  sheetData: SheetData;
  rect: GridRect;
}

export interface ChartData {
  id: number | null;
  type: string;
  ranges: ChartRange[];
  options: Record<string, unknown>;
  position: { row: number; column: number; offsetX: number; offsetY: number };
}

const charts = new WeakMap<SheetData, ChartData[]>();
let nextId = 1;

/** The charts inserted on `sheet`, in insertion order. */
export function chartsOn(sheet: SheetData): ChartData[] {
  let list = charts.get(sheet);
  if (!list) {
    list = [];
    charts.set(sheet, list);
  }
  return list;
}

function copy(data: ChartData): ChartData {
  return { ...data, ranges: [...data.ranges], options: { ...data.options }, position: { ...data.position } };
}

const quote = (name: string) => (/^[A-Za-z_][\w]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);

/** What the control API shows of a sheet's charts. */
export function chartsSnapshot(sheet: SheetData): Array<{
  id: number | null;
  type: string;
  title: string;
  ranges: string[];
  options: Record<string, unknown>;
  position: ChartData["position"];
}> {
  return chartsOn(sheet).map((c) => ({
    id: c.id,
    type: c.type,
    title: typeof c.options.title === "string" ? c.options.title : "",
    ranges: c.ranges.map((r) => `${quote(r.sheetData.name)}!${toA1(r.rect)}`),
    options: { ...c.options },
    position: { ...c.position },
  }));
}

type BuilderMembers =
  | "addRange"
  | "asAreaChart"
  | "asBarChart"
  | "asColumnChart"
  | "asLineChart"
  | "asPieChart"
  | "build"
  | "clearRanges"
  | "getContainer"
  | "getRanges"
  | "removeRange"
  | "setOption"
  | "setPosition";

export class FakeEmbeddedChartBuilder extends Fake implements Implements<Builder, BuilderMembers> {
  static override readonly service = "EmbeddedChartBuilder";
  constructor(
    private readonly data: ChartData,
    private readonly rangeOf: (r: ChartRange) => unknown,
  ) {
    super();
  }
  addRange(range: GoogleAppsScript.Spreadsheet.Range): this {
    const r = range as unknown as ChartRange;
    if (!r?.sheetData || !r.rect)
      throw new ServiceError(
        "The parameters (Object) don't match the method signature for SpreadsheetApp.EmbeddedChartBuilder.addRange.",
      );
    this.data.ranges.push({ sheetData: r.sheetData, rect: { ...r.rect } });
    return this;
  }
  removeRange(range: GoogleAppsScript.Spreadsheet.Range): this {
    const r = range as unknown as ChartRange;
    this.data.ranges = this.data.ranges.filter(
      (x) => x.sheetData !== r.sheetData || toA1(x.rect) !== toA1(r.rect),
    );
    return this;
  }
  clearRanges(): this {
    this.data.ranges = [];
    return this;
  }
  getRanges(): unknown[] {
    return this.data.ranges.map(this.rangeOf);
  }
  private as(type: string): this {
    this.data.type = type;
    return this;
  }
  asAreaChart(): this {
    return this.as("AREA");
  }
  asBarChart(): this {
    return this.as("BAR");
  }
  asColumnChart(): this {
    return this.as("COLUMN");
  }
  asLineChart(): this {
    return this.as("LINE");
  }
  asPieChart(): this {
    return this.as("PIE");
  }
  /** Of the typed builders (column, bar, area…): the same as setOption("title", …). */
  setTitle(title: string): this {
    return this.setOption("title", title);
  }
  /** Of the column, bar and area builders: the same as setOption("isStacked", true). */
  setStacked(): this {
    return this.setOption("isStacked", true);
  }
  setOption(option: string, value: unknown): this {
    if (typeof option !== "string" || option === "") throw new ServiceError("Invalid argument: option");
    this.data.options[option] = value;
    return this;
  }
  setPosition(anchorRowPos: number, anchorColPos: number, offsetX: number, offsetY: number): this {
    for (const n of [anchorRowPos, anchorColPos])
      if (!Number.isInteger(n) || n < 1) throw new ServiceError("Invalid argument: position");
    this.data.position = { row: anchorRowPos, column: anchorColPos, offsetX, offsetY };
    return this;
  }
  getContainer(): FakeContainerInfo {
    return new FakeContainerInfo(this.data.position);
  }
  build(): FakeEmbeddedChart {
    return new FakeEmbeddedChart(copy(this.data), this.rangeOf);
  }
}

type ChartMembers = "getChartId" | "getContainerInfo" | "getOptions" | "getRanges" | "modify";

export class FakeEmbeddedChart extends Fake implements Implements<Chart, ChartMembers> {
  static override readonly service = "EmbeddedChart";
  constructor(
    readonly data: ChartData,
    private readonly rangeOf: (r: ChartRange) => unknown,
  ) {
    super();
  }
  getChartId(): number | null {
    return this.data.id;
  }
  getContainerInfo(): FakeContainerInfo {
    return new FakeContainerInfo(this.data.position);
  }
  getOptions(): FakeChartOptions {
    return new FakeChartOptions(this.data.options);
  }
  getRanges(): unknown[] {
    return this.data.ranges.map(this.rangeOf);
  }
  modify(): FakeEmbeddedChartBuilder {
    return new FakeEmbeddedChartBuilder(copy(this.data), this.rangeOf);
  }
}

export class FakeContainerInfo extends Fake implements Implements<ContainerInfo, keyof ContainerInfo> {
  static override readonly service = "ContainerInfo";
  constructor(private readonly position: ChartData["position"]) {
    super();
  }
  getAnchorColumn(): number {
    return this.position.column;
  }
  getAnchorRow(): number {
    return this.position.row;
  }
  getOffsetX(): number {
    return this.position.offsetX;
  }
  getOffsetY(): number {
    return this.position.offsetY;
  }
}

export class FakeChartOptions
  extends Fake
  implements Implements<GoogleAppsScript.Charts.ChartOptions, "get">
{
  static override readonly service = "ChartOptions";
  constructor(private readonly options: Record<string, unknown>) {
    super();
  }
  get(option: string): unknown {
    return this.options[option] ?? null;
  }
}

/** The chart methods of a Sheet, over its data. */
export class SheetCharts {
  constructor(
    private readonly sheet: SheetData,
    private readonly rangeOf: (r: ChartRange) => unknown,
  ) {}
  newChart(): FakeEmbeddedChartBuilder {
    return new FakeEmbeddedChartBuilder(
      {
        id: null,
        type: "COLUMN",
        ranges: [],
        options: {},
        position: { row: 1, column: 1, offsetX: 0, offsetY: 0 },
      },
      this.rangeOf,
    );
  }
  insert(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    const data = this.dataOf(chart);
    // Inserting the same built chart twice gives two charts, as in Sheets.
    chartsOn(this.sheet).push({ ...copy(data), id: nextId++ });
  }
  list(): FakeEmbeddedChart[] {
    return chartsOn(this.sheet).map((c) => new FakeEmbeddedChart(copy(c), this.rangeOf));
  }
  update(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    const data = this.dataOf(chart);
    const list = chartsOn(this.sheet);
    const at = list.findIndex((c) => c.id !== null && c.id === data.id);
    if (at < 0) throw new ServiceError("The chart is not on this sheet.");
    list[at] = copy(data);
  }
  remove(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    const data = this.dataOf(chart);
    const list = chartsOn(this.sheet);
    const at = list.findIndex((c) => c.id !== null && c.id === data.id);
    if (at >= 0) list.splice(at, 1);
  }
  private dataOf(chart: unknown): ChartData {
    const data = (chart as FakeEmbeddedChart | null)?.data;
    if (!data || !Array.isArray(data.ranges))
      throw new ServiceError(
        "The parameters (Object) don't match the method signature for SpreadsheetApp.Sheet.insertChart.",
      );
    return data;
  }
}
