// The table view rebuilt from table messages, seq gaps, and the connection's handshake,
// requests, resume and backoff against a fake socket.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backoff, Connection, RequestError, type SocketLike } from "../src/connection";
import type { Snapshot, TableMessage } from "../src/gen/protocol";
import { betLevel, potTotal, replayViews } from "../src/games/poker";
import { applyTable, fromSnapshot } from "../src/tableview";
import { potLines } from "../src/view";
import { deal } from "./deal";

const snap: Snapshot = {
  type: "table", table: 1, seq: 10, kind: "snapshot",
  config: { game: "poker", variant: "holdem", structure: "no-limit", seats: 3 },
  seats: [
    { seat: 0, name: "ann", stack: 100, sitting_out: false, connected: true, time_bank_ms: 0 },
    { seat: 2, name: "bob", stack: 100, sitting_out: false, connected: true, time_bank_ms: 0 },
  ],
  your_seat: 0,
};

function play(messages: Omit<TableMessage, "type" | "table" | "seq">[]) {
  let v = fromSnapshot(snap, 0);
  let seq = snap.seq;
  for (const m of messages) v = applyTable(v, { type: "table", table: 1, seq: ++seq, ...m } as TableMessage, 1000);
  return v;
}

test("a hand moves the seats, bets, board and pots as the messages say; the end sets the stacks", () => {
  const v = play([
    { kind: "hand_start", hand: 1, hand_id: 5, button: 0, stacks: [100, 0, 100], commitment: "ab" },
    {
      kind: "update",
      events: [
        { kind: "blind", seat: 0, amount: 1 },
        { kind: "blind", seat: 2, amount: 2 },
        { kind: "deal_down", seat: 0, count: 2, cards: "As Kd" },
        { kind: "deal_down", seat: 2, count: 2 },
        { kind: "street" },
      ],
      turn: { seat: 0, deadline_ms: 30000, time_bank_ms: 0, legal: { fold: true, check: false, call: true, bet: false, raise: true, bring_in: false, call_amount: 1, min_to: 4, max_to: 100, bring_in_amount: 0, phase: "betting", min_discard: 0, max_discard: 0, rollover: 0 } },
      pots: [],
    },
  ] as never);
  assert.equal(v.seats[0]!.stack, 99);
  assert.equal(v.seats[0]!.bet, 1);
  assert.deepEqual(v.seats[0]!.cards, ["As", "Kd"]);
  assert.equal(v.seats[2]!.cardCount, 2);
  assert.deepEqual(v.seats[2]!.cards, []);
  assert.equal(v.hand!.toAct, 0);
  assert.equal(v.hand!.deadline, 31000);
  assert.ok(v.legal);
  assert.equal(potTotal(v), 3);
  assert.equal(betLevel(v), 2);
  const w = applyTable(v, { type: "table", table: 1, seq: 13, kind: "update", events: [{ kind: "raise", seat: 0, amount: 6 }, { kind: "call", seat: 2, amount: 4 }, { kind: "street", amount: 1 }, { kind: "deal_board", count: 3, cards: "2c 3c 4c" }], pots: [{ amount: 12, eligible: [0, 2] }], turn: { seat: 2, deadline_ms: 100, time_bank_ms: 0 } }, 0);
  assert.equal(w.seats[0]!.stack, 94);
  assert.equal(w.seats[2]!.stack, 94);
  assert.equal(w.seats[0]!.bet, 0);
  assert.deepEqual(w.hand!.board, ["2c", "3c", "4c"]);
  assert.equal(potTotal(w), 12);
  assert.equal(w.legal, null); // not this viewer's turn
  const end = applyTable(w, { type: "table", table: 1, seq: 14, kind: "hand_end", hand: 1, hand_id: 5, net: [-6, 0, 6], stacks: [94, 0, 106], fairness: { leaves: [], shown: [] } }, 0);
  assert.equal(end.seats[2]!.stack, 106);
  assert.deepEqual(end.lastEnd!.pots, [{ pot: 0, amount: 6, winners: [{ seat: 2, amount: 6, cards: [], made: "" }] }]); // from the nets: no win event
  // With a showdown: what each winner took from the pots, and the cards they showed.
  const shown = applyTable(w, { type: "table", table: 1, seq: 14, kind: "update", events: [{ kind: "show", seat: 0, count: 2, cards: "As Kd", category: "two_pair" }, { kind: "show", seat: 2, count: 2, cards: "7h 7d", category: "one_pair" }, { kind: "win", seat: 0, pot: 0, amount: 12 }, { kind: "hand_end" }] }, 0);
  const won = applyTable(shown, { type: "table", table: 1, seq: 15, kind: "hand_end", hand: 1, hand_id: 5, net: [6, 0, -6], stacks: [106, 0, 94], fairness: { leaves: [], shown: [] } }, 0);
  assert.deepEqual(won.lastEnd!.pots, [{ pot: 0, amount: 12, winners: [{ seat: 0, amount: 12, cards: ["As", "Kd"], made: "two pair" }] }]);
  assert.equal(won.seats[2]!.made, "one pair");
  assert.deepEqual(won.seats[2]!.cards, ["7h", "7d"]);
  assert.equal(end.lastEnd!.verdict!.ok, false); // "ab" is no commitment of these leaves
});

