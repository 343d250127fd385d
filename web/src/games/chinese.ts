// A Chinese poker table as the client shows it (docs/protocol.md, "Chinese poker tables"): the
// deal, who has submitted, and the reveal; and the player's split in progress, kept in the page's
// storage so that a reload does not lose it. The engine judges every split (`preview`); nothing
// here knows the rules beyond a row's size.
import type { ChineseArrangement, ChineseDeal, ChineseDealEnd, ChineseDealView, ChinesePairSettled, ChinesePayment, Fairness } from "../gen/protocol";
import { verifyDeal, type Verdict } from "../fairness";
import { cardList, endLine, nameOf } from "../view";
import type { TableGame } from "./game";

export type Row = "front" | "middle" | "back";
export const kRows: Row[] = ["front", "middle", "back"];
export const kRowSize: Record<Row, number> = { front: 3, middle: 5, back: 5 };

export interface Split {
  front: string[];
  middle: string[];
  back: string[];
}

export interface ChineseEnd {
  hand: number;
  handId: number;
  arrangements: ChineseArrangement[];
  payments: ChinesePayment[];
  settled: ChinesePairSettled[]; // what each pair paid, net; empty for a deal of the old rules
  net: number[];
  rake: number[];
  stacks: number[];
  verdict: Verdict | null;
}

export interface ChineseView {
  hand: number;
  handId: number;
  dealer: number;
  seats: number[]; // dealt in
  commitment: string;
  cards: string[]; // the viewer's 13, if dealt in
  submitted: number[]; // seats whose split is in
  mine: ChineseArrangement | null; // the viewer's split once in (from a snapshot)
  deadline: number; // the clock's end, in Date.now() time; 0: none
  end: ChineseEnd | null;
  last: ChineseEnd | null; // the previous deal's reveal, still on screen during this one
}

export function chineseFromSnapshot(d: ChineseDealView, submitted: number[], now: number): ChineseView {
  return {
    hand: d.hand,
    handId: d.hand_id,
    dealer: d.dealer,
    seats: d.seats,
    commitment: d.commitment,
    cards: cardList(d.cards),
    submitted,
    mine: d.your_split ? { ...d.your_split, seat: -1, by: "player" } : null,
    deadline: d.deadline_ms ? now + d.deadline_ms : 0,
    end: null,
    last: null,
  };
}

export function chineseDeal(m: ChineseDeal, now: number, before: ChineseView | null): ChineseView {
  return {
    hand: m.hand,
    handId: m.hand_id,
    dealer: m.dealer,
    seats: m.seats,
    commitment: m.commitment,
    cards: cardList(m.cards),
    submitted: [],
    mine: null,
    deadline: now + m.deadline_ms,
    end: null,
    last: before?.end ?? before?.last ?? null,
  };
}

export function chineseSubmitted(v: ChineseView, seat: number): ChineseView {
  return v.submitted.includes(seat) ? v : { ...v, submitted: [...v.submitted, seat] };
}

// The reveal: every arrangement and payment, and the fairness check of every card shown (all 13
// of each seat but a surrender's, whose rows are "" and whose cards only their owner sees).
export function chineseEnd(v: ChineseView | null, m: ChineseDealEnd): ChineseView | null {
  const seen = new Set<string>();
  for (const a of m.arrangements) for (const row of kRows) for (const c of cardList(a[row])) seen.add(c);
  const verdict = v?.commitment && v.hand === m.hand ? verifyDeal(v.commitment, m.fairness as Fairness, seen) : null;
  const end: ChineseEnd = {
    hand: m.hand,
    handId: m.hand_id,
    arrangements: m.arrangements,
    payments: m.payments,
    settled: m.settled,
    net: m.net,
    rake: m.rake,
    stacks: m.stacks,
    verdict,
  };
  if (!v) return null;
  return { ...v, deadline: 0, end };
}

// The table's part: the deal, from a snapshot, and the deal's messages (the deal, a seat's split
// in, the reveal).
export const chineseGame: TableGame = {
  fromSnapshot(m, now, previous) {
    const chinese = m.deal
      ? chineseFromSnapshot(m.deal, m.seats.filter((s) => s.submitted).map((s) => s.seat), now)
      : previous?.chinese?.end
        ? previous.chinese
        : null;
    return { hand: null, chinese, leap: null };
  },
  apply(v, next, m, now) {
    switch (m.kind) {
      case "deal": {
        if (!("seats" in m)) return { view: next, lines: [] };
        for (const s of next.seats)
          if (s) {
            s.inHand = m.seats.includes(s.seat);
            if (s.inHand) s.stack = m.stacks[s.seat] ?? s.stack;
          }
        return { view: { ...next, chinese: chineseDeal(m, now, v.chinese) }, lines: [`Deal ${m.hand} begins`] };
      }
      case "submitted":
        if (!v.chinese) return { view: next, lines: [] };
        return {
          view: { ...next, chinese: chineseSubmitted(v.chinese, m.seat) },
          lines: [`${nameOf(v, m.seat)} ${m.by === "server" ? "is arranged by the server" : "has set their rows"}`],
        };
      case "deal_end": {
        for (const [i, st] of m.stacks.entries()) {
          const s = next.seats[i];
          if (s) s.stack = st;
        }
        const chinese = chineseEnd(v.chinese, m);
        return { view: { ...next, chinese }, lines: [endLine("Deal", m.hand, chinese?.end?.verdict)] };
      }
      default:
        return { view: next, lines: [] };
    }
  },
};

