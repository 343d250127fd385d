// The poker table's pure logic: bet sizes stay inside legal, pre-actions, seat places.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Legal } from "../src/gen/protocol";
import { clampTo, fromPreAction, preActionHolds, presets, seatPlace } from "../src/games/poker";

function legal(over: Partial<Legal>): Legal {
  return {
    fold: true, check: false, call: true, bet: false, raise: true, bring_in: false, call_amount: 1,
    min_to: 4, max_to: 200, two_sizes: false, bring_in_amount: 0, phase: "betting", min_discard: 0, max_discard: 0, rollover: 0,
    ...over,
  };
}

test("a pot-sized raise is the call plus the pot after it", () => {
  // Blinds 1/2, the small blind to act: pot 3 (both blinds in front), level 2, call 1.
  const p = presets(legal({}), "no-limit", 3, 2);
  assert.deepEqual(p.map((x) => x.label), ["Min", "¾ pot", "Pot", "All-in"]);
  assert.equal(p.find((x) => x.label === "Pot")!.to, 6); // 2 + (3 + 1)
  // A bigger pot: every fraction shows.
  const q = presets(legal({ call_amount: 10, min_to: 30, max_to: 500 }), "no-limit", 50, 20);
  assert.deepEqual(q.map((x) => [x.label, x.to]), [["Min", 30], ["½ pot", 50], ["¾ pot", 65], ["Pot", 80], ["All-in", 500]]);
});

test("pot limit: the largest preset is the pot limit itself; fixed limit has none", () => {
  const p = presets(legal({ min_to: 4, max_to: 6 }), "pot-limit", 3, 2);
  assert.equal(p[p.length - 1]!.label, "Max");
  assert.equal(p[p.length - 1]!.to, 6);
  assert.deepEqual(presets(legal({ min_to: 4, max_to: 4 }), "fixed-limit", 3, 2), []);
  assert.deepEqual(presets(legal({ bet: false, raise: false }), "no-limit", 3, 2), []);
});

test("every preset and every clamped amount lies within min_to..max_to, over random situations", () => {
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 20_000; ++i) {
    const min = 1 + rand(500), max = min + rand(5000);
    const l = legal({ min_to: min, max_to: max, call_amount: rand(min + 1) });
    const ps = presets(l, rand(2) ? "no-limit" : "pot-limit", rand(10_000), rand(min + 1));
    for (const p of ps) assert.ok(p.to >= min && p.to <= max, `${p.label} ${p.to} outside ${min}..${max}`);
    const tos = ps.map((p) => p.to);
    assert.deepEqual(tos, [...tos].sort((a, b) => a - b));
    assert.equal(new Set(tos).size, tos.length);
    const typed = rand(20_000) - 5000;
    const c = clampTo(l, typed);
    assert.ok(c >= min && c <= max);
  }
  assert.equal(clampTo(legal({}), NaN), 4);
});

test("pre-actions become the action they promise, or nothing", () => {
  assert.deepEqual(fromPreAction("check_fold", legal({ check: true })), { action: "check" });
  assert.deepEqual(fromPreAction("check_fold", legal({ check: false })), { action: "fold" });
  assert.equal(fromPreAction("check", legal({ check: false })), null);
  assert.deepEqual(fromPreAction("call_any", legal({})), { action: "call" });
  assert.deepEqual(fromPreAction("call_any", legal({ call: false, check: true })), { action: "check" });
  // "check" is dropped once somebody bets; the others hold.
  assert.equal(preActionHolds("check", 2, 2), true);
  assert.equal(preActionHolds("check", 2, 6), false);
  assert.equal(preActionHolds("call_any", 2, 6), true);
  assert.equal(preActionHolds("check_fold", 2, 6), true);
});

test("the viewer's seat is at the bottom centre, the others clockwise, all inside the box", () => {
  for (let n = 2; n <= 9; ++n)
    for (let mine = 0; mine < n; ++mine) {
      const me = seatPlace(mine, n, mine);
      assert.ok(Math.abs(me.x - 50) < 1e-9 && me.y > 85);
      for (let s = 0; s < n; ++s) {
        const p = seatPlace(s, n, mine);
        assert.ok(p.x >= 0 && p.x <= 100 && p.y >= 0 && p.y <= 100);
      }
      if (n >= 3) assert.ok(seatPlace((mine + 1) % n, n, mine).x < 50); // the next seat is to the left
    }
});

