// A leap rummy table as the client shows it (docs/protocol.md, "Leap rummy tables"): whose turn
// and its phase, the stock, every meld and leaptoken, live scores, the player's own hand, and the
// game's end with its fairness check. The engine judges every meld (`preview`); nothing here knows
// the rules.
import type { Fairness, LeapGameView, LeapMeldView, TableMessage } from "../gen/protocol";
import { verifyDeal, type Verdict } from "../fairness";
import { cardList, nameOf, type TableView } from "../view";
import type { TableGame } from "./game";

export interface LeapEnd {
  hand: number;
  handId: number;
  scores: (number | null)[];
  net: number[];
  stacks: number[];
  verdict: Verdict | null;
}

export interface LeapView {
  hand: number;
  handId: number;
  dealer: number;
  players: number[]; // table seats dealt in
  commitment: string;
  turn: number;
  seat: number | null; // to act
  phase: "turn" | "melding" | "over";
  mayMeld: boolean;
  openLeaps: number[]; // for the seat to act
  stock: number;
  handSizes: (number | null)[];
  scores: (number | null)[];
  retired: (boolean | null)[];
  melds: LeapMeldView[];
  tokens: (number | null)[]; // by leap, from leap 1
  deadline: number; // Date.now() time; 0: none
  bankMs: number;
  cards: string[]; // the viewer's hand
  seen: string[]; // every card the viewer held or saw melded, for the fairness check
  end: LeapEnd | null;
  last: LeapEnd | null; // the previous game's end, still on screen during this one
}

export function leapFromSnapshot(g: LeapGameView, now: number): LeapView {
  const cards = cardList(g.your_hand);
  return {
    hand: g.hand,
    handId: g.hand_id,
    dealer: g.dealer,
    players: g.players,
    commitment: g.commitment,
    turn: g.turn,
    seat: g.seat,
    phase: g.phase,
    mayMeld: g.may_meld,
    openLeaps: g.open_leaps,
    stock: g.stock,
    handSizes: g.hand_sizes,
    scores: g.scores,
    retired: g.retired,
    melds: g.melds,
    tokens: g.tokens,
    deadline: g.deadline_ms ? now + g.deadline_ms : 0,
    bankMs: 0,
    cards,
    // Cards held and melded before a reload are not all known again: the check then covers
    // what this page saw.
    seen: [...cards, ...g.melds.flatMap((m) => cardList(m.cards))],
    end: null,
    last: null,
  };
}

