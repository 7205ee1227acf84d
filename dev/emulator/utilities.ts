/**
 * Utilities and Blob: formatDate (Java SimpleDateFormat), sleep (advances the emulator clock),
 * digests and HMAC as signed byte arrays like Java's, base64, UUIDs, blobs.
 */
import { createHash, createHmac, randomUUID } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { makeEnum } from "./enums";
import { ServiceError } from "./errors";
import { formatDate } from "./format-date";
import { Fake, isDate } from "./realm";
import type { Implements } from "./typed";

export const DIGEST_ALGORITHM = makeEnum(["MD2", "MD5", "SHA_1", "SHA_256", "SHA_384", "SHA_512"] as const);
export const CHARSET = makeEnum(["US_ASCII", "UTF_8"] as const);

const NODE_DIGEST: Record<string, string> = {
  MD5: "md5",
  SHA_1: "sha1",
  SHA_256: "sha256",
  SHA_384: "sha384",
  SHA_512: "sha512",
};

/** Bytes as Apps Script returns them: Java's signed bytes (-128..127). */
export function toSignedBytes(buf: Buffer): number[] {
  return Array.from(buf, (b) => (b > 127 ? b - 256 : b));
}

export function fromBytesOrString(data: unknown): Buffer {
  if (typeof data === "string") return Buffer.from(data, "utf8");
  if (Array.isArray(data)) return Buffer.from(data.map((b) => Number(b) & 0xff));
  if (data instanceof FakeBlob) return data.bytes;
  if (data && typeof (data as FakeBlob).getBytes === "function") {
    return Buffer.from(((data as FakeBlob).getBytes() as number[]).map((b) => b & 0xff));
  }
  throw new ServiceError("Invalid argument: data");
}

export class FakeBlob
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Base.Blob,
      | "getBytes"
      | "getDataAsString"
      | "getContentType"
      | "setContentType"
      | "getName"
      | "setName"
      | "copyBlob"
      | "setDataFromString"
    >
{
  static override readonly service = "Blob";
  constructor(
    public bytes: Buffer,
    private contentType: string | null = null,
    private name: string | null = null,
  ) {
    super();
  }
  getBytes(): number[] {
    return toSignedBytes(this.bytes);
  }
  getDataAsString(charset?: string): string {
    return this.bytes.toString(charset && /ascii/i.test(charset) ? "latin1" : "utf8");
  }
  setDataFromString(string: string): this {
    this.bytes = Buffer.from(String(string), "utf8");
    return this;
  }
  getContentType(): string | null {
    return this.contentType;
  }
  setContentType(contentType: string | null): this {
    this.contentType = contentType;
    return this;
  }
  getName(): string | null {
    return this.name;
  }
  setName(name: string): this {
    this.name = String(name);
    return this;
  }
  copyBlob(): FakeBlob {
    return new FakeBlob(Buffer.from(this.bytes), this.contentType, this.name);
  }
}

export interface UtilitiesHost {
  /** Utilities.sleep: the emulator clock moves on instead of the thread blocking. */
  sleep(ms: number): void;
}

type Members =
  | "formatDate"
  | "sleep"
  | "computeDigest"
  | "computeHmacSha256Signature"
  | "base64Encode"
  | "base64EncodeWebSafe"
  | "base64Decode"
  | "base64DecodeWebSafe"
  | "getUuid"
  | "newBlob"
  | "gzip"
  | "ungzip"
  | "formatString";

export class FakeUtilities extends Fake implements Implements<GoogleAppsScript.Utilities.Utilities, Members> {
  static override readonly service = "Utilities";
  readonly DigestAlgorithm = DIGEST_ALGORITHM;
  readonly Charset = CHARSET;
  constructor(private readonly host: UtilitiesHost) {
    super();
  }
  formatDate(date: GoogleAppsScript.Base.Date, timeZone: string, format: string): string {
    if (!isDate(date)) throw new ServiceError("Invalid argument: date");
    const ms = (date as unknown as Date).getTime();
    if (Number.isNaN(ms)) throw new ServiceError("Invalid argument: date");
    try {
      return formatDate(ms, String(timeZone), String(format));
    } catch (err) {
      throw new ServiceError(
        err instanceof RangeError ? `Invalid argument: timeZone` : `Invalid argument: format`,
      );
    }
  }
  sleep(milliseconds: number): void {
    if (typeof milliseconds !== "number" || milliseconds < 0)
      throw new ServiceError("Invalid argument: milliseconds");
    // Apps Script caps one sleep at 5 minutes.
    this.host.sleep(Math.min(milliseconds, 300_000));
  }
  computeDigest(algorithm: GoogleAppsScript.Utilities.DigestAlgorithm, value: string | number[]): number[] {
    const name = NODE_DIGEST[String(algorithm)];
    if (!name) throw new ServiceError("Invalid argument: algorithm");
    return toSignedBytes(createHash(name).update(fromBytesOrString(value)).digest());
  }
  computeHmacSha256Signature(value: string | number[], key: string | number[]): number[] {
    return toSignedBytes(
      createHmac("sha256", fromBytesOrString(key)).update(fromBytesOrString(value)).digest(),
    );
  }
  base64Encode(data: string | number[]): string {
    return fromBytesOrString(data).toString("base64");
  }
  base64EncodeWebSafe(data: string | number[]): string {
    return fromBytesOrString(data).toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
  }
  base64Decode(encoded: string): number[] {
    return toSignedBytes(Buffer.from(String(encoded), "base64"));
  }
  base64DecodeWebSafe(encoded: string): number[] {
    return toSignedBytes(Buffer.from(String(encoded).replace(/-/g, "+").replace(/_/g, "/"), "base64"));
  }
  getUuid(): string {
    return randomUUID();
  }
  newBlob(data: string | number[], contentType?: string, name?: string): FakeBlob {
    return new FakeBlob(fromBytesOrString(data), contentType ?? null, name ?? null);
  }
  gzip(blob: GoogleAppsScript.Base.BlobSource, name?: string): FakeBlob {
    const source = fromBytesOrString(blob);
    return new FakeBlob(gzipSync(source), "application/x-gzip", name ?? null);
  }
  /**
   * Utilities.ungzip: only a blob whose content type says gzip ("application/x-gzip", what
   * Utilities.gzip gives) is unpacked. The stricter reading of Google's behaviour: gzip bytes in
   * a blob without that type are refused like bytes that are not gzip (docs/real-apps-script.md).
   */
  ungzip(blob: GoogleAppsScript.Base.BlobSource): FakeBlob {
    const type = blob instanceof FakeBlob ? blob.getContentType() : null;
    if (type !== "application/x-gzip") throw new ServiceError("Could not decompress gzip.");
    try {
      return new FakeBlob(gunzipSync(fromBytesOrString(blob)));
    } catch (_err) {
      throw new ServiceError("Could not decompress gzip.");
    }
  }
  formatString(template: string, ...args: unknown[]): string {
    let i = 0;
    return String(template).replace(/%[sdif%]/g, (m) => (m === "%%" ? "%" : String(args[i++])));
  }
}
