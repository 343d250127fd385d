// Tournaments in words (src/tournament.ts), and the controller following a tournament's player
// from table to table.
import assert from "node:assert/strict";
import { test } from "node:test";
import { breakInMs, clockWords, dealWords, finishWords, levelWords, ordinal, purchases, standingOf, standingsOrder, type Standing } from "../src/tournament";
import type { Connection } from "../src/connection";
import { Controller } from "../src/controller";
import type { Snapshot } from "../src/gen/protocol";
import { hashOf, initialState, screenFromHash, Store } from "../src/store";
import { fromSnapshot } from "../src/tableview";

test("places are written as people say them", () => {
  const got = [1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal);
  assert.deepEqual(got, ["1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"]);
});

test("a level's stakes in words, for blinds and for stud", () => {
  assert.equal(levelWords({ level: 4, small_blind: 50, big_blind: 100, ante: 10 }), "blinds 50/100, ante 10");
  assert.equal(levelWords({ small_blind: 25, big_blind: 50, big_blind_ante: 50 }), "blinds 25/50, big-blind ante 50");
  assert.equal(levelWords({ ante: 5, bring_in: 10, small_bet: 40, big_bet: 80 }), "ante 5, bring-in 10, bets 40/80");
});

test("the clock in minutes and seconds, rounded up, never negative", () => {
  assert.equal(clockWords(65_000), "1:05");
  assert.equal(clockWords(64_001), "1:05");
  assert.equal(clockWords(3_725_000), "1:02:05");
  assert.equal(clockWords(-5), "0:00");
});

test("the next break: the rest of this level and the levels before the break", () => {
  const levels = [{ minutes: 10 }, { minutes: 10 }, { break_minutes: 5 }, { minutes: 15 }, { minutes: 15 }];
  assert.equal(breakInMs(levels, 1, 60_000), 60_000 + 600_000);
  assert.equal(breakInMs(levels, 2, 30_000), 30_000);
  assert.equal(breakInMs(levels, 3, 30_000), null); // no break after level 3
  assert.equal(breakInMs([{ hands: 10 }, { break_minutes: 5 }, { hands: 10 }], 1, 0), 0);
});

test("the player's place by chips among those still in, and the standings' order", () => {
  const s: Standing[] = [
    { name: "ann", place: null, prize: 0, tied: false, stack: 900 },
    { name: "bob", place: 4, prize: 0, tied: false },
    { name: "cy", place: null, prize: 0, tied: false, stack: 2400 },
    { name: "di", place: 3, prize: 60, tied: false },
    { name: "ed", place: null, prize: 0, tied: false, stack: 900 },
  ];
  assert.deepEqual(standingOf(s, "ann"), { rank: 2, of: 3, stack: 900 });
  assert.deepEqual(standingOf(s, "ed"), { rank: 2, of: 3, stack: 900 });
  assert.deepEqual(standingOf(s, "cy"), { rank: 1, of: 3, stack: 2400 });
  assert.equal(standingOf(s, "bob"), null);
  assert.deepEqual(standingsOrder(s).map((x) => x.name), ["cy", "ann", "ed", "di", "bob"]);
});

test("a finish in words", () => {
  assert.equal(finishWords(4, 1, 420, false), "You won tournament 4: first place, prize 420.");
  assert.equal(finishWords(4, 3, 0, false), "You finished 3rd in tournament 4.");
  assert.equal(finishWords(4, 2, 90, true), "You finished 2nd (tied) in tournament 4, prize 90.");
});

test("a tournament's page has its own address", () => {
  assert.deepEqual(screenFromHash("#/tournament/12"), { name: "tournament", id: 12 });
  assert.equal(hashOf({ name: "tournament", id: 12 }), "#/tournament/12");
});

// A table of tournament 7 (or a cash table, without one) as a snapshot gives it.
function tableOf(table: number, tournament?: number) {
  const m: Snapshot = {
    type: "table", table, seq: 1, kind: "snapshot",
    config: { game: "poker", variant: "holdem", structure: "no-limit", seats: 3 },
    seats: [{ seat: 1, name: "ann", stack: 1500, sitting_out: false, connected: true, time_bank_ms: 0 }],
    your_seat: 1,
    ...(tournament !== undefined ? { tournament } : {}),
  };
  return fromSnapshot(m, 0);
}

test("the page follows its player to the table a tournament moves them to, and says where they finished", () => {
  let events: { push: (m: unknown) => void } | undefined;
  const store = new Store(initialState({ name: "table", id: 3 }));
  new Controller(store, (e) => {
    events = e as never;
    return { request: () => Promise.reject(new Error("offline")) } as unknown as Connection;
  });
  store.update(() => ({ tables: new Map([[3, tableOf(3, 7)]]) }));
  assert.equal(store.get().tables.get(3)!.config["tournament"], 7, "the snapshot's tournament is kept with the table");

  events!.push({ type: "tournament", kind: "moved", tournament: 7, from_table: 3, table: 5, seat: 1 });
  assert.deepEqual(store.get().screen, { name: "table", id: 5 });
  assert.equal(store.get().tables.has(3), false, "the table left is shown no more");
  assert.equal(store.get().notice!.text, "You move to table 5, seat 2.");

  // Looking at a cash table of their own, the player is told, and stays.
  store.update(() => ({ screen: { name: "table", id: 9 }, tables: new Map([[9, tableOf(9)]]) }));
  events!.push({ type: "tournament", kind: "moved", tournament: 7, from_table: 5, table: 6, seat: 0 });
  assert.deepEqual(store.get().screen, { name: "table", id: 9 });
  assert.equal(store.get().notice!.text, "You move to table 6, seat 1.");

  events!.push({ type: "tournament", kind: "out", tournament: 7, place: 3, prize: 90, tied: false });
  assert.equal(store.get().notice!.text, "You finished 3rd in tournament 7, prize 90.");
  assert.equal(store.get().notice!.sticky, true);
  events!.push({ type: "tournament", kind: "cancelled", tournament: 8, reason: "1 registered, below the 2 it needs: every entry is refunded" });
  assert.equal(store.get().notice!.text, "Tournament 8 is cancelled: 1 registered, below the 2 it needs: every entry is refunded.");
});

