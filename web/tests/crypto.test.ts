// SHA-256 against Node's own (OpenSSL) over many inputs, and the fairness check against deals
// committed here with Node's crypto, including the docs' worked example.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { test } from "node:test";
import { verifyDeal } from "../src/fairness";
import { deal } from "./deal";
import { ascii, fromHex, sha256, toHex } from "../src/sha256";

const nodeSha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

test("sha256 matches published vectors", () => {
  assert.equal(toHex(sha256(ascii(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(toHex(sha256(ascii("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    toHex(sha256(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(toHex(sha256(new Uint8Array(1_000_000).fill(0x61))), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
});

test("sha256 equals Node's over every length from 0 to 300 and random contents", () => {
  for (let n = 0; n <= 300; ++n) {
    const b = new Uint8Array(randomBytes(n));
    assert.equal(toHex(sha256(b)), nodeSha(b), `length ${n}`);
  }
});

test("hex round trips, and bad hex is refused", () => {
  const b = new Uint8Array(randomBytes(40));
  assert.deepEqual(fromHex(toHex(b)), b);
  assert.equal(fromHex("abc"), null);
  assert.equal(fromHex("zz"), null);
});

test("a deal opened honestly verifies; each kind of tampering is caught and named", () => {
  const cards = ["As", "Kd", "7c", "7d", "2h", "Qs"];
  const d = deal(cards, "42");
  const f = { leaves: d.leaves, seed_leaf: d.seedLeaf, seed: d.seed, shown: [d.open(4)], yours: [d.open(2), d.open(3)] };
  const ok = verifyDeal(d.commitment, f, ["7c", "7d", "2h"]);
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.ok, true);
  assert.equal(ok.opened, 3);
  // A card swapped after the deal.
  const swapped = verifyDeal(d.commitment, { ...f, yours: [{ ...d.open(2), card: "8c" }, d.open(3)] }, []);
  assert.equal(swapped.ok, false);
  assert.match(swapped.problems.join(), /8c at position 2 does not match/);
  // A different deck behind the same commitment.
  const other = deal(cards);
  assert.match(verifyDeal(d.commitment, { ...f, leaves: other.leaves }, []).problems.join(), /commitment/);
  // A card the player saw that is not opened to them.
  assert.match(verifyDeal(d.commitment, f, ["As"]).problems.join(), /As was seen but not opened/);
  // A seed that is not the one committed to.
  assert.match(verifyDeal(d.commitment, { ...f, seed: { ...d.seed!, value: "43" } }, []).problems.join(), /seed/);
});

test("the worked example of docs/protocol.md", () => {
  const salt = (start: number) => Array.from({ length: 16 }, (_, i) => (start + i).toString(16).padStart(2, "0")).join("");
  const leaves = [
    "f988a2eaef90de7a80945e6b5b76cf33e107f4554ac9580e3396c5185363affc",
    "c930d8546bc41a24d634bc415eafe38d9ee7f9bf6c21620eefff998d8b72619b",
    "368f3194cd2cadfdcb893f0db389feba6fe1e3fc7d787c43641cbdc0a987d74f",
  ];
  const f = {
    leaves,
    seed_leaf: "3da86729affdbbda96c2c1c9aab47e1c4ff25cab83da0dd6b5913fd1a12620a2",
    shown: [{ position: 0, card: "As", salt: salt(0) }],
    seed: { value: "42", salt: salt(0x30) },
  };
  const v = verifyDeal("941bb89bda490411d29f5e2c1b05a75c920b392bdc61759f6d08ffa21756e838", f, ["As"]);
  assert.deepEqual(v.problems, []);
  const noSeed = verifyDeal("ba5430203d1c08cd7b7a476934c38796fd22f248fa856fab792d75bd7023244c", { leaves, shown: [] }, []);
  assert.deepEqual(noSeed.problems, []);
});
