// The leap rummy table's view, its replay from the history, and sorting along a leap.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Snapshot, TableMessage } from "../src/gen/protocol";
import { alongLeap, leapCount, leapReplay, meldsByLeap } from "../src/games/leap";
import { applyTable, fromSnapshot } from "../src/tableview";

const msg = (seq: number, m: object) => ({ type: "table", table: 3, seq, ...m }) as TableMessage;

function snapshot(): Snapshot {
  return {
    type: "table",
    table: 3,
    seq: 1,
    kind: "snapshot",
    config: { game: "leap", seats: 2, ranks: 13 },
    your_seat: 1,
    seats: [
      { seat: 0, name: "ann", stack: 200, sitting_out: false, connected: true, time_bank_ms: 0 },
      { seat: 1, name: "bob", stack: 150, sitting_out: false, connected: true, time_bank_ms: 0 },
    ],
  };
}

test("a game: the deal, draws, a meld with its token, an extension, a join, discards, retiring, the end", () => {
  let v = fromSnapshot(snapshot(), 0);
  let seq = 1;
  const step = (m: object) => (v = applyTable(v, msg(++seq, m), 1000));
  step({ kind: "deal", hand: 1, hand_id: 7, dealer: 0, players: [0, 1], stacks: [200, 150], hand_size: 5, stock: 42, commitment: "ab", cards: "3h 5h 7h 9h Kd" });
  assert.deepEqual(v.leap?.cards, ["3h", "5h", "7h", "9h", "Kd"]);
  assert.deepEqual(v.leap?.handSizes, [5, 5]);
  step({ kind: "turn", hand: 1, turn: 1, seat: 1, phase: "turn", may_meld: false, open_leaps: [1, 2], stock: 42, hand_sizes: [5, 5], scores: [0, 0], retired: [false, false], deadline_ms: 500, time_bank_ms: 0 });
  assert.equal(v.leap?.deadline, 1500);
  step({ kind: "drew", hand: 1, seat: 1, count: 2, cards: "Jh 2c" });
  assert.equal(v.leap?.cards.length, 7);
  assert.equal(v.leap?.stock, 40);
  step({ kind: "melded", hand: 1, seat: 1, meld: 1, leap: 2, cards: "3h 5h 7h", points: 1 });
  step({ kind: "took_token", hand: 1, seat: 1, leap: 2 });
  assert.deepEqual(v.leap?.cards, ["9h", "Kd", "Jh", "2c"]);
  assert.equal(v.leap?.tokens[1], 1);
  step({ kind: "discarded", hand: 1, seat: 1, card: "2c" });
  assert.deepEqual(v.leap?.cards, ["9h", "Kd", "Jh"]);
  // Another's draw and discard: counts only.
  step({ kind: "drew", hand: 1, seat: 0, count: 2 });
  step({ kind: "discarded", hand: 1, seat: 0 });
  assert.equal(v.leap?.cards.length, 3);
  step({ kind: "melded", hand: 1, seat: 1, meld: 2, leap: 2, cards: "Jh Kh Ah", points: 1 });
  step({ kind: "extended", hand: 1, seat: 1, meld: 1, added: 1, cards: "3h 5h 7h 9h", points: 3 });
  assert.equal(v.leap?.cards.includes("9h"), false);
  step({ kind: "joined", hand: 1, seat: 1, meld: 1, other: 2, cards: "3h 5h 7h 9h Jh Kh Ah", points: 15 });
  assert.deepEqual(v.leap?.melds.map((m) => m.meld), [1]);
  assert.equal(v.leap?.melds[0]?.points, 15);
  step({ kind: "retired", hand: 1, seat: 0, score: -31, cards_left: 4 });
  assert.deepEqual(v.leap?.retired, [true, false]);
  step({ kind: "game_end", hand: 1, hand_id: 7, scores: [-31, 13], net: [-44, 44], stacks: [156, 194], fairness: { leaves: [], shown: [] } });
  assert.deepEqual(v.seats.map((s) => s?.stack), [156, 194]);
  assert.deepEqual(v.leap?.end?.scores, [-31, 13]);
  assert.match(v.log.join("\n"), /bob melds 3h 5h 7h in leap 2 \(1 point\)/);
  assert.match(v.log.join("\n"), /ann retires with -31/);
  // The next game keeps this one's end on screen as the last.
  step({ kind: "deal", hand: 2, hand_id: 8, dealer: 1, players: [0, 1], stacks: [156, 194], hand_size: 5, stock: 42, commitment: "cd", cards: "2h 3h 4h 5h 6h" });
  assert.equal(v.leap?.end, null);
  assert.deepEqual(v.leap?.last?.scores, [-31, 13]);
});

test("a game from the history, step by step from the server's replay", () => {
  const views = leapReplay({
    hand: 7,
    number: 1,
    config: { players: [0, 1], stacks: [200, 150], seats: 2, dealer: 0, hand_size: 5 },
    replay: {
      matches: true,
      steps: [
        [{ kind: "drew", seat: 1, count: 2 }, { kind: "turn", turn: 1, seat: 1, phase: "melding", may_meld: true, open_leaps: [2], stock: 40, hand_sizes: [5, 7], scores: [0, 0], retired: [false, false] }],
        [{ kind: "melded", seat: 1, meld: 1, leap: 2, cards: "3h 5h 7h", points: 1 }, { kind: "took_token", seat: 1, leap: 2 }],
      ],
    },
  });
  assert.equal(views.length, 3);
  assert.equal(views[0]!.melds.length, 0);
  assert.deepEqual(views[1]!.handSizes, [5, 7]);
  assert.equal(views[2]!.melds[0]?.cards, "3h 5h 7h");
  assert.equal(views[2]!.tokens[1], 1);
  assert.deepEqual(meldsByLeap(views[2]!.melds).map(([k]) => k), [2]);
});

test("sorting along a leap: by suit, then in the order a walk of that many ranks visits them", () => {
  assert.equal(leapCount(13), 6);
  assert.equal(leapCount(5), 2);
  // Leap 2 from A: A 3 5 7 9 J K 2 4 6 8 T Q.
  assert.deepEqual(alongLeap(["2h", "Ah", "Kh", "3h", "As"], 2, 13), ["As", "Ah", "3h", "Kh", "2h"]);
  // 12 ranks, leap 4: three cycles (1 5 9, 2 6 10, ...), each in turn.
  assert.deepEqual(alongLeap(["2c", "9c", "5c", "1c"], 4, 12), ["1c", "5c", "9c", "2c"]);
  // Every card kept, jokers last.
  const hand = ["Xx", "Kd", "3s", "Qd"];
  assert.deepEqual(alongLeap(hand, 1, 13).sort(), [...hand].sort());
  assert.equal(alongLeap(hand, 1, 13).at(-1), "Xx");
});
