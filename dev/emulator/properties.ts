/**
 * PropertiesService: user stores (one per user), one document store, one script store. Values
 * are strings; 9 KB per value and 500 KB per store are enforced with Apps Script's messages.
 */
import { MESSAGES, ServiceError } from "./errors";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export const MAX_VALUE_BYTES = 9 * 1024;
export const MAX_STORE_BYTES = 500 * 1024;

function bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** One property store's data, kept by the emulator across executions. */
export class PropertyStoreData {
  readonly values = new Map<string, string>();
  reads = 0;
  writes = 0;

  size(): number {
    let total = 0;
    for (const [k, v] of this.values) total += bytes(k) + bytes(v);
    return total;
  }

  toObject(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

type Members =
  | "getProperty"
  | "setProperty"
  | "getProperties"
  | "setProperties"
  | "deleteProperty"
  | "deleteAllProperties"
  | "getKeys";

export class FakeProperties
  extends Fake
  implements Implements<GoogleAppsScript.Properties.Properties, Members>
{
  static override readonly service = "Properties";
  constructor(private readonly data: PropertyStoreData) {
    super();
  }

  private checkedEntries(entries: Array<[unknown, unknown]>, replaceAll: boolean): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const next = new Map(replaceAll ? [] : this.data.values);
    for (const [k, v] of entries) {
      if (k === null || k === undefined || String(k) === "") throw new ServiceError("Invalid argument: key");
      const key = String(k);
      const value = String(v);
      if (bytes(key) + bytes(value) > MAX_VALUE_BYTES) throw new ServiceError("Argument too large: value");
      next.set(key, value);
      out.push([key, value]);
    }
    let total = 0;
    for (const [k, v] of next) total += bytes(k) + bytes(v);
    if (total > MAX_STORE_BYTES) throw new ServiceError(MESSAGES.propertyQuota);
    return out;
  }

  getProperty(key: string): string | null {
    this.data.reads++;
    return this.data.values.get(String(key)) ?? null;
  }
  setProperty(key: string, value: string): this {
    this.data.writes++;
    const [[k, v]] = this.checkedEntries([[key, value]], false) as [[string, string]];
    this.data.values.set(k, v);
    return this;
  }
  getProperties(): { [key: string]: string } {
    this.data.reads++;
    return this.data.toObject();
  }
  setProperties(properties: { [key: string]: string }, deleteAllOthers?: boolean): this {
    this.data.writes++;
    if (!properties || typeof properties !== "object") throw new ServiceError("Invalid argument: properties");
    const entries = this.checkedEntries(Object.entries(properties), !!deleteAllOthers);
    if (deleteAllOthers) this.data.values.clear();
    for (const [k, v] of entries) this.data.values.set(k, v);
    return this;
  }
  deleteProperty(key: string): this {
    this.data.writes++;
    this.data.values.delete(String(key));
    return this;
  }
  deleteAllProperties(): this {
    this.data.writes++;
    this.data.values.clear();
    return this;
  }
  getKeys(): string[] {
    this.data.reads++;
    return [...this.data.values.keys()];
  }
}

export interface PropertiesHost {
  userStore(): PropertyStoreData;
  documentStore(): PropertyStoreData;
  scriptStore(): PropertyStoreData;
  /** False where Apps Script gives no document store (a test can make a time trigger lack it). */
  hasDocument?(): boolean;
}

export class FakePropertiesService
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Properties.PropertiesService,
      "getUserProperties" | "getDocumentProperties" | "getScriptProperties"
    >
{
  static override readonly service = "PropertiesService";
  constructor(private readonly host: PropertiesHost) {
    super();
  }
  getUserProperties(): FakeProperties {
    return new FakeProperties(this.host.userStore());
  }
  getDocumentProperties(): FakeProperties {
    if (this.host.hasDocument && !this.host.hasDocument()) return null as unknown as FakeProperties;
    return new FakeProperties(this.host.documentStore());
  }
  getScriptProperties(): FakeProperties {
    return new FakeProperties(this.host.scriptStore());
  }
}