test("stud: cards dealt face up are known as up; the rest of the player's own are hole cards", () => {
  const v = play([
    { kind: "hand_start", hand: 1, hand_id: 5, button: 0, stacks: [100, 0, 100], commitment: "ab" },
    { kind: "update", events: [
      { kind: "deal_down", seat: 0, count: 2, cards: "As Kd" }, { kind: "deal_up", seat: 0, count: 1, cards: "7c" },
      { kind: "deal_down", seat: 2, count: 2 }, { kind: "deal_up", seat: 2, count: 1, cards: "9h" },
    ] },
  ] as never);
  assert.deepEqual(v.seats[0]!.cards, ["As", "Kd", "7c"]);
  assert.deepEqual(v.seats[0]!.up, ["7c"]);
  assert.deepEqual(v.seats[2]!.cards, ["9h"]);
  assert.equal(v.seats[2]!.cardCount, 3);
  // A rollover (Mexican stud) turns a hole card up.
  const r = applyTable(v, { type: "table", table: 1, seq: 13, kind: "update", events: [{ kind: "rollover", seat: 0, amount: 1, cards: "Kd" }] }, 0);
  assert.deepEqual(r.seats[0]!.up, ["7c", "Kd"]);
  assert.deepEqual(r.seats[0]!.cards, ["As", "Kd", "7c"]);
});

test("a table passes its game's own messages to the game and no other: a poker table keeps a Chinese deal and a leap draw out of its view", () => {
  const v = play([
    { kind: "deal", hand: 1, hand_id: 5, dealer: 0, seats: [0, 2], stacks: [100, 0, 100], commitment: "ab", deadline_ms: 1000 },
    { kind: "drew", seat: 0, count: 1 },
  ] as unknown as Omit<TableMessage, "type" | "table" | "seq">[]);
  assert.equal(v.seq, snap.seq + 2); // taken in order, not a gap
  assert.equal(v.chinese, null);
  assert.equal(v.leap, null);
  assert.deepEqual(v.log, []);
  // The same deal at a Chinese poker table is its deal, with its line.
  let c = fromSnapshot({ ...snap, config: { ...snap.config, game: "chinese" } }, 0);
  c = applyTable(c, { type: "table", table: 1, seq: snap.seq + 1, kind: "deal", hand: 1, hand_id: 5, dealer: 0, seats: [0, 2], stacks: [100, 0, 100], commitment: "ab", deadline_ms: 1000 } as unknown as TableMessage, 0);
  assert.equal(c.chinese?.hand, 1);
  assert.deepEqual(c.log, ["Deal 1 begins"]);
});

test("a gap in seq makes the view stale until a snapshot comes", () => {
  const v = fromSnapshot(snap, 0);
  const gap = applyTable(v, { type: "table", table: 1, seq: 12, kind: "chat", seat: 0, name: "ann", text: "hi" }, 0);
  assert.equal(gap.stale, true);
  assert.equal(gap.chat.length, 0);
  const still = applyTable(gap, { type: "table", table: 1, seq: 13, kind: "chat", seat: 0, name: "ann", text: "hi" }, 0);
  assert.equal(still.chat.length, 0);
  const back = applyTable(still, { ...snap, seq: 13 }, 0);
  assert.equal(back.stale, false);
  assert.equal(applyTable(back, { type: "table", table: 1, seq: 14, kind: "chat", seat: 0, name: "ann", text: "hi" }, 0).chat.length, 1);
});

