// A table as the client shows it, rebuilt from the server's table messages alone: the snapshot
// sets it, and each message moves it on. Pure functions, so that they are tested without a
// browser. A gap in seq makes the view stale until a new snapshot arrives.
import type {
  Fairness,
  Legal,
  PokerEvent,
  Pot,
  Snapshot,
  SnapshotSeat,
  TableMessage,
} from "./gen/protocol";
import { chineseDeal, chineseEnd, chineseFromSnapshot, chineseSubmitted, type ChineseView } from "./chinese";
import { verifyDeal, type Verdict } from "./fairness";
import { applyLeap, leapFromSnapshot, type LeapView } from "./leap";
import { cardList } from "./poker";

export interface SeatView {
  seat: number;
  name: string;
  stack: number;
  bet: number; // in front of the seat, this round
  inHand: boolean; // dealt into the running hand
  folded: boolean;
  cards: string[]; // the cards this viewer can see, face up for them
  up: string[]; // those of them dealt or turned face up, which everyone sees
  cardCount: number; // every card the seat holds, seen or not
  sittingOut: boolean;
  connected: boolean;
  timeBankMs: number;
  shown: boolean; // showed at showdown
  made: string; // what the shown hand makes, in words ("full house")
}

export interface HandView {
  number: number;
  handId: number;
  button: number;
  board: string[];
  pots: Pot[];
  toAct: number | null;
  deadline: number; // the clock's end, in the client's Date.now() time; 0: none
  bankMs: number; // time bank of the seat to act, when it runs
  commitment: string;
  seen: Set<string>; // every card this viewer saw in the hand, for the fairness check
  won: { seat: number; amount: number }[]; // the pots awarded, as the win events say
}

export interface EndView {
  hand: number;
  handId: number;
  net: number[];
  stacks: number[];
  winners: { seat: number; amount: number; cards: string[]; made: string }[]; // what each took, and showed
  verdict: Verdict | null; // the fairness check; null for a hand whose start was not seen
}

export interface ChatLine {
  seat: number | null;
  name: string;
  text: string;
}

export interface TableView {
  id: number;
  game: string;
  config: Record<string, unknown>;
  seq: number;
  stale: boolean; // a message was missed: waiting for a snapshot
  mySeat: number | null;
  seats: (SeatView | null)[];
  hand: HandView | null;
  legal: Legal | null; // when it is this viewer's turn
  legalSeq: number; // the seq of the message that gave it: a new decision each time
  lastEnd: EndView | null;
  chinese: ChineseView | null; // a Chinese poker table's deal
  leap: LeapView | null; // a leap rummy table's game
  chat: ChatLine[];
  log: string[]; // what happened, in words, newest last
  closed: boolean;
}

const kChatKept = 100;
const kLogKept = 200;

export function seatCount(config: Record<string, unknown>): number {
  return typeof config["seats"] === "number" ? config["seats"] : 9;
}

// A seat just taken (or, in a replay, dealt in) with nothing in front of it and no cards yet.
function newSeat(seat: number, name: string, stack: number, inHand: boolean): SeatView {
  return {
    seat,
    name,
    stack,
    bet: 0,
    inHand,
    folded: false,
    cards: [],
    up: [],
    cardCount: 0,
    sittingOut: false,
    connected: true,
    timeBankMs: 0,
    shown: false,
    made: "",
  };
}

function seatFrom(s: SnapshotSeat): SeatView {
  return {
    ...newSeat(s.seat, s.name, s.stack, s.in_hand !== undefined || s.in_deal === true || s.in_game === true),
    bet: s.bet ?? 0,
    folded: s.folded ?? false,
    cards: cardList(s.cards),
    cardCount: s.card_count ?? 0,
    sittingOut: s.sitting_out,
    connected: s.connected,
    timeBankMs: s.time_bank_ms,
  };
}

