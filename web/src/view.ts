// A table as the client shows it, whatever its game: the seats, the running hand's common part,
// the chat and the log, and the helpers every game's logic (games/) and the table's common
// messages (tableview.ts) share. Pure, so that it is tested without a browser.
import type { Legal, Pot, SnapshotSeat } from "./gen/protocol";
import type { Verdict } from "./fairness";
import type { ChineseView } from "./games/chinese";
import type { OpenFaceView } from "./games/openface";
import type { LeapView } from "./games/leap";

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
  made: string; // what the shown hand makes, in words ("two pair, kings and sevens, ace kicker")
  low: string; // in a hi-lo game, its eight-or-better low in words ("a seven-four low"), or ""
  lastAction: string; // what the seat last did this street ("raise to 40", "check"), as on the big sites
  blind: string; // "SB" or "BB": the blind the seat posted this hand
  gone: boolean; // left after the hand (busted): kept on screen until the next hand
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
  won: { seat: number; amount: number; pot: number; half?: "high" | "low" }[]; // the pots awarded, as the win events say
  game: string; // a mixed tournament's hand: its game ("razz, fixed-limit"), else ""
  odds: OddsView | null; // an all-in's chances at this street (or the replayer's), else null
}

// Each hand's chance, percent: as the `odds` message and the history's replayer give them.
export interface OddsView {
  street: number;
  seats: { seat: number; equity: number; ties: number; high?: number; low?: number; scoop?: number }[];
  againstRandom: boolean; // the replayer: one's own hand against a random one (seat -1)
}

// A pot at the hand's end and who took it (several: a split pot).
export interface PotResult {
  pot: number; // 0: the main pot; 1 on: the side pots
  amount: number;
  // What each took, and showed; in a hi-lo split pot, which half ("high", "low").
  winners: { seat: number; amount: number; cards: string[]; made: string; half?: "high" | "low" }[];
}

export interface EndView {
  hand: number;
  handId: number;
  net: number[];
  stacks: number[];
  pots: PotResult[]; // each pot with its winners, the main pot first
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
  openFace: OpenFaceView | null; // an open-face table's hand
  chat: ChatLine[];
  log: string[]; // what happened, in words, newest last
  closed: boolean;
  timedOut: number | null; // the seat whose time just ran out, until the server's action for it
}

const kLogKept = 200;

export function seatCount(config: Record<string, unknown>): number {
  return typeof config["seats"] === "number" ? config["seats"] : 9;
}

// Cards as people read them in words: "A♠ 10♦", not "As Td".
const kSuits: Record<string, string> = { s: "♠", h: "♥", d: "♦", c: "♣" };
export function suited(cards: string[]): string {
  return cards.map((c) => (c.length === 2 && kSuits[c.charAt(1)] ? (c.charAt(0) === "T" ? "10" : c.charAt(0)) + kSuits[c.charAt(1)] : c)).join(" ");
}

export function cardList(text: string | undefined): string[] {
  return text ? text.split(" ").filter((c) => c.length > 0) : [];
}

// A seat just taken (or, in a replay, dealt in) with nothing in front of it and no cards yet.
export function newSeat(seat: number, name: string, stack: number, inHand: boolean): SeatView {
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
    low: "",
    lastAction: "",
    blind: "",
    gone: false,
  };
}

export function seatFrom(s: SnapshotSeat): SeatView {
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

// Whether the viewer is to act now, at a table of any game: a poker decision, a Chinese poker
// split not yet set, a leap rummy turn, an open-face placement.
export function myTurn(v: TableView): boolean {
  if (v.legal) return true;
  if (v.mySeat === null) return false;
  if (v.chinese) return v.chinese.end === null && v.chinese.seats.includes(v.mySeat) && !v.chinese.submitted.includes(v.mySeat);
  if (v.leap) return v.leap.end === null && v.leap.seat === v.mySeat;
  if (v.openFace) return v.openFace.end === null && v.openFace.toAct === v.mySeat && v.openFace.cards.length > 0;
  return false;
}

// A seat's player by name, or `none` for no seat.
export function nameOf(v: Pick<TableView, "seats">, seat: number | null | undefined, none = "the table"): string {
  if (seat === undefined || seat === null || seat < 0) return none;
  return v.seats[seat]?.name ?? `seat ${seat + 1}`;
}

// The log with one more line, the oldest dropped past its length.
export function withLog(v: Pick<TableView, "log">, line: string): string[] {
  const log = [...v.log, line];
  return log.length > kLogKept ? log.slice(-kLogKept) : log;
}

// A finished poker hand's pots in words, one line each: "ann wins 64 with a flush, queen high";
// with side pots, "Main pot: …" and "Side pot 1: …"; a split pot, "Pot of 64 split: ann 32 (…), bob 32
// (…)"; a hi-lo pot split in halves, "Pot of 64: high: ann 32 (three kings), low: bob 32 (a
// seven-four low)". With no pot won (a hand whose end came without its events), `hand N is over`.
export function potLines(v: Pick<TableView, "seats">, end: Pick<EndView, "hand" | "pots">): string[] {
  const several = end.pots.length > 1;
  const label = (pot: number) => (pot === 0 ? "Main pot" : `Side pot ${pot}`);
  const with_ = (w: { made: string; cards: string[] }) =>
    (w.made ? ` with ${w.made}` : "") + (w.cards.length ? ` (${suited(w.cards)})` : "");
  const lines = end.pots.map((p) => {
    if (p.winners.some((w) => w.half)) {
      const half = (h: "high" | "low") =>
        p.winners
          .filter((w) => w.half === h)
          .map((w) => `${nameOf(v, w.seat)} ${w.amount}${w.made ? ` (${w.made})` : ""}`)
          .join(" and ");
      return `${several ? label(p.pot) : "Pot"} of ${p.amount}: high: ${half("high")}, low: ${half("low")}`;
    }
    if (p.winners.length === 1) {
      const w = p.winners[0]!;
      return `${several ? `${label(p.pot)}: ` : ""}${nameOf(v, w.seat)} wins ${w.amount}${with_(w)}`;
    }
    const shares = p.winners.map((w) => `${nameOf(v, w.seat)} ${w.amount}${w.made ? ` (${w.made})` : ""}`);
    return `${several ? label(p.pot) : "Pot"} of ${p.amount} split: ${shares.join(", ")}`;
  });
  return lines.length ? lines : [`Hand ${end.hand} is over`];
}

// The end of a hand, a deal or a game in the log, with the fairness check's verdict.
export function endLine(noun: string, hand: number, verdict: Verdict | null | undefined): string {
  return `${noun} ${hand} ends` + (verdict ? (verdict.ok ? " (deal verified)" : " (deal NOT verified)") : "");
}

// A ranking's category as people say it: "full_house" is "full house"; melds ("v41") stay.
export function categoryWords(category: string | undefined): string {
  return (category ?? "").replaceAll("_", " ");
}
