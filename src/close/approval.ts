/**
 * The journal's approval: a digest of its lines as the Journal sheet holds them, who approved
 * and when. Any change to the journal's cells afterwards voids it: the marking refuses until it
 * is approved again, naming what changed (a hash per line is kept beside the digest for that).
 * With four eyes asked, the marking is refused to the person who approved.
 */
import type { JournalApproval } from "./types";

/** A line of the Journal sheet as it stands: its row, its voucher and its cells as text. */
export interface SheetLine {
  row: number;
  voucher: string;
  cells: readonly string[];
}

/** What an approval keeps: the contract's three fields, and what names a change. */
export interface StoredApproval extends JournalApproval {
  month: string;
  /** Per voucher, in the sheet's order: its code, how many lines, the hash of each. */
  vouchers: { code: string; hashes: string }[];
}

/** A change since the approval, as data. */
export type JournalChange =
  | { code: "voucherAdded"; voucher: string }
  | { code: "voucherRemoved"; voucher: string }
  | { code: "lineChanged"; voucher: string; row: number }
  | { code: "linesAdded"; voucher: string; count: number }
  | { code: "linesRemoved"; voucher: string; count: number };

export type ApprovalCheck =
  | { ok: true }
  | { ok: false; reason: "notApproved" }
  | { ok: false; reason: "changed"; changes: JournalChange[] }
  | { ok: false; reason: "fourEyes"; approvedBy: string };

/** The one text of a line the digests read: its cells, JSON (no separator can be forged). */
function lineText(line: SheetLine): string {
  return JSON.stringify(line.cells);
}

/** FNV-1a, 32 bits, 8 hex digits: enough to tell which line changed (the digest guards the whole). */
export function lineHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The digest of the journal: `digest` (SHA-256 where it runs) of every line's text, in order. */
export function journalDigest(lines: readonly SheetLine[], digest: (text: string) => string): string {
  return digest(lines.map(lineText).join("\n"));
}

/** The approval of `lines` by `user` at `now`. */
export function approve(
  lines: readonly SheetLine[],
  month: string,
  user: string,
  now: string,
  digest: (text: string) => string,
): StoredApproval {
  const vouchers: { code: string; hashes: string }[] = [];
  for (const line of lines) {
    const last = vouchers[vouchers.length - 1];
    const hash = lineHash(lineText(line));
    if (last && last.code === line.voucher) last.hashes += hash;
    else vouchers.push({ code: line.voucher, hashes: hash });
  }
  return { digest: journalDigest(lines, digest), approvedBy: user, approvedAt: now, month, vouchers };
}

/** What changed between the approved lines and `lines`, voucher by voucher. */
export function journalChanges(approval: StoredApproval, lines: readonly SheetLine[]): JournalChange[] {
  const current = new Map<string, SheetLine[]>();
  for (const line of lines) current.set(line.voucher, [...(current.get(line.voucher) ?? []), line]);
  const approved = new Map(approval.vouchers.map((v) => [v.code, v.hashes]));
  const changes: JournalChange[] = [];
  for (const { code, hashes } of approval.vouchers) {
    const now = current.get(code);
    if (!now) {
      changes.push({ code: "voucherRemoved", voucher: code });
      continue;
    }
    const before = hashes.match(/.{8}/g) ?? [];
    now.forEach((line, i) => {
      if (i < before.length && before[i] !== lineHash(lineText(line))) {
        changes.push({ code: "lineChanged", voucher: code, row: line.row });
      }
    });
    if (now.length > before.length)
      changes.push({ code: "linesAdded", voucher: code, count: now.length - before.length });
    if (now.length < before.length) {
      changes.push({ code: "linesRemoved", voucher: code, count: before.length - now.length });
    }
  }
  for (const code of current.keys())
    if (!approved.has(code)) changes.push({ code: "voucherAdded", voucher: code });
  return changes;
}

/**
 * Whether the journal's `lines` may be marked by `user`: approved, unchanged since (its digest
 * equal), and, with four eyes, not by the one who approved. An unknown user (an empty address)
 * cannot be told apart from the approver: refused under four eyes.
 */
export function checkApproval(
  approval: StoredApproval | null,
  lines: readonly SheetLine[],
  digest: (text: string) => string,
  fourEyes: { required: boolean; user: string },
): ApprovalCheck {
  if (!approval) return { ok: false, reason: "notApproved" };
  if (journalDigest(lines, digest) !== approval.digest) {
    const changes = journalChanges(approval, lines);
    // Lines moved between vouchers, or a change the hashes missed: still a change.
    return { ok: false, reason: "changed", changes: changes.length > 0 ? changes : [] };
  }
  const user = fourEyes.user.trim().toLowerCase();
  if (fourEyes.required && (user === "" || user === approval.approvedBy.trim().toLowerCase())) {
    return { ok: false, reason: "fourEyes", approvedBy: approval.approvedBy };
  }
  return { ok: true };
}

/** A stored approval read back, or null when it is not one. */
export function parseApproval(text: string | null): StoredApproval | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredApproval>;
    const ok =
      typeof value.digest === "string" &&
      typeof value.approvedBy === "string" &&
      typeof value.approvedAt === "string" &&
      typeof value.month === "string" &&
      Array.isArray(value.vouchers) &&
      value.vouchers.every((v) => typeof v?.code === "string" && typeof v?.hashes === "string");
    return ok ? (value as StoredApproval) : null;
  } catch {
    return null;
  }
}
