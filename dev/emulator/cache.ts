/**
 * CacheService: script, document and per-user caches whose entries expire on the emulator's
 * clock (10 minutes by default, 6 hours at most). Keys up to 250 characters, values up to 100 KB.
 */
import { ServiceError } from "./errors";
import { Fake } from "./realm";
import type { Implements } from "./typed";

const MAX_KEY = 250;
const MAX_VALUE_BYTES = 100 * 1024;
const DEFAULT_TTL_S = 600;
const MAX_TTL_S = 21_600;

export class CacheData {
  readonly entries = new Map<string, { value: string; expiresAt: number }>();
}

type Members = "get" | "getAll" | "put" | "putAll" | "remove" | "removeAll";

export class FakeCache extends Fake implements Implements<GoogleAppsScript.Cache.Cache, Members> {
  static override readonly service = "Cache";
  constructor(
    private readonly data: CacheData,
    private readonly now: () => number,
  ) {
    super();
  }
  private checkKey(key: unknown): string {
    const k = String(key);
    if (k.length > MAX_KEY) throw new ServiceError("Argument too large: key");
    return k;
  }
  get(key: string): string | null {
    const k = this.checkKey(key);
    const entry = this.data.entries.get(k);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.data.entries.delete(k);
      return null;
    }
    return entry.value;
  }
  getAll(keys: string[]): { [key: string]: string } {
    const out: { [key: string]: string } = {};
    for (const key of keys) {
      const v = this.get(key);
      if (v !== null) out[String(key)] = v;
    }
    return out;
  }
  put(key: string, value: string, expirationInSeconds?: number): void {
    const k = this.checkKey(key);
    const v = String(value);
    if (Buffer.byteLength(v, "utf8") > MAX_VALUE_BYTES) throw new ServiceError("Argument too large: value");
    const ttl = Math.min(Math.max(1, expirationInSeconds ?? DEFAULT_TTL_S), MAX_TTL_S);
    this.data.entries.set(k, { value: v, expiresAt: this.now() + ttl * 1000 });
  }
  putAll(values: { [key: string]: string }, expirationInSeconds?: number): void {
    for (const [k, v] of Object.entries(values)) this.put(k, v, expirationInSeconds);
  }
  remove(key: string): void {
    this.data.entries.delete(this.checkKey(key));
  }
  removeAll(keys: string[]): void {
    for (const key of keys) this.remove(key);
  }
}

export interface CacheHost {
  now(): number;
  cache(kind: "script" | "document" | "user"): CacheData;
}

export class FakeCacheService
  extends Fake
  implements
    Implements<GoogleAppsScript.Cache.CacheService, "getScriptCache" | "getDocumentCache" | "getUserCache">
{
  static override readonly service = "CacheService";
  constructor(private readonly host: CacheHost) {
    super();
  }
  getScriptCache(): FakeCache {
    return new FakeCache(this.host.cache("script"), () => this.host.now());
  }
  getDocumentCache(): FakeCache {
    return new FakeCache(this.host.cache("document"), () => this.host.now());
  }
  getUserCache(): FakeCache {
    return new FakeCache(this.host.cache("user"), () => this.host.now());
  }
}