test("a resumed snapshot gives the clock, the hand so far in the log, and every card seen", async () => {
  const { fromSnapshot } = await import("../src/tableview");
  const seat = (s: number, name: string, cards: string) => ({
    seat: s, name, stack: 190, sitting_out: false, connected: true, time_bank_ms: 5000, bet: 0, in_hand: 10, folded: false, cards, card_count: 2,
  });
  const m = {
    type: "table", table: 3, seq: 9, kind: "snapshot", your_seat: 0,
    config: { game: "poker", variant: "holdem", structure: "no-limit", seats: 2 },
    seats: [seat(0, "ann", "As Kd"), seat(1, "bob", "")],
    hand: {
      number: 4, hand_id: 77, commitment: "ab12", button: 1, board: "2c 3d 4h", to_act: 0, pots: [{ amount: 20, eligible: [0, 1] }],
      events: [
        { kind: "blind", seat: 1, amount: 1 }, { kind: "blind", seat: 0, amount: 2 },
        { kind: "deal_down", seat: 0, count: 2, cards: "As Kd" }, { kind: "deal_down", seat: 1, count: 2 },
        { kind: "call", seat: 1, amount: 1 }, { kind: "raise", seat: 0, amount: 10 }, { kind: "call", seat: 1, amount: 8 },
        { kind: "street", amount: 1 }, { kind: "deal_board", count: 3, cards: "2c 3d 4h" },
      ],
    },
    clock: { seat: 0, deadline_ms: 12_000, time_bank_ms: 5000, banking: false },
  } as unknown as Parameters<typeof fromSnapshot>[0];
  const v = fromSnapshot(m, 1000);
  assert.equal(v.hand!.deadline, 13_000);
  assert.equal(v.hand!.bankMs, 0);
  assert.equal(v.hand!.commitment, "ab12");
  assert.equal(v.hand!.handId, 77);
  assert.deepEqual(v.log, ["Hand 4 begins", "bob posts 1", "ann posts 2", "bob calls 1", "ann raises to 10", "bob calls 8", "Board: 2♣ 3♦ 4♥"]);
  for (const c of ["As", "Kd", "2c", "3d", "4h"]) assert.ok(v.hand!.seen.has(c), c);
  // On the time bank, the clock left is the bank's.
  const banked = fromSnapshot({ ...m, clock: { seat: 0, deadline_ms: 4000, time_bank_ms: 5000, banking: true } } as typeof m, 0);
  assert.equal(banked.hand!.bankMs, 4000);
  // A snapshot of the hand the view already follows keeps its log rather than adding it twice.
  const again = fromSnapshot(m, 2000, { ...v, log: ["kept"] });
  assert.deepEqual(again.log, ["kept"]);
});

test("an amount typed for a bet is judged in words: empty, negative, not a whole number, below the least", async () => {
  const { amountProblem } = await import("../src/ui/poker");
  const l = legal({ min_to: 4, max_to: 200 });
  assert.equal(amountProblem("", l), "Type an amount.");
  assert.equal(amountProblem("-5", l), "An amount cannot be negative.");
  assert.equal(amountProblem("12.5", l), "Type the amount as a whole number of chips.");
  assert.equal(amountProblem("lots", l), "Type the amount as a whole number of chips.");
  assert.equal(amountProblem("3", l), "The least you may raise to is 4.");
  assert.equal(amountProblem("3", legal({ raise: false, bet: true, min_to: 4 })), "The least you may bet is 4.");
  assert.equal(amountProblem(" 40 ", l), null);
  assert.equal(amountProblem("99999999", l), null); // past the stack: asked, not refused
});

test("a mixed tournament's hi-lo hand: its game in the title line, each show's low, and the pot as high and low halves", async () => {
  const { applyTable, fromSnapshot } = await import("../src/tableview");
  const { potLines } = await import("../src/view");
  type Msg = Parameters<typeof applyTable>[1];
  const seat = (s: number, name: string) => ({ seat: s, name, stack: 100, sitting_out: false, connected: true, time_bank_ms: 0 });
  let v = fromSnapshot(
    {
      type: "table", table: 5, seq: 1, kind: "snapshot", your_seat: 0,
      config: { game: "poker", variant: "holdem", structure: "fixed-limit", seats: 3, tournament: 2 },
      seats: [seat(0, "ann"), seat(1, "bob"), seat(2, "cy")],
    } as unknown as Parameters<typeof fromSnapshot>[0],
    0,
  );
  const msg = (seq: number, m: object) => ({ type: "table", table: 5, seq, ...m }) as Msg;
  v = applyTable(v, msg(2, { kind: "hand_start", hand: 3, hand_id: 40, button: 0, stacks: [100, 100, 100], commitment: "", variant: "omaha-hilo", structure: "fixed-limit" }), 10);
  assert.equal(v.hand!.game, "omaha-hilo, fixed-limit");
  assert.equal(v.log.at(-1), "Hand 3 begins: omaha-hilo, fixed-limit");
  v = applyTable(v, msg(3, {
    kind: "update",
    events: [
      { kind: "show", seat: 0, count: 4, cards: "Ks Td 9h 9c", category: "three_of_a_kind", made: "three kings" },
      { kind: "show", seat: 2, count: 4, cards: "Ah 4d Qc Jc", category: "one_pair", made: "a pair of kings, ace kicker", low: "a seven-four low" },
      { kind: "win", seat: 0, amount: 3, pot: 0, half: "high" },
      { kind: "win", seat: 2, amount: 2, pot: 0, half: "low" },
    ],
  }), 20);
  assert.ok(v.log.includes("cy shows A♥ 4♦ Q♣ J♣: a pair of kings, ace kicker; low: a seven-four low"), v.log.join("\n"));
  assert.ok(v.log.includes("ann wins 3 (high)"));
  v = applyTable(v, msg(4, { kind: "hand_end", hand: 3, hand_id: 40, net: [1, -1, 0], stacks: [101, 99, 100], fairness: null }), 30);
  assert.deepEqual(potLines(v, v.lastEnd!), ["Pot of 5: high: ann 3 (three kings), low: cy 2 (a seven-four low)"]);
});