export function fromSnapshot(m: Snapshot, now: number, previous?: TableView): TableView {
  const seats: (SeatView | null)[] = Array(seatCount(m.config)).fill(null);
  for (const s of m.seats) {
    const seat = seatFrom(s);
    if (s.seat !== m.your_seat) seat.up = [...seat.cards]; // another seat's cards shown are up
    seats[s.seat] = seat;
  }
  let hand: HandView | null = null;
  if (m.hand) {
    const seen = new Set<string>(cardList(m.hand.board));
    for (const s of seats) for (const c of s?.cards ?? []) seen.add(c);
    hand = {
      number: m.hand.number,
      handId: previous?.hand?.number === m.hand.number ? previous.hand.handId : 0,
      button: m.hand.button,
      board: cardList(m.hand.board),
      pots: m.hand.pots,
      toAct: m.hand.to_act >= 0 ? m.hand.to_act : null,
      deadline: 0,
      bankMs: 0,
      commitment: previous?.hand?.number === m.hand.number ? previous.hand.commitment : "",
      seen,
      won: [],
    };
  }
  return {
    id: m.table,
    game: typeof m.config["game"] === "string" ? m.config["game"] : "poker",
    config: m.config as Record<string, unknown>,
    seq: m.seq,
    stale: false,
    mySeat: m.your_seat,
    seats,
    hand,
    legal: m.legal ?? null,
    legalSeq: m.seq,
    lastEnd: previous?.lastEnd ?? null,
    chinese: m.deal ? chineseFromSnapshot(m.deal, m.seats.filter((s) => s.submitted).map((s) => s.seat), now) : (previous?.chinese?.end ? previous.chinese : null),
    leap: m.game ? leapFromSnapshot(m.game, now) : (previous?.leap?.end ? previous.leap : null),
    chat: previous?.chat ?? [],
    log: previous?.log ?? [],
    closed: false,
  };
}

function nameOf(v: TableView, seat: number | undefined): string {
  if (seat === undefined || seat < 0) return "the table";
  return v.seats[seat]?.name ?? `seat ${seat + 1}`;
}

function withLog(v: TableView, line: string): string[] {
  const log = [...v.log, line];
  return log.length > kLogKept ? log.slice(-kLogKept) : log;
}

// A ranking's category as people say it: "full_house" is "full house"; melds ("v41") stay.
export function categoryWords(category: string | undefined): string {
  return (category ?? "").replaceAll("_", " ");
}

// One betting-engine event applied to seats and hand (in place, on copies made by the caller).
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
      }
      return `${who} ${e.kind === "call" ? "calls" : e.kind === "blind" ? "posts" : "brings in for"} ${amount}`;
    case "bet":
    case "raise":
      if (s) {
        s.stack -= amount - s.bet;
        s.bet = amount;
      }
      return `${who} ${e.kind === "bet" ? "bets" : "raises to"} ${amount}`;
    case "fold":
      if (s) s.folded = true;
      return `${who} folds`;
    case "check":
      return `${who} checks`;
    case "all_in":
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
      return cards.length ? `Board: ${hand.board.join(" ")}` : null;
    case "discard":
      if (s) {
        s.cardCount -= amount;
        s.cards = s.cards.filter((c) => !cards.includes(c));
      }
      return `${who} discards ${amount}`;
    case "rollover":
      if (s) {
        s.up.push(...cards.filter((c) => !s.up.includes(c)));
        for (const c of cards) if (!s.cards.includes(c)) s.cards.push(c);
      }
      return `${who} turns up ${cards.join(" ")}`;
    case "reshuffle":
      return "The discards are shuffled into a new stock";
    case "street": // street 0 begins with the forced bets still in front of the seats
      if (amount > 0) for (const x of seats) if (x) x.bet = 0;
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
        s.made = categoryWords(e.category);
      }
      return `${who} shows ${cards.join(" ")}${e.category ? `: ${categoryWords(e.category)}` : ""}`;
    case "rake":
      return `Rake ${amount}`;
    case "win":
      if (s) s.stack += amount;
      if (e.seat !== undefined) {
        const w = hand.won.find((x) => x.seat === e.seat);
        if (w) w.amount += amount;
        else hand.won.push({ seat: e.seat, amount });
      }
      return `${who} wins ${amount}`;
    case "hand_end": // every bet has gone to the pots and their winners
      for (const x of seats) if (x) x.bet = 0;
      return null;
  }
}

