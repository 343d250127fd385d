// The Chinese poker table's view and the split in progress, without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";
import { complete, emptySplit, loadSplit, place, reasonWords, saveSplit, sortCards, take, targetRow, unplaced } from "../src/games/chinese";
import type { Snapshot, TableMessage } from "../src/gen/protocol";
import { applyTable, fromSnapshot } from "../src/tableview";

const kCards = "As Ah Kd Qc Js 9h 8d 7c 5s 4h 3d 2c 6s";

function snapshot(): Snapshot {
  return {
    type: "table",
    table: 4,
    seq: 1,
    kind: "snapshot",
    config: { game: "chinese", seats: 2, profile: "classic" },
    your_seat: 0,
    seats: [
      { seat: 0, name: "ann", stack: 40, sitting_out: false, connected: true, time_bank_ms: 0 },
      { seat: 1, name: "bob", stack: 40, sitting_out: false, connected: true, time_bank_ms: 0 },
    ],
  };
}

test("a deal, a seat's split in, the reveal: the view follows, and the next deal keeps the reveal as the last", () => {
  let v = fromSnapshot(snapshot(), 0);
  assert.equal(v.chinese, null);
  const msg = (seq: number, m: object) => ({ type: "table", table: 4, seq, ...m }) as TableMessage;
  v = applyTable(v, msg(2, { kind: "deal", hand: 1, hand_id: 9, dealer: 1, seats: [0, 1], stacks: [40, 40], commitment: "ab", deadline_ms: 1000, cards: kCards }), 500);
  assert.equal(v.chinese?.cards.length, 13);
  assert.equal(v.chinese?.deadline, 1500);
  v = applyTable(v, msg(3, { kind: "submitted", hand: 1, seat: 1, by: "player" }), 600);
  assert.deepEqual(v.chinese?.submitted, [1]);
  const end = {
    kind: "deal_end", hand: 1, hand_id: 9,
    arrangements: [
      { seat: 0, front: "3d 2c 6s", middle: "9h 8d 7c 5s 4h", back: "As Ah Kd Qc Js", declare: null, surrender: false, by: "player" },
      { seat: 1, front: "2d 3h 4s", middle: "5c 6d 8s 9s Tc", back: "Ks Kh Qd Jh Th", declare: null, surrender: false, by: "player" },
    ],
    payments: [{ from: 1, to: 0, units: 1, chips: 1, reason: "back" }],
    settled: [{ from: 1, to: 0, pass: "rest", units: 1, chips: 1 }],
    net: [1, -1], rake: [0, 0], stacks: [41, 39], fairness: { leaves: [], shown: [] },
  };
  v = applyTable(v, msg(4, end), 700);
  assert.equal(v.chinese?.end?.payments.length, 1);
  assert.deepEqual(v.chinese?.end?.settled, end.settled);
  assert.deepEqual(v.seats.map((s) => s?.stack), [41, 39]);
  assert.equal(v.chinese?.end?.verdict?.ok, false); // no leaves: the check fails, and says so
  v = applyTable(v, msg(5, { kind: "deal", hand: 2, hand_id: 10, dealer: 0, seats: [0, 1], stacks: [41, 39], commitment: "cd", deadline_ms: 1000 }), 800);
  assert.equal(v.chinese?.end, null);
  assert.equal(v.chinese?.last?.hand, 1);
  assert.deepEqual(v.chinese?.cards, []); // a spectator's copy: no cards
});

test("the split in progress: cards move between the hand and rows of fixed size", () => {
  const cards = kCards.split(" ");
  let s = emptySplit();
  assert.equal(targetRow(s, null), "back");
  for (const c of cards.slice(0, 5)) s = place(s, c, "back");
  assert.equal(place(s, "6s", "back"), s); // a full row takes nothing
  assert.equal(targetRow(s, "back"), "middle");
  s = place(s, "As", "front"); // moved, not copied
  assert.deepEqual(s.front, ["As"]);
  assert.equal(s.back.includes("As"), false);
  assert.equal(unplaced(cards, s).length, 13 - 5);
  s = take(s, "As");
  assert.equal(unplaced(cards, s).length, 13 - 4);
  assert.equal(complete(s), false);
  for (const c of unplaced(cards, s)) s = place(s, c, targetRow(s, null)!);
  assert.equal(complete(s), true);
  assert.deepEqual(sortCards(["2c", "As", "Kd", "Ah"], "rank"), ["As", "Ah", "Kd", "2c"]);
  assert.deepEqual(sortCards(["2c", "As", "Kd", "Ah"], "suit"), ["As", "Ah", "Kd", "2c"].sort((a, b) => "shdc".indexOf(a[1]!) - "shdc".indexOf(b[1]!)));
});

test("the split is kept in storage per table and deal, and a stored split of other cards is not used", () => {
  const store = new Map<string, string>();
  const st = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  const cards = kCards.split(" ");
  const s = place(place(emptySplit(), "As", "front"), "Ah", "front");
  saveSplit(st, 4, 9, s);
  assert.deepEqual(loadSplit(st, 4, 9, cards), s);
  assert.equal(loadSplit(st, 4, 10, cards), null);
  assert.equal(loadSplit(st, 4, 9, ["2d", "3d"]), null); // not these cards
  store.set("felt.split.4.9", "{not json");
  assert.equal(loadSplit(st, 4, 9, cards), null);
});

test("payment reasons in words", () => {
  assert.equal(reasonWords("front"), "wins the front");
  assert.equal(reasonWords("royalty back four_of_a_kind"), "royalty: four of a kind in the back");
  assert.equal(reasonWords("special six_pairs"), "special hand: six pairs");
  assert.equal(reasonWords("surrender"), "surrender");
});
