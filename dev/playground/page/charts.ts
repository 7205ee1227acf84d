/**
 * The embedded charts of the sheet on screen, drawn with Chart.js over the grid at their anchor
 * cell, from the ranges the control API reports (`charts` of GET /control/sheets): the first row
 * of a range names the series, the first column the categories.
 */
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Title,
  Tooltip,
} from "chart.js";
import type { CellValue } from "../../emulator/spreadsheet/format";

Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Title,
  Tooltip,
);

export interface ChartSnapshot {
  type: string;
  title: string;
  ranges: string[];
  options: Record<string, unknown>;
  /** The anchor cell, and the pixels right of and below it (charts side by side). */
  position: { row: number; column: number; offsetX?: number; offsetY?: number };
}

export interface ChartTableData {
  labels: string[];
  series: Array<{ name: string; values: number[] }>;
}

/** "Summary!A3:C9" or "'My sheet'!B2:D4" as sheet name and 0-based bounds. */
export function parseRange(
  a1: string,
): { sheet: string; top: number; left: number; bottom: number; right: number } | null {
  const m = /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(a1);
  if (!m) return null;
  const col = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  const left = col(m[3] as string);
  const top = Number(m[4]) - 1;
  return {
    sheet: m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] as string),
    top,
    left,
    bottom: m[6] ? Number(m[6]) - 1 : top,
    right: m[5] ? col(m[5]) : left,
  };
}

/** The categories and series of a chart's range, read from the sheet's values. */
export function chartTable(values: CellValue[][], a1: string): ChartTableData {
  const r = parseRange(a1);
  if (!r) return { labels: [], series: [] };
  const cell = (row: number, column: number) => values[row]?.[column] ?? "";
  const series: ChartTableData["series"] = [];
  for (let c = r.left + 1; c <= r.right; c++) series.push({ name: String(cell(r.top, c)), values: [] });
  const labels: string[] = [];
  for (let row = r.top + 1; row <= r.bottom; row++) {
    labels.push(String(cell(row, r.left)));
    series.forEach((s, i) => {
      const v = cell(row, r.left + 1 + i);
      s.values.push(typeof v === "number" ? v : Number(v) || 0);
    });
  }
  return { labels, series };
}

const COLOURS = ["#1a73e8", "#e8710a", "#188038", "#d93025", "#9334e6", "#12b5cb", "#f9ab00"];

/** Chart.js's configuration for a Sheets chart of `type` over `table`. */
export function chartConfig(chart: ChartSnapshot, table: ChartTableData): ChartConfiguration {
  const stacked = chart.options.isStacked === true || chart.options.isStacked === "true";
  const kind = chart.type === "PIE" ? "pie" : chart.type === "LINE" || chart.type === "AREA" ? "line" : "bar";
  return {
    type: kind,
    data: {
      labels: table.labels,
      datasets: table.series.map((s, i) => ({
        label: s.name,
        data: s.values,
        backgroundColor: kind === "pie" ? COLOURS : COLOURS[i % COLOURS.length],
        borderColor: COLOURS[i % COLOURS.length],
        fill: chart.type === "AREA",
      })),
    },
    options: {
      animation: false,
      responsive: false,
      indexAxis: chart.type === "BAR" ? "y" : "x",
      plugins: { title: { display: chart.title !== "", text: chart.title }, legend: { position: "bottom" } },
      scales: kind === "pie" ? {} : { x: { stacked }, y: { stacked, beginAtZero: true } },
    },
  } as ChartConfiguration;
}

/** Draws a sheet's charts in a layer over the grid; drawing again replaces them. */
export class ChartLayer {
  private drawn: Chart[] = [];
  private readonly layer: HTMLElement;

  constructor(private readonly container: HTMLElement) {
    this.layer = document.createElement("div");
    this.layer.className = "chart-layer";
    this.layer.dataset.testid = "chart-layer";
  }

  show(charts: readonly ChartSnapshot[], values: CellValue[][]): void {
    for (const c of this.drawn) c.destroy();
    this.drawn = [];
    this.layer.replaceChildren();
    if (this.layer.parentElement !== this.container) this.container.appendChild(this.layer);
    const table = this.container.querySelector("table");
    for (const chart of charts) {
      const box = document.createElement("figure");
      box.className = "sheet-chart";
      box.dataset.testid = "sheet-chart";
      box.dataset.type = chart.type;
      box.setAttribute("aria-label", chart.title || "Chart");
      const anchor = table?.rows[chart.position.row]?.cells[chart.position.column];
      box.style.left = `${(anchor?.offsetLeft ?? 0) + (chart.position.offsetX ?? 0)}px`;
      box.style.top = `${(anchor?.offsetTop ?? 0) + (chart.position.offsetY ?? 0)}px`;
      const canvas = document.createElement("canvas");
      // Sheets' default size unless the chart sets its own.
      const size = (key: string, fallback: number) => {
        const n = Number(chart.options[key]);
        return Number.isFinite(n) && n > 0 && n <= 2000 ? n : fallback;
      };
      canvas.width = size("width", 600);
      canvas.height = size("height", 371);
      box.appendChild(canvas);
      this.layer.appendChild(box);
      this.drawn.push(new Chart(canvas, chartConfig(chart, chartTable(values, chart.ranges[0] ?? ""))));
    }
  }
}