// ---- the split in progress ------------------------------------------------------------------

export function emptySplit(): Split {
  return { front: [], middle: [], back: [] };
}

export function placed(s: Split): Set<string> {
  return new Set([...s.front, ...s.middle, ...s.back]);
}

// The cards not yet in a row, in the order the player keeps them.
export function unplaced(cards: string[], s: Split): string[] {
  const p = placed(s);
  return cards.filter((c) => !p.has(c));
}

export function complete(s: Split): boolean {
  return kRows.every((r) => s[r].length === kRowSize[r]);
}

// Moves a card into a row (from the hand or another row); a full row takes nothing.
export function place(s: Split, card: string, row: Row): Split {
  if (s[row].includes(card)) return s;
  if (s[row].length >= kRowSize[row]) return s;
  const out = take(s, card);
  return { ...out, [row]: [...out[row], card] };
}

// Takes a card out of whichever row holds it, back to the hand.
export function take(s: Split, card: string): Split {
  return { front: s.front.filter((c) => c !== card), middle: s.middle.filter((c) => c !== card), back: s.back.filter((c) => c !== card) };
}

// The row a clicked card goes to: the chosen row if it has room, else the first with room, back
// first (players build the back first).
export function targetRow(s: Split, chosen: Row | null): Row | null {
  if (chosen && s[chosen].length < kRowSize[chosen]) return chosen;
  for (const r of ["back", "middle", "front"] as Row[]) if (s[r].length < kRowSize[r]) return r;
  return null;
}

export function splitFrom(a: { front: string; middle: string; back: string }): Split {
  return { front: cardList(a.front), middle: cardList(a.middle), back: cardList(a.back) };
}

// A split only of the player's own cards, each once, each row within its size: what a stored
// split must be to be used again.
export function validFor(s: Split, cards: string[]): boolean {
  const all = [...s.front, ...s.middle, ...s.back];
  return kRows.every((r) => s[r].length <= kRowSize[r]) && new Set(all).size === all.length && all.every((c) => cards.includes(c));
}

const kRankOrder = "23456789TJQKA";
const kSuitOrder = "shdc";

// Cards sorted by rank (high first, then suit) or by suit (then rank, high first).
export function sortCards(cards: string[], by: "rank" | "suit"): string[] {
  const rank = (c: string) => kRankOrder.indexOf(c[0] ?? "");
  const suit = (c: string) => kSuitOrder.indexOf(c[1] ?? "");
  return [...cards].sort((a, b) => (by === "rank" ? rank(b) - rank(a) || suit(a) - suit(b) : suit(a) - suit(b) || rank(b) - rank(a)));
}

// The split in progress is kept per table and deal in the page's storage (a reload resumes it).
export function splitKey(table: number, handId: number): string {
  return `felt.split.${table}.${handId}`;
}

export function saveSplit(storage: Pick<Storage, "setItem">, table: number, handId: number, s: Split): void {
  try {
    storage.setItem(splitKey(table, handId), JSON.stringify(s));
  } catch {
    // storage full or refused: the split lives on in memory
  }
}

export function loadSplit(storage: Pick<Storage, "getItem">, table: number, handId: number, cards: string[]): Split | null {
  try {
    const raw = storage.getItem(splitKey(table, handId));
    if (!raw) return null;
    const s = JSON.parse(raw) as Split;
    if (!s || !Array.isArray(s.front) || !Array.isArray(s.middle) || !Array.isArray(s.back)) return null;
    return validFor(s, cards) ? s : null;
  } catch {
    return null;
  }
}

// A payment's reason as a newcomer reads it: "front", "royalty back four_of_a_kind" ->
// "royalty: four of a kind in the back", "special six_pairs" -> "special hand: six pairs".
export function reasonWords(reason: string): string {
  const [kind, ...rest] = reason.split(" ");
  const words = (s: string | undefined) => (s ?? "").replaceAll("_", " ");
  switch (kind) {
    case "front":
    case "middle":
    case "back":
      return `wins the ${kind}`;
    case "royalty":
      return `royalty: ${words(rest[1])} in the ${rest[0]}`;
    case "special":
      return `special hand: ${words(rest[0])}`;
    case "scoop":
      return "scoop (wins all three rows)";
    case "surrender":
      return "surrender";
    case "aces":
      return "aces side bet";
    default:
      return words(reason);
  }
}
