// The poker table's pure logic: its hand from a snapshot and its messages (the hand's start, each
// update's betting-engine events, its end with the fairness check), a finished hand replayed from
// the history, bet sizes inside what `legal` allows, pre-actions, and where the seats sit around
// the oval. The server judges every action; this only offers what it allows.
import type { Fairness, Legal, PokerEvent, Snapshot } from "../gen/protocol";
import { verifyDeal } from "../fairness";
import { cardList, categoryWords, endLine, nameOf, newSeat, suited, withLog, type HandView, type OddsView, type PotResult, type SeatView, type TableView } from "../view";
import type { TableGame } from "./game";

export type Structure = "no-limit" | "pot-limit" | "fixed-limit";

// A bet or raise total, kept inside min_to..max_to.
export function clampTo(legal: Legal, to: number): number {
  if (!Number.isFinite(to)) return legal.min_to;
  return Math.min(legal.max_to, Math.max(legal.min_to, Math.round(to)));
}

export interface Preset {
  label: string;
  to: number;
}

// Preset totals for a bet or raise: min, ½ pot, ¾ pot, pot and all-in, where the structure lets
// the size vary. A pot-sized raise is a call followed by a bet of the pot after that call:
// to = the bet level now + (pot + the call). `pot` counts every chip in the middle and in front of
// the seats; `level` is the highest bet of the round (what a call matches).
export function presets(
  legal: Legal,
  structure: Structure,
  pot: number,
  level: number,
): Preset[] {
  if (!(legal.bet || legal.raise) || legal.min_to >= legal.max_to || structure === "fixed-limit")
    return [];
  const potAfterCall = pot + legal.call_amount;
  const out: Preset[] = [{ label: "Min", to: legal.min_to }];
  for (const [label, frac] of [
    ["½ pot", 0.5],
    ["¾ pot", 0.75],
    ["Pot", 1],
  ] as const) {
    const to = clampTo(legal, level + Math.floor(potAfterCall * frac));
    if (to > legal.min_to && to < legal.max_to) out.push({ label, to });
  }
  out.push({ label: structure === "pot-limit" ? "Max" : "All-in", to: legal.max_to });
  // Two presets with the same total say the same thing once.
  return out.filter((p, i) => out.findIndex((q) => q.to === p.to) === i);
}

// What a player may ask for before their turn, as on the big sites.
export type PreAction = "check_fold" | "check" | "call_any";

// The action a pre-action becomes when the turn comes, or null when it no longer applies (then
// the player chooses by hand).
export function fromPreAction(
  pre: PreAction,
  legal: Legal,
): { action: "fold" | "check" | "call" } | null {
  switch (pre) {
    case "check_fold":
      return legal.check ? { action: "check" } : legal.fold ? { action: "fold" } : null;
    case "check":
      return legal.check ? { action: "check" } : null;
    case "call_any":
      return legal.call ? { action: "call" } : legal.check ? { action: "check" } : null;
  }
}

// A pre-action chosen at bet level `chosenAt` still stands at level `now`: "check" is dropped
// once somebody bets (the situation changed); the others hold.
export function preActionHolds(pre: PreAction, chosenAt: number, now: number): boolean {
  return pre !== "check" || now === chosenAt;
}