test("seats come and go, sit out, lose their connection and top up", () => {
  const v = play([
    { kind: "seated", seat: 1, name: "cy", stack: 50 },
    { kind: "sitting_out", seat: 1, reason: "chosen" },
    { kind: "connection", seat: 1, connected: false },
    { kind: "topped_up", seat: 1, name: "cy", amount: 25, stack: 75 },
  ] as never);
  assert.equal(v.seats[1]!.stack, 75);
  assert.equal(v.seats[1]!.sittingOut, true);
  assert.equal(v.seats[1]!.connected, false);
  const gone = applyTable(v, { type: "table", table: 1, seq: 15, kind: "left", seat: 0, name: "ann", stack: 100 }, 0);
  assert.equal(gone.seats[0], null);
  assert.equal(gone.mySeat, null);
});

test("a replay steps from the starting stacks through each event, skipping recorded actions", () => {
  const views = replayViews({
    hand: 5, table: 1, number: 1, your_seat: 0,
    config: { names: ["ann", null, "bob"], stacks: [100, 0, 100], button: 0 },
    events: [
      { kind: "blind", seat: 0, amount: 1 }, { kind: "blind", seat: 2, amount: 2 },
      { kind: "action", seat: 0, action: "fold", by: "player" } as never, { kind: "fold", seat: 0 },
      { kind: "uncalled", seat: 2, amount: 1 }, { kind: "win", seat: 2, amount: 2 },
    ] as never,
  });
  assert.equal(views.length, 6);
  assert.equal(views[0]!.seats[0]!.stack, 100);
  assert.equal(views[0]!.seats[1], null);
  assert.equal(views[5]!.seats[0]!.stack, 99);
  assert.equal(views[5]!.seats[2]!.stack, 101);
  assert.equal(views[3]!.seats[2]!.bet, 2); // the big blind, still in front before the end
  const ended = replayViews({
    hand: 5, table: 1, number: 1, your_seat: 0,
    config: { names: ["ann", null, "bob"], stacks: [100, 0, 100], button: 0 },
    events: [{ kind: "blind", seat: 0, amount: 1 }, { kind: "blind", seat: 2, amount: 2 }, { kind: "fold", seat: 0 }, { kind: "win", seat: 2, amount: 3 }, { kind: "hand_end" }] as never,
  }).at(-1)!;
  assert.deepEqual(ended.seats.map((s) => s?.bet ?? null), [0, null, 0]); // nothing left in front at the end
});

test("a replay ends as the table did: each pot with its winners and hands, and the deal checked", () => {
  // ann (seat 0, the asker) is all in for 50 with Ah Kh; bob and cy cover; cy's Qs Qd wins both pots.
  const cards = ["Ah", "Kh", "Jc", "Jd", "Qs", "Qd", "2c", "3d", "4h", "8s", "9c"];
  const d = deal(cards);
  const record = {
    hand: 9, table: 1, number: 3, your_seat: 0,
    config: { names: ["ann", "bob", "cy"], stacks: [50, 100, 100], button: 0 },
    events: [
      { kind: "deal_down", seat: 0, count: 2, cards: "Ah Kh" }, { kind: "deal_down", seat: 1, count: 2 }, { kind: "deal_down", seat: 2, count: 2 },
      { kind: "raise", seat: 0, amount: 50 }, { kind: "all_in", seat: 0 }, { kind: "call", seat: 1, amount: 50 }, { kind: "call", seat: 2, amount: 50 },
      { kind: "street", amount: 1 }, { kind: "deal_board", count: 5, cards: "2c 3d 4h 8s 9c" },
      { kind: "bet", seat: 1, amount: 20 }, { kind: "call", seat: 2, amount: 20 },
      { kind: "show", seat: 0, count: 2, cards: "Ah Kh", category: "high_card", made: "ace high, king kicker" },
      { kind: "show", seat: 1, count: 2, cards: "Jc Jd", category: "one_pair", made: "a pair of jacks" },
      { kind: "show", seat: 2, count: 2, cards: "Qs Qd", category: "one_pair", made: "a pair of queens" },
      { kind: "win", seat: 2, amount: 150, pot: 0 }, { kind: "win", seat: 2, amount: 40, pot: 1 }, { kind: "hand_end" },
    ] as never,
    seats: [{ seat: 0, stack_end: 0, net: -50 }, { seat: 1, stack_end: 30, net: -70 }, { seat: 2, stack_end: 220, net: 120 }],
    commitment: d.commitment,
    fairness: { leaves: d.leaves, shown: [2, 3, 4, 5, 6, 7, 8, 9, 10].map(d.open), yours: [d.open(0), d.open(1)] },
  };
  const end = replayViews(record).at(-1)!;
  assert.deepEqual(potLines(end, end.lastEnd!), [
    "Main pot: cy wins 150 with a pair of queens (Q♠ Q♦)",
    "Side pot 1: cy wins 40 with a pair of queens (Q♠ Q♦)",
  ]);
  assert.deepEqual(end.lastEnd!.net, [-50, -70, 120]);
  assert.equal(end.lastEnd!.verdict?.ok, true);
  assert.equal(end.lastEnd!.verdict?.opened, 11);
  assert.equal(end.log.at(-1), "Hand 3 ends (deal verified)");
  assert.match(end.log.join("\n"), /cy shows Q♠ Q♦: a pair of queens/);
  // Before the end no step has the results; a card the asker saw but the reveal does not open
  // fails the check.
  assert.ok(replayViews(record).slice(0, -1).every((v) => v.lastEnd === null));
  const unopened = replayViews({ ...record, fairness: { ...record.fairness, yours: [d.open(0)] } }).at(-1)!;
  assert.equal(unopened.lastEnd!.verdict?.ok, false);
  assert.equal(unopened.log.at(-1), "Hand 3 ends (deal NOT verified)");
});