export function applyTable(v: TableView, m: TableMessage, now: number): TableView {
  if (m.kind === "snapshot") return fromSnapshot(m, now, v);
  if (v.stale) return v;
  if (m.seq !== v.seq + 1) return { ...v, stale: true };
  const seats = v.seats.map((s) => (s ? { ...s, cards: [...s.cards], up: [...s.up] } : null));
  let next: TableView = { ...v, seq: m.seq, seats };
  switch (m.kind) {
    case "seated":
      seats[m.seat] = newSeat(m.seat, m.name, m.stack, false);
      return { ...next, log: withLog(v, `${m.name} sits down with ${m.stack}`) };
    case "left":
      seats[m.seat] = null;
      return {
        ...next,
        mySeat: v.mySeat === m.seat ? null : v.mySeat,
        log: withLog(v, `${m.name} leaves with ${m.stack}`),
      };
    case "chat": {
      const chat = [...v.chat, { seat: m.seat, name: m.name, text: m.text }];
      return { ...next, chat: chat.length > kChatKept ? chat.slice(-kChatKept) : chat };
    }
    case "sitting_out":
    case "sitting_in": {
      const s = seats[m.seat];
      if (s) s.sittingOut = m.kind === "sitting_out";
      return next;
    }
    case "connection": {
      const s = seats[m.seat];
      if (s) s.connected = m.connected;
      return next;
    }
    case "topped_up": {
      const s = seats[m.seat];
      if (s) s.stack = m.stack;
      return { ...next, log: withLog(v, `${m.name} tops up by ${m.amount} to ${m.stack}`) };
    }
    case "time_bank":
      return next.hand ? { ...next, hand: { ...next.hand, bankMs: m.bank_ms, deadline: now + m.bank_ms } } : next;
    case "closed":
      return { ...next, closed: true, hand: null, legal: null };
    case "hand_void":
      for (const [i, st] of m.stacks.entries()) {
        const s = seats[i];
        if (s) Object.assign(s, { stack: st, bet: 0, inHand: false, folded: false, cards: [], up: [], cardCount: 0 });
      }
      return { ...next, hand: null, legal: null, chinese: null, leap: null, log: withLog(v, `Hand ${m.hand} is void (${m.reason})`) };
    case "hand_start":
      for (const s of seats)
        if (s) {
          const inHand = (m.stacks[s.seat] ?? 0) > 0;
          Object.assign(s, { bet: 0, inHand, folded: false, cards: [], up: [], cardCount: 0, shown: false, made: "" });
          if (inHand) s.stack = m.stacks[s.seat]!;
        }
      return {
        ...next,
        legal: null,
        lastEnd: null,
        hand: {
          number: m.hand,
          handId: m.hand_id,
          button: m.button,
          board: [],
          pots: [],
          toAct: null,
          deadline: 0,
          bankMs: 0,
          commitment: m.commitment,
          seen: new Set(),
          won: [],
        },
        log: withLog(v, `Hand ${m.hand} begins`),
      };
    case "update": {
      if (!v.hand) return { ...next, stale: true };
      const hand: HandView = { ...v.hand, board: [...v.hand.board], seen: new Set(v.hand.seen), won: v.hand.won.map((w) => ({ ...w })) };
      let log = v.log;
      for (const e of m.events) {
        const line = applyEvent(v, seats, hand, e);
        if (line) log = withLog({ ...v, log }, line);
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
      return { ...next, hand, legal: m.turn?.legal ?? null, legalSeq: m.seq, log };
    }
    case "hand_end": {
      for (const [i, st] of m.stacks.entries()) {
        const s = seats[i];
        if (s) Object.assign(s, { stack: st, bet: 0 });
      }
      const verdict = v.hand?.commitment ? verifyDeal(v.hand.commitment, m.fairness as Fairness, v.hand.seen) : null;
      const won = v.hand?.won.length ? v.hand.won : m.net.flatMap((n, seat) => (n > 0 ? [{ seat, amount: n }] : []));
      const winners = won.map((w) => {
        const s = seats[w.seat];
        return { ...w, cards: s?.shown ? s.cards : [], made: s?.shown ? s.made : "" };
      });
      return {
        ...next,
        legal: null,
        hand: v.hand ? { ...v.hand, toAct: null, deadline: 0, pots: [] } : null,
        lastEnd: { hand: m.hand, handId: m.hand_id, net: m.net, stacks: m.stacks, winners, verdict },
        log: withLog(v, `Hand ${m.hand} ends` + (verdict ? (verdict.ok ? " (deal verified)" : " (deal NOT verified)") : "")),
      };
    }
    default:
      if (v.game === "chinese") return applyChineseMessage(v, next, seats, m, now);
      if (v.game !== "leap") return next;
      {
        const line = leapLine(v, m);
        const after = applyLeap(next, m, now);
        return line ? { ...after, log: withLog(v, line) } : after;
      }
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

// A Chinese poker table's own messages: the deal, a seat's split in, the reveal.
function applyChineseMessage(v: TableView, next: TableView, seats: (SeatView | null)[], m: TableMessage, now: number): TableView {
  switch (m.kind) {
    case "deal": {
      if (!("seats" in m)) return next;
      for (const s of seats)
        if (s) {
          s.inHand = m.seats.includes(s.seat);
          if (s.inHand) s.stack = m.stacks[s.seat] ?? s.stack;
        }
      return { ...next, chinese: chineseDeal(m, now, v.chinese), log: withLog(v, `Deal ${m.hand} begins`) };
    }
    case "submitted":
      return v.chinese ? { ...next, chinese: chineseSubmitted(v.chinese, m.seat), log: withLog(v, `${nameOf(v, m.seat)} ${m.by === "server" ? "is arranged by the server" : "has set their rows"}`) } : next;
    case "deal_end": {
      for (const [i, st] of m.stacks.entries()) {
        const s = seats[i];
        if (s) s.stack = st;
      }
      const chinese = chineseEnd(v.chinese, m);
      const verdict = chinese?.end?.verdict;
      return {
        ...next,
        chinese,
        log: withLog(v, `Deal ${m.hand} ends` + (verdict ? (verdict.ok ? " (deal verified)" : " (deal NOT verified)") : "")),
      };
    }
    default:
      return next;
  }
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

// A finished hand from the history (the `hand` reply), as the table looked before its first event
// and after each: the pictures a replay steps through. Only the cards the server gave the asker
// appear. Recorded actions (`"kind": "action"`) are what the events already show, so they are
// skipped.
export function replayViews(record: {
  hand: number;
  table: number;
  number: number;
  config: Record<string, unknown>;
  your_seat: number | null;
  events: { kind: string }[];
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
    hand: {
      number: record.number,
      handId: record.hand,
      button: Number(record.config["button"] ?? 0),
      board: [],
      pots: [],
      toAct: null,
      deadline: 0,
      bankMs: 0,
      commitment: "",
      seen: new Set(),
      won: [],
    },
    legal: null,
    legalSeq: 0,
    lastEnd: null,
    chinese: null,
    leap: null,
    chat: [],
    log: [],
    closed: false,
  };
  const out = [view];
  for (const e of record.events) {
    if (e.kind === "action") continue;
    const next = view.seats.map((s) => (s ? { ...s, cards: [...s.cards], up: [...s.up] } : null));
    const hand = { ...view.hand!, board: [...view.hand!.board], won: [...view.hand!.won] };
    const line = applyEvent(view, next, hand, e as PokerEvent);
    view = { ...view, seats: next, hand, log: line ? withLog(view, line) : view.log };
    out.push(view);
  }
  return out;
}