// Where seat `seat` of `seats` sits on the oval, in percent of the table's box, turned so that
// `mine` (the viewer's seat, or 0 for a spectator) is at the bottom centre.
export function seatPlace(seat: number, seats: number, mine: number): { x: number; y: number } {
  const k = (((seat - mine) % seats) + seats) % seats;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / seats; // clockwise from the bottom
  return { x: 50 + 44 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

// Every chip in the middle and in front of the seats: what a pot-sized bet is measured against.
export function potTotal(v: TableView): number {
  const middle = (v.hand?.pots ?? []).reduce((n, p) => n + p.amount, 0);
  return middle + v.seats.reduce((n, s) => n + (s?.bet ?? 0), 0);
}

// The highest bet of the round: what a call matches.
export function betLevel(v: TableView): number {
  return v.seats.reduce((n, s) => Math.max(n, s?.bet ?? 0), 0);
}

function smallBlind(v: Pick<TableView, "config">): number {
  const stakes = v.config["stakes"] as Record<string, number> | undefined;
  return stakes?.["small_blind"] ?? 0;
}

// The pots of a finished hand with their winners, from the win events (by pot); without them (a
// hand whose start was not seen), one pot from the nets.
export function potResults(seats: (SeatView | null)[], won: HandView["won"], net: number[]): PotResult[] {
  const wins: HandView["won"] = won.length ? won : net.flatMap((n, seat) => (n > 0 ? [{ seat, amount: n, pot: 0 }] : []));
  const pots: PotResult[] = [];
  for (const w of wins) {
    let p = pots.find((x) => x.pot === w.pot);
    if (!p) pots.push((p = { pot: w.pot, amount: 0, winners: [] }));
    const s = seats[w.seat];
    p.amount += w.amount;
    // A low half's winner is named by their low.
    const made = s?.shown ? (w.half === "low" ? s.low : s.made) : "";
    p.winners.push({ seat: w.seat, amount: w.amount, cards: s?.shown ? s.cards : [], made, ...(w.half ? { half: w.half } : {}) });
  }
  return pots.sort((a, b) => a.pot - b.pot);
}

// A hand's chance in words: "34.1%", or in a hi-lo game "52.0% (high 40.0%, low 64.0%)".
export function oddsWords(x: { equity: number; high?: number; low?: number }): string {
  const pct = (n: number) => `${n.toFixed(1)}%`;
  return x.high === undefined ? pct(x.equity) : `${pct(x.equity)} (high ${pct(x.high)}, low ${pct(x.low ?? 0)})`;
}

// A hand with nothing dealt yet.
function newHand(number: number, handId: number, button: number, commitment: string): HandView {
  return { number, handId, button, board: [], pots: [], toAct: null, deadline: 0, bankMs: 0, commitment, seen: new Set(), won: [], game: "", odds: null };
}

// One betting-engine event applied to seats and hand (in place, on copies made by the caller):
// what it says in words, if anything.
function applyEvent(v: TableView, seats: (SeatView | null)[], hand: HandView, e: PokerEvent): string | null {
  const s = e.seat !== undefined && e.seat >= 0 ? seats[e.seat] : null;
  const amount = e.amount ?? 0;
  const cards = cardList(e.cards);
  for (const c of cards) hand.seen.add(c);
  const who = nameOf(v, e.seat);
  switch (e.kind) {
    case "ante":
      if (s) s.stack -= amount;
      return `${who} antes ${amount}`;
    case "blind":
    case "bring_in":
    case "call":
      if (s) {
        s.stack -= amount;
        s.bet += amount;
        if (e.kind === "call") s.lastAction = `call ${amount}`;
        else if (e.kind === "bring_in") s.lastAction = `bring in ${amount}`;
        // The first blind of a table with a small blind is the small blind.
        else s.blind = smallBlind(v) > 0 && !seats.some((x) => x?.blind) ? "SB" : "BB";
      }
      return `${who} ${e.kind === "call" ? "calls" : e.kind === "blind" ? "posts" : "brings in for"} ${amount}`;
    case "bet":
    case "raise":
      if (s) {
        s.stack -= amount - s.bet;
        s.bet = amount;
        s.lastAction = `${e.kind === "bet" ? "bet" : "raise to"} ${amount}`;
      }
      return `${who} ${e.kind === "bet" ? "bets" : "raises to"} ${amount}`;
    case "fold":
      if (s) Object.assign(s, { folded: true, lastAction: "fold" });
      return `${who} ${v.timedOut === e.seat ? "timed out, folds" : "folds"}`;
    case "check":
      if (s) s.lastAction = "check";
      return `${who} ${v.timedOut === e.seat ? "timed out, checks" : "checks"}`;
    case "all_in":
      if (s) s.lastAction = s.lastAction ? `${s.lastAction}, all in` : "all in";
      return `${who} is all in`;
    case "deal_down":
    case "deal_up":
    case "receive":
      if (s) {
        s.cardCount += e.count ?? 0;
        s.cards.push(...cards);
        if (e.kind === "deal_up") s.up.push(...cards);
      }
      return null;
    case "deal_board":
      hand.board.push(...cards);
      return cards.length ? `Board: ${suited(hand.board)}` : null;
    case "discard":
      if (s) {
        s.cardCount -= amount;
        s.cards = s.cards.filter((c) => !cards.includes(c));
        s.lastAction = amount ? `draw ${amount}` : "stand pat";
      }
      return amount ? `${who} discards ${amount}` : `${who} stands pat`;
    case "rollover":
      if (s) {
        s.up.push(...cards.filter((c) => !s.up.includes(c)));
        for (const c of cards) if (!s.cards.includes(c)) s.cards.push(c);
      }
      return `${who} turns up ${suited(cards)}`;
    case "reshuffle":
      return "The discards are shuffled into a new stock";
    case "street": // street 0 begins with the forced bets still in front of the seats
      if (amount > 0) for (const x of seats) if (x) Object.assign(x, { bet: 0, lastAction: "" });
      return null;
    case "uncalled":
      if (s) {
        s.stack += amount;
        s.bet = Math.max(0, s.bet - amount);
      }
      return `${amount} returned to ${who}`;
    case "show":
      if (s) {
        s.cards = cards;
        s.shown = true;
        s.made = e.made ?? categoryWords(e.category);
        s.low = e.low ?? "";
      }
      return `${who} shows ${suited(cards)}${e.category ? `: ${e.made ?? categoryWords(e.category)}` : ""}${e.low ? `; low: ${e.low}` : ""}`;
    case "rake":
      return `Rake ${amount}`;
    case "win":
      if (s) s.stack += amount;
      if (e.seat !== undefined) {
        const pot = e.pot ?? 0;
        const w = hand.won.find((x) => x.seat === e.seat && x.pot === pot && x.half === e.half);
        if (w) w.amount += amount;
        else hand.won.push({ seat: e.seat, amount, pot, ...(e.half ? { half: e.half } : {}) });
      }
      return `${who} wins ${amount}${e.half ? ` (${e.half})` : ""}`;
    case "hand_end": // every bet has gone to the pots and their winners
      for (const x of seats) if (x) x.bet = 0;
      return null;
  }
}

// The running hand, from a snapshot, and the hand so far in words: a resumed client sees the
// clock, the log and (for the fairness check at the end) every card it was shown. `previous`, a
// view of the same hand, keeps its own log.
function handFromSnapshot(m: Snapshot, now: number, v: TableView): { hand: HandView | null; lines?: string[] } {
  if (!m.hand) return { hand: null };
  const hand = newHand(m.hand.number, m.hand.hand_id ?? 0, m.hand.button, m.hand.commitment ?? "");
  if (m.hand.variant) hand.game = `${m.hand.variant}, ${m.hand.structure ?? ""}`;
  hand.board = cardList(m.hand.board);
  hand.pots = m.hand.pots;
  hand.toAct = m.hand.to_act >= 0 ? m.hand.to_act : null;
  if (m.clock && hand.toAct !== null) {
    hand.deadline = now + m.clock.deadline_ms;
    hand.bankMs = m.clock.banking ? m.clock.deadline_ms : 0;
  }
  // The events replayed on scratch seats give the log's lines and the cards seen.
  const scratch = v.seats.map((s) => (s ? { ...s, cards: [], up: [], bet: 0 } : null));
  const replayed = { ...newHand(hand.number, hand.handId, hand.button, ""), seen: hand.seen };
  const lines = [`Hand ${hand.number} begins`];
  for (const e of m.hand.events ?? []) {
    const line = applyEvent(v, scratch, replayed, e);
    if (line) lines.push(line);
  }
  for (const c of hand.board) hand.seen.add(c);
  for (const s of m.seats) for (const c of cardList(s.cards)) hand.seen.add(c);
  return { hand, lines };
}

export const pokerGame: TableGame = {
  fromSnapshot(m, now, previous, v) {
    const { hand, lines } = handFromSnapshot(m, now, v);
    // A snapshot of the hand this view already follows (after a gap) keeps its log.
    const same = hand !== null && previous?.hand?.number === hand.number;
    return { hand, chinese: null, leap: null, lines: same ? undefined : lines };
  },
  apply(v, next, m, now) {
    const seats = next.seats;
    switch (m.kind) {
      case "hand_start":
        for (const [i, s] of seats.entries()) {
          if (!s) continue;
          if (s.gone) { // left after the last hand: shown until now
            seats[i] = null;
            continue;
          }
          const inHand = (m.stacks[s.seat] ?? 0) > 0;
          Object.assign(s, { bet: 0, inHand, folded: false, cards: [], up: [], cardCount: 0, shown: false, made: "", low: "", lastAction: "", blind: "" });
          if (inHand) s.stack = m.stacks[s.seat]!;
        }
        // The last hand's results stay on screen (as "the last hand") until dismissed or replaced.
        // A mixed tournament's hand says its game.
        const game = m.variant ? `${m.variant}, ${m.structure ?? ""}` : "";
        return {
          view: { ...next, legal: null, hand: { ...newHand(m.hand, m.hand_id, m.button, m.commitment), game } },
          lines: [`Hand ${m.hand} begins${game ? `: ${game}` : ""}`],
        };
      case "update": {
        if (!v.hand) return { view: { ...next, stale: true }, lines: [] };
        const hand: HandView = { ...v.hand, board: [...v.hand.board], seen: new Set(v.hand.seen), won: v.hand.won.map((w) => ({ ...w })) };
        const lines: string[] = [];
        for (const e of m.events) {
          const line = applyEvent(v, seats, hand, e);
          if (line) lines.push(line);
          if (e.kind === "show" && !e.early) hand.odds = null; // the showdown decides
        }
        if (m.pots) hand.pots = m.pots;
        if (m.turn) {
          hand.toAct = m.turn.seat;
          hand.deadline = now + m.turn.deadline_ms;
          hand.bankMs = 0;
        } else {
          hand.toAct = null;
          hand.deadline = 0;
        }
        return { view: { ...next, hand, legal: m.turn?.legal ?? null, legalSeq: m.seq }, lines };
      }
      case "odds": {
        if (!v.hand || v.hand.number !== m.hand) return { view: next, lines: [] };
        const odds = { street: m.street, seats: m.seats, againstRandom: false };
        const words = m.seats.map((x) => `${nameOf(v, x.seat)} ${oddsWords(x)}`).join(", ");
        return { view: { ...next, hand: { ...v.hand, odds } }, lines: [`Odds: ${words}`] };
      }
      case "hand_end": {
        for (const [i, st] of m.stacks.entries()) {
          const s = seats[i];
          if (s) Object.assign(s, { stack: st, bet: 0 });
        }
        const verdict = v.hand?.commitment ? verifyDeal(v.hand.commitment, m.fairness as Fairness, v.hand.seen) : null;
        const pots = potResults(seats, v.hand?.won ?? [], m.net);
        return {
          view: {
            ...next,
            legal: null,
            hand: v.hand ? { ...v.hand, toAct: null, deadline: 0, pots: [] } : null,
            lastEnd: { hand: m.hand, handId: m.hand_id, net: m.net, stacks: m.stacks, pots, verdict },
          },
          lines: [endLine("Hand", m.hand, verdict)],
        };
      }
      default:
        return { view: next, lines: [] };
    }
  },
};

// A finished hand from the history (the `hand` reply), as the table looked before its first event
// and after each: the pictures a replay steps through. Only the cards the server gave the asker
// appear. Recorded actions (`"kind": "action"`) are what the events already show, so they are
// skipped. The last picture has the hand's end, as the table showed it: each pot with its winners
// and the fairness check of the deal against its commitment (for the cards the asker saw).
export function replayViews(record: {
  hand: number;
  table: number;
  number: number;
  config: Record<string, unknown>;
  your_seat: number | null;
  events: { kind: string }[];
  odds?: { event: number; street: number; seats: OddsView["seats"]; against_random?: boolean }[];
  seats?: { seat: number; stack_end: number; net: number }[];
  commitment?: string;
  fairness?: Fairness | null;
}): TableView[] {
  const names = (record.config["names"] as (string | null)[] | undefined) ?? [];
  const stacks = (record.config["stacks"] as number[] | undefined) ?? [];
  const seats: (SeatView | null)[] = names.map((name, seat) =>
    name === null || name === undefined ? null : newSeat(seat, name, stacks[seat] ?? 0, true),
  );
  let view: TableView = {
    id: record.table,
    game: "poker",
    config: record.config,
    seq: 0,
    stale: false,
    mySeat: record.your_seat,
    seats,
    hand: newHand(record.number, record.hand, Number(record.config["button"] ?? 0), ""),
    legal: null,
    legalSeq: 0,
    lastEnd: null,
    chinese: null,
    leap: null,
    openFace: null,
    chat: [],
    log: [],
    closed: false,
    timedOut: null,
  };
  const out = [view];
  for (const [i, e] of record.events.entries()) {
    if (e.kind === "action" || e.kind === "all_in_ev") continue;
    const next = view.seats.map((s) => (s ? { ...s, cards: [...s.cards], up: [...s.up] } : null));
    const hand = { ...view.hand!, board: [...view.hand!.board], won: [...view.hand!.won] };
    const line = applyEvent(view, next, hand, e as PokerEvent);
    let log = line ? withLog(view, line) : view.log;
    if (e.kind === "show" && !(e as PokerEvent).early) hand.odds = null;
    // The chances from this event on, as the server worked them out.
    const o = record.odds?.find((x) => x.event === i);
    if (o) {
      hand.odds = { street: o.street, seats: o.seats, againstRandom: o.against_random ?? false };
      const words = o.seats.map((x) => `${x.seat < 0 ? "a random hand" : nameOf(view, x.seat)} ${oddsWords(x)}`).join(", ");
      log = withLog({ log }, `Odds${o.against_random ? " against a random hand" : ""}: ${words}`);
    }
    view = { ...view, seats: next, hand, log };
    out.push(view);
  }
  if (record.seats) {
    const net = names.map(() => 0);
    const ends = [...stacks];
    for (const s of record.seats) {
      net[s.seat] = s.net;
      ends[s.seat] = s.stack_end;
    }
    const hand = view.hand!;
    const verdict = record.commitment && record.fairness ? verifyDeal(record.commitment, record.fairness, hand.seen) : null;
    const pots = potResults(view.seats, hand.won, net);
    out[out.length - 1] = {
      ...view,
      lastEnd: { hand: record.number, handId: record.hand, net, stacks: ends, pots, verdict },
      log: withLog(view, endLine("Hand", record.number, verdict)),
    };
  }
  return out;
}
