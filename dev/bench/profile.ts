/**
 * Where the CPU time of a refresh goes: a V8 CPU profile of the bench's own thread (the add-on
 * runs there, in the emulation's vm context), each sample's self time given to the source file
 * of the nearest JavaScript frame: the add-on's frames are mapped back through addon.js.map to
 * their file under src/ (zod counts as the add-on's: it is in its bundle), everything else is
 * the emulation (dev/), Node itself, garbage collection, or waiting on HTTP (Atomics.wait).
 */
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { SourceMap } from "node:module";
import { join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSplit {
  /** Milliseconds per source file of the add-on (src/…, node_modules/zod…). */
  addOnFiles: Map<string, number>;
  addOnMs: number;
  /** Milliseconds per file of the emulation and the bench (dev/…). */
  emulationFiles: Map<string, number>;
  emulationMs: number;
  httpWaitMs: number;
  gcMs: number;
  otherMs: number;
}

export class CpuProfiler {
  private readonly session = new Session();
  private readonly map: SourceMap | null;
  private connected = false;

  constructor(private readonly distDir: string) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(join(distDir, "addon.js.map"), "utf8")));
    } catch {
      map = null;
    }
    this.map = map;
  }

  async start(): Promise<void> {
    // Connected only now: nothing of the inspector is attached while the bench times a refresh.
    if (!this.connected) {
      this.session.connect();
      this.connected = true;
    }
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.setSamplingInterval", { interval: 1000 });
    await this.session.post("Profiler.start");
  }

  async stop(): Promise<CpuSplit> {
    const { profile } = (await this.session.post("Profiler.stop")) as { profile: Profile };
    // Off until the next start: the next size's timed refreshes run without it.
    await this.session.post("Profiler.disable");
    return this.split(profile);
  }

  private fileOf(frame: ProfileNode["callFrame"]): string {
    if (frame.url.endsWith("addon.js")) {
      const entry = this.map?.findEntry(frame.lineNumber, frame.columnNumber) as
        | { originalSource?: string }
        | undefined;
      const source = entry?.originalSource;
      if (!source) return "addon.js (unmapped)";
      const path = source.startsWith("file://") ? new URL(source).pathname : resolve(this.distDir, source);
      const rel = relative(root, path);
      return rel.startsWith("..") ? source.replace(/^.*node_modules\//, "node_modules/") : rel;
    }
    if (frame.url.startsWith("file://")) {
      const rel = relative(root, new URL(frame.url).pathname);
      // The bench's own tools (tsx, the sandbox's libraries) are not the add-on's.
      return rel.startsWith("node_modules/") ? `dev (${rel.split("/").slice(0, 2).join("/")})` : rel;
    }
    if (frame.url.startsWith("node:")) return "node";
    return frame.url || "";
  }

  private split(profile: Profile): CpuSplit {
    const byId = new Map<number, ProfileNode>();
    const parent = new Map<number, number>();
    for (const n of profile.nodes) {
      byId.set(n.id, n);
      for (const c of n.children ?? []) parent.set(c, n.id);
    }
    // A native frame (JSON.parse, a RegExp) is charged to the nearest caller with a file.
    const owner = new Map<number, string>();
    const callerName = (id: number): string | undefined => {
      const up = parent.get(id);
      return up === undefined ? undefined : byId.get(up)?.callFrame.functionName;
    };
    const ownerOf = (id: number): string => {
      const known = owner.get(id);
      if (known !== undefined) return known;
      const node = byId.get(id) as ProfileNode;
      const name = node.callFrame.functionName;
      let file: string;
      if (name === "(garbage collector)") file = "(gc)";
      // Atomics.wait is a builtin: its samples land on the emulator's frame that calls it, the
      // UrlFetch's wait for its answer (sendAndWait, through waitForFlag) or the bodies'
      // transfer of --bandwidth.
      else if (
        (name === "wait" && node.callFrame.url === "") ||
        name === "sendAndWait" ||
        name === "transfer" ||
        (name === "waitForFlag" && callerName(id) === "sendAndWait")
      )
        file = "(http wait)";
      else if (name === "(idle)" || name === "(program)" || name === "(root)") file = "(other)";
      else {
        file = this.fileOf(node.callFrame);
        if (file === "") {
          const up = parent.get(id);
          file = up === undefined ? "(other)" : ownerOf(up);
        }
      }
      owner.set(id, file);
      return file;
    };
    const split: CpuSplit = {
      addOnFiles: new Map(),
      addOnMs: 0,
      emulationFiles: new Map(),
      emulationMs: 0,
      httpWaitMs: 0,
      gcMs: 0,
      otherMs: 0,
    };
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const file = ownerOf(id);
      if (file === "(gc)") split.gcMs += ms;
      else if (file === "(http wait)") split.httpWaitMs += ms;
      else if (file.startsWith("src/") || file.startsWith("node_modules/") || file.startsWith("addon.js")) {
        split.addOnMs += ms;
        split.addOnFiles.set(file, (split.addOnFiles.get(file) ?? 0) + ms);
      } else if (file === "(other)" || file === "node") split.otherMs += ms;
      else {
        split.emulationMs += ms;
        split.emulationFiles.set(file, (split.emulationFiles.get(file) ?? 0) + ms);
      }
    });
    return split;
  }

  close(): void {
    if (this.connected) this.session.disconnect();
  }
}

/** The `count` files that took longest, as "file 1.2 s". */
export function topFiles(files: Map<string, number>, count: number): string {
  return [...files.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, ms]) => `${file} ${(ms / 1000).toFixed(2)} s`)
    .join(", ");
}

/**
 * The parts of the add-on the first refresh's ratio is watched for, by their files: the styled
 * Summary (computed and written), the company columns (a lane's keys, covers and cells), the
 * file links, and, for scale, reading the service's answers.
 */
const PARTS: readonly [string, readonly string[]][] = [
  ["the Summary", ["src/summary/", "src/gas/summary-sheet.ts"]],
  ["the company columns", ["src/sheets/company.ts", "src/refresh/lanes.ts", "src/company/"]],
  ["the file links", ["src/sheets/files.ts"]],
  ["reading the answers", ["src/api/"]],
];

/** Each part's samples and share of the add-on's, as "the Summary 0.12 s (4%)". */
export function partsLine(files: Map<string, number>): string {
  const total = [...files.values()].reduce((a, b) => a + b, 0);
  return PARTS.map(([name, prefixes]) => {
    let ms = 0;
    for (const [file, t] of files) if (prefixes.some((p) => file.startsWith(p))) ms += t;
    return `${name} ${(ms / 1000).toFixed(2)} s (${total > 0 ? Math.round((100 * ms) / total) : 0}%)`;
  }).join(", ");
}