function without(cards: string[], gone: string[]): string[] {
  const out = [...cards];
  for (const c of gone) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

// The table message moves the game on; messages of other games leave it alone.
export function applyLeap<V extends { leap: LeapView | null; mySeat: number | null; seats: ({ seat: number; stack: number; inHand: boolean } | null)[] }>(v: V, m: TableMessage, now: number): V {
  const g = v.leap;
  const mine = (seat: number) => seat === v.mySeat;
  switch (m.kind) {
    case "deal": {
      if (!("players" in m)) return v;
      for (const s of v.seats)
        if (s) {
          s.inHand = m.players.includes(s.seat);
          if (s.inHand) s.stack = m.stacks[s.seat] ?? s.stack;
        }
      const cards = cardList(m.cards);
      const sizes = v.seats.map((_, i) => (m.players.includes(i) ? m.hand_size : null));
      return {
        ...v,
        leap: {
          hand: m.hand,
          handId: m.hand_id,
          dealer: m.dealer,
          players: m.players,
          commitment: m.commitment,
          turn: 0,
          seat: null,
          phase: "turn",
          mayMeld: false,
          openLeaps: [],
          stock: m.stock,
          handSizes: sizes,
          scores: sizes.map((n) => (n === null ? null : 0)),
          retired: sizes.map((n) => (n === null ? null : false)),
          melds: [],
          tokens: [],
          deadline: 0,
          bankMs: 0,
          cards,
          seen: [...cards],
          end: null,
          last: g?.end ?? g?.last ?? null,
        },
      };
    }
    case "turn":
      if (!g) return v;
      return {
        ...v,
        leap: {
          ...g,
          turn: m.turn,
          seat: m.seat,
          phase: m.phase,
          mayMeld: m.may_meld,
          openLeaps: m.open_leaps,
          stock: m.stock,
          handSizes: m.hand_sizes,
          scores: m.scores,
          retired: m.retired,
          deadline: m.deadline_ms ? now + m.deadline_ms : 0,
          bankMs: 0,
        },
      };
    case "time_bank":
      return g ? { ...v, leap: { ...g, bankMs: m.bank_ms, deadline: now + m.bank_ms } } : v;
    case "drew": {
      if (!g) return v;
      const drawn = mine(m.seat) ? cardList(m.cards) : [];
      return { ...v, leap: { ...g, cards: [...g.cards, ...drawn], seen: [...g.seen, ...drawn], stock: g.stock - m.count } };
    }
    case "melded": {
      if (!g) return v;
      const cards = cardList(m.cards);
      const meld: LeapMeldView = { meld: m.meld, seat: m.seat, leap: m.leap, cards: m.cards, points: m.points };
      return { ...v, leap: { ...g, melds: [...g.melds, meld], cards: mine(m.seat) ? without(g.cards, cards) : g.cards, seen: [...g.seen, ...cards] } };
    }
    case "took_token": {
      if (!g) return v;
      const tokens = [...g.tokens];
      while (tokens.length < m.leap) tokens.push(null);
      tokens[m.leap - 1] = m.seat;
      return { ...v, leap: { ...g, tokens } };
    }
    case "extended":
    case "joined": {
      if (!g) return v;
      const before = g.melds.find((x) => x.meld === m.meld);
      const other = m.kind === "joined" ? g.melds.find((x) => x.meld === m.other) : undefined;
      const had = [...cardList(before?.cards), ...cardList(other?.cards)];
      const added = without(cardList(m.cards), had);
      const melds = g.melds
        .filter((x) => m.kind !== "joined" || x.meld !== m.other)
        .map((x) => (x.meld === m.meld ? { ...x, cards: m.cards, points: m.points } : x));
      return { ...v, leap: { ...g, melds, cards: mine(m.seat) ? without(g.cards, added) : g.cards, seen: [...g.seen, ...added] } };
    }
    case "discarded":
      if (!g) return v;
      return { ...v, leap: { ...g, cards: mine(m.seat) && m.card ? without(g.cards, [m.card]) : g.cards, stock: g.stock + 1 } };
    case "retired": {
      if (!g) return v;
      const retired = [...g.retired];
      const scores = [...g.scores];
      retired[m.seat] = true;
      scores[m.seat] = m.score;
      return { ...v, leap: { ...g, retired, scores } };
    }
    case "game_end": {
      for (const [i, st] of m.stacks.entries()) {
        const s = v.seats[i];
        if (s && m.scores[i] !== null) s.stack = st;
      }
      if (!g) return v;
      const verdict = g.commitment && g.hand === m.hand ? verifyDeal(g.commitment, m.fairness as Fairness, g.seen) : null;
      return {
        ...v,
        leap: {
          ...g,
          phase: "over",
          seat: null,
          deadline: 0,
          scores: m.scores,
          end: { hand: m.hand, handId: m.hand_id, scores: m.scores, net: m.net, stacks: m.stacks, verdict },
        },
      };
    }
    default:
      return v;
  }
}

// What a leap rummy message says, in words for the log.
function leapLine(v: TableView, m: TableMessage): string | null {
  const who = "seat" in m && typeof m.seat === "number" ? nameOf(v, m.seat) : "";
  switch (m.kind) {
    case "deal":
      return `Game ${m.hand} begins`;
    case "drew":
      return `${who} draws ${m.count}`;
    case "melded":
      return `${who} melds ${m.cards} in leap ${m.leap} (${m.points} point${m.points === 1 ? "" : "s"})`;
    case "took_token":
      return `${who} takes the token of leap ${m.leap}`;
    case "extended":
      return `${who} extends meld #${m.meld} to ${m.cards} (${m.points} points)`;
    case "joined":
      return `${who} joins meld #${m.other} into #${m.meld}: ${m.cards} (${m.points} points)`;
    case "discarded":
      return `${who} discards${m.card ? ` ${m.card}` : ""}`;
    case "retired":
      return `${who} retires with ${m.score} (${m.cards_left} card${m.cards_left === 1 ? "" : "s"} left in hand)`;
    case "game_end":
      return `Game ${m.hand} ends`;
    default:
      return null;
  }
}

// The table's part: the game, from a snapshot, and the game's messages.
export const leapGame: TableGame = {
  fromSnapshot(m, now, previous) {
    const leap = m.game ? leapFromSnapshot(m.game, now) : previous?.leap?.end ? previous.leap : null;
    return { hand: null, chinese: null, leap };
  },
  apply(v, next, m, now) {
    const line = leapLine(v, m);
    return { view: applyLeap(next, m, now), lines: line ? [line] : [] };
  },
};

// A finished game from the history, step by step: before the first action, then after each, as
// the server's replay says everyone saw it (`replay.steps`). Public only: no hand's cards.
export function leapReplay(record: { hand: number; number: number; config: Record<string, unknown>; replay?: Record<string, unknown> }): LeapView[] {
  const players = (record.config["players"] as number[] | undefined) ?? [];
  const stacks = (record.config["stacks"] as number[] | undefined) ?? [];
  const seats = Number(record.config["seats"] ?? players.length);
  const steps = (record.replay?.["steps"] as TableMessage[][] | undefined) ?? [];
  let v: { leap: LeapView | null; mySeat: number | null; seats: null[] } = { leap: null, mySeat: null, seats: Array(seats).fill(null) };
  const deal = {
    type: "table", table: 0, seq: 0, kind: "deal", hand: record.number, hand_id: record.hand,
    dealer: Number(record.config["dealer"] ?? 0), players, stacks, hand_size: Number(record.config["hand_size"] ?? 0), stock: 0, commitment: "",
  } as TableMessage;
  v = applyLeap(v, deal, 0);
  const out = [v.leap!];
  for (const step of steps) {
    for (const m of step) v = applyLeap(v, m, 0);
    out.push(v.leap!);
  }
  return out;
}

// Melds grouped by leap, lowest leap first; each group's melds in the order laid.
export function meldsByLeap(melds: LeapMeldView[]): [number, LeapMeldView[]][] {
  const groups = new Map<number, LeapMeldView[]>();
  for (const m of melds) groups.set(m.leap, [...(groups.get(m.leap) ?? []), m]);
  return [...groups.entries()].sort((a, b) => a[0] - b[0]);
}

// How many leaps a deck of `ranks` ranks has: 1 to ranks / 2 (engine/leap/leap.h).
export function leapCount(ranks: number): number {
  return Math.floor(ranks / 2);
}

// The rank labels of each deck in circle order (engine/leap/leap.cpp, rank_set): card notation,
// which the client needs to put cards in order.
const kCircles: Record<number, string[]> = {
  13: ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"],
  5: ["J", "Q", "K", "T", "A"],
};

function circle(ranks: number): string[] {
  return kCircles[ranks] ?? Array.from({ length: ranks }, (_, i) => String(ranks === 17 ? i : i + 1));
}

// A card's rank label and suit letter: "Th" -> ["T", "h"], "10s" -> ["10", "s"], a joker "Xx".
function parts(card: string): [string, string] {
  return [card.slice(0, -1), card.slice(-1)];
}

// The hand by suit, then in the order a walk of `leap` ranks at a time visits the ranks (from
// the circle's first rank; with a leap that does not divide the circle evenly, one walk visits
// them all, otherwise each cycle in turn); jokers last.
export function alongLeap(cards: string[], leap: number, ranks: number): string[] {
  const labels = circle(ranks);
  const n = labels.length;
  const position = new Array<number>(n);
  let next = 0;
  for (let start = 0; start < n; ++start)
    for (let r = start; position[r] === undefined; r = (r + leap) % n) position[r] = next++;
  const key = (card: string): [number, number] => {
    const [rank, suit] = parts(card);
    const r = labels.indexOf(rank);
    return r < 0 ? [99, 99] : ["shdc".indexOf(suit), position[r]!];
  };
  return [...cards].sort((a, b) => {
    const [sa, pa] = key(a), [sb, pb] = key(b);
    return sa - sb || pa - pb;
  });
}