test("a deal in words: who proposed it, by what, and who must still answer", () => {
  assert.equal(dealWords({ method: "icm", proposed_by: "ann", accepted: ["ann"] }), "ann proposes a deal by ICM: its terms come when the hand ends.");
  const terms = [
    { name: "ann", stack: 5200, prize: 244 },
    { name: "bob", stack: 2800, prize: 204 },
    { name: "cy", stack: 1000, prize: 152 },
  ];
  assert.equal(dealWords({ method: "chips", proposed_by: "bob", accepted: ["bob"], terms }), "bob proposes a deal by chip count. Waiting for ann, cy.");
  assert.equal(dealWords({ method: "icm", proposed_by: "ann", accepted: ["ann", "bob", "cy"], terms }), "ann proposes a deal by ICM. Everyone agreed.");
});

test("a deal's pushes: kept by tournament until it is off or the player finishes", () => {
  let events: { push: (m: unknown) => void } | undefined;
  const store = new Store(initialState());
  new Controller(store, (e) => {
    events = e as never;
    return { request: () => Promise.reject(new Error("offline")) } as unknown as Connection;
  });
  const deal = { method: "icm", proposed_by: "ann", accepted: ["ann"] };
  events!.push({ type: "tournament", kind: "deal", tournament: 7, deal });
  assert.deepEqual(store.get().deals.get(7), deal);
  events!.push({ type: "tournament", kind: "deal_off", tournament: 7, reason: "bob declined the deal" });
  assert.equal(store.get().deals.has(7), false);
  assert.equal(store.get().notice!.text, "Tournament 7: the deal is off (bob declined the deal). Play goes on.");
  events!.push({ type: "tournament", kind: "deal", tournament: 7, deal });
  events!.push({ type: "tournament", kind: "won", tournament: 7, place: 1, prize: 244, tied: false });
  assert.equal(store.get().deals.has(7), false);
  events!.push({ type: "tournament", kind: "hand_for_hand", tournament: 8, remaining: 28 });
  assert.equal(store.get().notice!.text, "Tournament 8: hand-for-hand on the bubble (28 left): each table plays one hand and waits for the others.");
});

test("the entry period's buttons follow the view: register, re-enter, rebuy, add-on", () => {
  const config = { reentries: 1, rebuy_stack_limit: 1500 };
  const open = { late_registration_open: true, reentry_open: true, rebuys_open: true, add_on_open: false, config };
  const ann: Standing = { name: "ann", place: null, prize: 0, tied: false, stack: 1500, table: 3 };
  const busted: Standing = { ...ann, stack: 0, busted: true };
  // Not in it: a late registration only.
  assert.deepEqual(purchases({ ...open, standings: [] }, "ann"), { register: true, reenter: false, rebuy: false, addOn: false });
  // At the limit: a rebuy; above it, none.
  assert.deepEqual(purchases({ ...open, standings: [ann] }, "ann"), { register: false, reenter: false, rebuy: true, addOn: false });
  assert.equal(purchases({ ...open, standings: [{ ...ann, stack: 1501 }] }, "ann").rebuy, false);
  // Out of chips with the seat kept: a rebuy or a re-entry; the seat given up, a re-entry only.
  assert.deepEqual(purchases({ ...open, standings: [busted] }, "ann"), { register: false, reenter: true, rebuy: true, addOn: false });
  const away = { ...busted, table: undefined };
  assert.deepEqual(purchases({ ...open, standings: [away] }, "ann"), { register: false, reenter: true, rebuy: false, addOn: false });
  // Re-entered once (the most): the last entry counts, and no second re-entry.
  const second: Standing = { ...busted, entry: 2 };
  assert.equal(purchases({ ...open, standings: [away, second] }, "ann").reenter, false);
  assert.equal(standingOf([away, { ...ann, entry: 2 }], "ann")?.stack, 1500);
  assert.equal(standingOf([busted, { ...ann, name: "bob" }], "ann"), null); // out of chips: no rank
  // The add-on's break: with chips only; the windows closed, nothing.
  const addOn = { ...open, late_registration_open: false, reentry_open: false, rebuys_open: false, add_on_open: true };
  assert.equal(purchases({ ...addOn, standings: [ann] }, "ann").addOn, true);
  assert.equal(purchases({ ...addOn, standings: [busted] }, "ann").addOn, false);
  assert.deepEqual(purchases({ config, standings: [ann] }, "ann"), { register: false, reenter: false, rebuy: false, addOn: false });
});