class FakeSocket implements SocketLike {
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.onclose?.();
  }
  reply(extra: Record<string, unknown>) {
    const last = this.sent[this.sent.length - 1]!;
    this.onmessage?.({ data: JSON.stringify({ type: last["type"], id: last["id"], ok: true, ...extra }) });
  }
  refuse(code: string) {
    const last = this.sent[this.sent.length - 1]!;
    this.onmessage?.({ data: JSON.stringify({ type: "error", id: last["id"], code, message: code }) });
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test("a handshake the server never answers is given up, and the connection tried again", async () => {
  const sockets: FakeSocket[] = [];
  const log: string[] = [];
  const conn = new Connection("ws://x/ws", {
    status: (s) => log.push(s),
    signedIn: () => {},
    signedOut: () => {},
    push: () => {},
  }, { get: () => null, set: () => {} }, () => {
    const s = new FakeSocket();
    sockets.push(s);
    return s;
  }, () => 1, 20);
  conn.start();
  sockets[0]!.onopen!();
  assert.deepEqual(sockets[0]!.sent[0], { type: "hello", id: 1, version: 2 }); // and no answer
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(sockets.length, 2, "a second socket after the first stalled");
  assert.ok(log.includes("reconnecting"));
  sockets[1]!.onopen!();
  sockets[1]!.reply({ version: 2, server: "feltd" });
  await tick();
  assert.ok(conn.isOnline());
  await new Promise((r) => setTimeout(r, 40)); // the answered handshake is not given up
  assert.equal(sockets.length, 2);
  assert.ok(conn.isOnline());
  conn.stop();
});

test("the connection says hello, resumes with the kept token, and answers requests by id", async () => {
  const sockets: FakeSocket[] = [];
  let token: string | null = "t1";
  const log: string[] = [];
  const delays: number[] = [];
  let away: unknown = null;
  const conn = new Connection("ws://x/ws", {
    status: (s) => log.push(s),
    signedIn: (a, resumed, elsewhere) => (log.push(`in ${a.name} ${resumed}`), (away = elsewhere)),
    signedOut: (r) => log.push(`out ${r}`),
    push: (m) => log.push(`push ${m.type}`),
  }, { get: () => token, set: (t) => (token = t) }, () => {
    const s = new FakeSocket();
    sockets.push(s);
    return s;
  }, (a) => (delays.push(a), 1));
  conn.start();
  const s = sockets[0]!;
  await assert.rejects(conn.request("ping", {}), (e: RequestError) => e.code === "offline");
  s.onopen!();
  assert.deepEqual(s.sent[0], { type: "hello", id: 1, version: 2 });
  s.reply({ version: 2, server: "feltd" });
  await tick();
  assert.deepEqual(s.sent[1], { type: "resume", id: 2, token: "t1" });
  s.reply({ account: { id: 1, name: "ann", guest: false, balance: 5 }, token: "t1", elsewhere: [{ table: 3, url: "ws://y/ws" }] });
  await tick();
  assert.ok(log.includes("in ann true"));
  assert.deepEqual(away, [{ table: 3, url: "ws://y/ws" }], "the seats held on other nodes reach the controller");
  const pinged = conn.request("ping", {});
  s.reply({});
  assert.equal((await pinged).type, "ping");
  const refused = conn.request("join", { table: 9, buy_in: 1 });
  s.refuse("no_such_table");
  await assert.rejects(refused, (e: RequestError) => e.code === "no_such_table");
  s.onmessage!({ data: JSON.stringify({ type: "lobby", kind: "closed", id: 3 }) });
  assert.ok(log.includes("push lobby"));
  // The connection drops: what waits is refused, and it comes back after the backoff.
  const lost = conn.request("ping", {});
  s.close();
  await assert.rejects(lost, (e: RequestError) => e.code === "disconnected");
  assert.deepEqual(delays, [0]);
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(sockets.length, 2);
  // A token the server no longer knows is forgotten: signed out, not stuck.
  const s2 = sockets[1]!;
  s2.onopen!();
  s2.reply({ version: 2, server: "feltd" });
  await tick();
  s2.refuse("unauthorized");
  await tick();
  assert.equal(token, null);
  assert.ok(log.includes("out expired"));
  conn.stop();
});

test("backoff doubles from half a second to ten, with jitter that only shortens it", () => {
  assert.equal(backoff(0, () => 0), 500);
  assert.equal(backoff(1, () => 0), 1000);
  assert.equal(backoff(3, () => 0), 4000);
  assert.equal(backoff(20, () => 0), 10_000);
  assert.equal(backoff(20, () => 1), 5000);
});

test("a join answered moved connects to that node, resumes with the token and joins there", async () => {
  const sockets: FakeSocket[] = [];
  const urls: string[] = [];
  const log: string[] = [];
  const conn = new Connection("ws://a/ws", {
    status: () => {},
    signedIn: (a, resumed) => log.push(`in ${a.name} ${resumed}`),
    signedOut: () => {},
    push: () => {},
    moved: (url) => log.push(`moved ${url}`),
  }, { get: () => "t1", set: () => {} }, (url) => {
    const s = new FakeSocket();
    sockets.push(s);
    urls.push(url);
    return s;
  }, () => 1);
  const online = async (s: FakeSocket) => {
    s.onopen!();
    s.reply({ version: 2, server: "feltd" });
    await tick();
    s.reply({ account: { id: 1, name: "ann", guest: true, balance: 5 }, token: "t1" });
    await tick();
  };
  conn.start();
  await online(sockets[0]!);
  const joined = conn.request("join", { table: 7, buy_in: 100 });
  const moved = sockets[0]!.sent.at(-1)!;
  sockets[0]!.onmessage!({ data: JSON.stringify({ type: "error", id: moved["id"], code: "moved", message: "elsewhere", url: "ws://b/ws" }) });
  await tick();
  assert.deepEqual(urls, ["ws://a/ws", "ws://b/ws"], "straight to the other node, no backoff");
  assert.equal(conn.where(), "ws://b/ws");
  const b = sockets[1]!;
  await online(b);
  assert.deepEqual(b.sent[1], { type: "resume", id: 5, token: "t1" });
  assert.deepEqual(b.sent.at(-1), { type: "join", id: 6, table: 7, buy_in: 100 });
  b.reply({ table: 7, seat: 0 });
  assert.equal((await joined).type, "join");
  assert.deepEqual(log, ["in ann true", "moved ws://b/ws", "in ann true"]);
  // Moved a second time for the same request: refused, not followed round and round.
  const again = conn.request("spectate", { table: 8 });
  b.onmessage!({ data: JSON.stringify({ type: "error", id: b.sent.at(-1)!["id"], code: "moved", message: "m", url: "ws://a/ws" }) });
  await tick();
  const a2 = sockets[2]!;
  await online(a2);
  a2.onmessage!({ data: JSON.stringify({ type: "error", id: a2.sent.at(-1)!["id"], code: "moved", message: "m", url: "ws://b/ws" }) });
  await assert.rejects(again, (e: RequestError) => e.code === "moved" && e.url === "ws://b/ws");
  assert.equal(sockets.length, 3);
  conn.stop();
});

test("results: each pot with its own winners, a split said as split, hand names with kickers, and the results kept into the next hand", async () => {
  const { potLines } = await import("../src/view");
  const three: Snapshot = {
    ...snap,
    config: { ...snap.config, stakes: { small_blind: 1, big_blind: 2 } },
    seats: [0, 1, 2].map((seat) => ({ seat, name: ["ann", "bob", "cy"][seat]!, stack: 100, sitting_out: false, connected: true, time_bank_ms: 0 })),
    your_seat: 1,
  };
  let seq = three.seq;
  const step = (v: ReturnType<typeof fromSnapshot>, m: object) => applyTable(v, { type: "table", table: 1, seq: ++seq, ...m } as TableMessage, 0);
  let v = fromSnapshot(three, 0);
  v = step(v, { kind: "hand_start", hand: 1, hand_id: 5, button: 0, stacks: [20, 100, 100], commitment: "ab" });
  v = step(v, { kind: "update", events: [{ kind: "blind", seat: 1, amount: 1 }, { kind: "blind", seat: 2, amount: 2 }, { kind: "raise", seat: 0, amount: 20 }, { kind: "all_in", seat: 0 }] });
  // The blinds are marked, and each seat's last action shows until the street ends.
  assert.deepEqual(v.seats.map((s) => s!.blind), ["", "SB", "BB"]);
  assert.equal(v.seats[0]!.lastAction, "raise to 20, all in");
  v = step(v, { kind: "update", events: [{ kind: "call", seat: 1, amount: 19 }, { kind: "call", seat: 2, amount: 18 }, { kind: "street", amount: 1 }, { kind: "check", seat: 1 }] });
  assert.deepEqual(v.seats.map((s) => s!.lastAction), ["", "check", ""]);
  v = step(v, { kind: "update", events: [
    { kind: "bet", seat: 2, amount: 50 }, { kind: "call", seat: 1, amount: 50 }, { kind: "street", amount: 4 },
    { kind: "show", seat: 0, count: 2, cards: "Qs Qd", category: "one_pair", made: "a pair of queens, ace kicker" },
    { kind: "show", seat: 1, count: 2, cards: "Kc 7c", category: "flush", made: "flush, king high" },
    { kind: "show", seat: 2, count: 2, cards: "Kh 7h", category: "flush", made: "flush, king high" },
    { kind: "win", seat: 1, pot: 0, amount: 30 }, { kind: "win", seat: 2, pot: 0, amount: 30 }, { kind: "win", seat: 1, pot: 1, amount: 100 },
    { kind: "hand_end" },
  ] });
  v = step(v, { kind: "hand_end", hand: 1, hand_id: 5, net: [-20, 60, -40], stacks: [0, 160, 60], fairness: { leaves: [], shown: [] } });
  assert.deepEqual(potLines(v, v.lastEnd!), [
    "Main pot of 60 split: bob 30 (flush, king high), cy 30 (flush, king high)",
    "Side pot 1: bob wins 100 with flush, king high (K♣ 7♣)",
  ]);
  // Ann busted: cashed out, she stays on screen, marked, until the next hand starts.
  v = step(v, { kind: "left", seat: 0, name: "ann", stack: 0 });
  assert.equal(v.seats[0]!.gone, true);
  v = step(v, { kind: "hand_start", hand: 2, hand_id: 6, button: 1, stacks: [0, 160, 60], commitment: "cd" });
  assert.equal(v.seats[0], null);
  assert.equal(v.lastEnd!.hand, 1); // still on screen, as the last hand
  assert.deepEqual(v.seats.map((s) => s?.lastAction ?? null), [null, "", ""]);
  // One winner of one pot: no pot named.
  assert.deepEqual(potLines(v, { hand: 2, pots: [{ pot: 0, amount: 3, winners: [{ seat: 1, amount: 3, cards: [], made: "" }] }] }), ["bob wins 3"]);
});

test("a time-out: poker says it with the server's action; another game says the time is up", () => {
  let v = play([
    { kind: "hand_start", hand: 1, hand_id: 5, button: 0, stacks: [100, 0, 100], commitment: "ab" },
    { kind: "update", events: [{ kind: "blind", seat: 0, amount: 1 }, { kind: "blind", seat: 2, amount: 2 }] },
    { kind: "timed_out", hand: 1, seat: 0 },
    { kind: "update", events: [{ kind: "fold", seat: 0 }] },
  ] as never);
  assert.equal(v.log.at(-1), "ann timed out, folds");
  assert.equal(v.timedOut, null);
  v = applyTable(v, { type: "table", table: 1, seq: v.seq + 1, kind: "update", events: [{ kind: "check", seat: 2 }] } as TableMessage, 0);
  assert.equal(v.log.at(-1), "bob checks");
  const leap = { ...fromSnapshot(snap, 0), game: "leap" };
  const told = applyTable(leap, { type: "table", table: 1, seq: snap.seq + 1, kind: "timed_out", hand: 1, seat: 2 } as TableMessage, 0);
  assert.equal(told.log.at(-1), "bob's time is up");
});

test("an all-in: the hands shown at once, each street's odds at the seats, none after the showdown", () => {
  const v = play([
    { kind: "hand_start", hand: 1, hand_id: 5, button: 0, stacks: [100, 0, 100], commitment: "ab" },
    {
      kind: "update",
      events: [
        { kind: "raise", seat: 0, amount: 100 }, { kind: "all_in", seat: 0 }, { kind: "call", seat: 2, amount: 98 }, { kind: "all_in", seat: 2 },
        { kind: "show", seat: 2, count: 2, cards: "Kd Kc", early: true }, { kind: "show", seat: 0, count: 2, cards: "As Ks", early: true },
      ],
    },
    { kind: "odds", hand: 1, street: 0, method: "exact", seats: [{ seat: 0, equity: 34.1, ties: 0.8 }, { seat: 2, equity: 65.9, ties: 0.8 }] },
  ] as never);
  assert.deepEqual(v.seats[2]!.cards, ["Kd", "Kc"]); // shown before the board
  assert.equal(v.seats[2]!.made, ""); // named only at the showdown
  assert.equal(v.hand!.odds!.seats[1]!.equity, 65.9);
  assert.ok(v.log.some((l) => l === "Odds: ann 34.1%, bob 65.9%"));
  // Another hand's odds change nothing; the showdown clears them.
  const stale = applyTable(v, { type: "table", table: 1, seq: 14, kind: "odds", hand: 2, street: 1, method: "exact", seats: [] }, 0);
  assert.equal(stale.hand!.odds!.street, 0);
  const shown = applyTable(stale, { type: "table", table: 1, seq: 15, kind: "update", events: [{ kind: "street", amount: 1 }, { kind: "deal_board", count: 5, cards: "2c 3d 4h 8s 9c" }, { kind: "show", seat: 2, count: 2, cards: "Kd Kc", category: "one_pair" }] } as never, 0);
  assert.equal(shown.hand!.odds, null);
});

test("a replay shows the server's odds from the event they follow, against a random hand when none was shown", () => {
  const views = replayViews({
    hand: 5, table: 1, number: 1, your_seat: 0,
    config: { names: ["ann", null, "bob"], stacks: [100, 0, 100], button: 0 },
    events: [
      { kind: "deal_down", seat: 0, count: 2, cards: "As Ks" }, { kind: "deal_down", seat: 2, count: 2 },
      { kind: "street", amount: 1 }, { kind: "deal_board", count: 3, cards: "2c 3d 4h" },
      { kind: "fold", seat: 2 }, { kind: "win", seat: 0, amount: 3 }, { kind: "all_in_ev", seats: [] },
    ] as never,
    odds: [
      { event: 1, street: 0, seats: [{ seat: 0, equity: 67.0, ties: 1.0 }, { seat: -1, equity: 33.0, ties: 1.0 }], against_random: true },
      { event: 3, street: 1, seats: [{ seat: 0, equity: 60.2, ties: 2.0 }, { seat: -1, equity: 39.8, ties: 2.0 }], against_random: true },
    ],
  });
  assert.equal(views.length, 7); // the start and six events: the all-in EV record is not a step
  assert.equal(views[1]!.hand!.odds, null);
  assert.equal(views[2]!.hand!.odds!.seats[0]!.equity, 67.0);
  assert.equal(views[2]!.hand!.odds!.againstRandom, true);
  assert.equal(views[4]!.hand!.odds!.seats[0]!.equity, 60.2);
  assert.ok(views[4]!.log.includes("Odds against a random hand: ann 60.2%, a random hand 39.8%"));
});
