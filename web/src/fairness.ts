// The fairness check of protocol version 2 (docs/protocol.md, "Fairness"), done by the client:
// the leaves hash to the commitment made before the deal, every opened card hashes to its leaf,
// and every card the player saw during the hand is among those opened to them.
import type { Fairness, Opened } from "./gen/protocol";
import { ascii, fromHex, sha256, toHex } from "./sha256";

export interface Verdict {
  ok: boolean;
  opened: number; // cards opened to this reader and checked
  problems: string[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function leafOf(saltHex: string, text: string): string | null {
  const salt = fromHex(saltHex);
  return salt ? toHex(sha256(concat([salt, ascii(text)]))) : null;
}

// `seen`: every card this reader saw in the hand (its own and the public ones), as card texts.
export function verifyDeal(commitment: string, f: Fairness, seen: Iterable<string>): Verdict {
  const problems: string[] = [];
  const leaves: Uint8Array[] = [];
  for (const [i, leaf] of f.leaves.entries()) {
    const bytes = fromHex(leaf);
    if (!bytes || bytes.length !== 32) problems.push(`leaf ${i} is not 32 bytes of hex`);
    else leaves.push(bytes);
  }
  if (f.seed_leaf !== undefined) {
    const bytes = fromHex(f.seed_leaf);
    if (!bytes || bytes.length !== 32) problems.push("the seed's leaf is not 32 bytes of hex");
    else leaves.push(bytes);
  }
  if (toHex(sha256(concat(leaves))) !== commitment.toLowerCase())
    problems.push("the leaves do not hash to the commitment made before the deal");
  const opened = new Set<string>();
  const check = (o: Opened) => {
    const leaf = f.leaves[o.position];
    if (leaf === undefined) return problems.push(`position ${o.position} has no leaf`);
    if (leafOf(o.salt, o.card) !== leaf.toLowerCase())
      return problems.push(`${o.card} at position ${o.position} does not match its leaf`);
    opened.add(o.card);
  };
  for (const o of f.shown) check(o);
  for (const o of f.yours ?? []) check(o);
  if (f.seed && f.seed_leaf !== undefined && leafOf(f.seed.salt, f.seed.value) !== f.seed_leaf)
    problems.push("the reshuffle seed does not match its leaf");
  for (const card of seen)
    if (!opened.has(card)) problems.push(`${card} was seen but not opened`);
  return { ok: problems.length === 0, opened: opened.size, problems };
}
