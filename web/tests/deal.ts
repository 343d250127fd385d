// A deal committed the way feltd commits it (protocol/fairness.cpp), for the tests that check
// the client's fairness check.
import { createHash, randomBytes } from "node:crypto";

export function deal(cards: string[], seed?: string) {
  const salts = cards.map(() => new Uint8Array(randomBytes(16)));
  const leaf = (salt: Uint8Array, text: string) => createHash("sha256").update(salt).update(text).digest();
  const leaves = cards.map((c, i) => leaf(salts[i]!, c));
  const seedSalt = new Uint8Array(randomBytes(16));
  const all = seed ? [...leaves, leaf(seedSalt, seed)] : leaves;
  const commitment = createHash("sha256").update(Buffer.concat(all)).digest("hex");
  const open = (i: number) => ({ position: i, card: cards[i]!, salt: Buffer.from(salts[i]!).toString("hex") });
  return {
    commitment,
    leaves: leaves.map((l) => l.toString("hex")),
    seedLeaf: seed ? all[all.length - 1]!.toString("hex") : undefined,
    seed: seed ? { value: seed, salt: Buffer.from(seedSalt).toString("hex") } : undefined,
    open,
  };
}
