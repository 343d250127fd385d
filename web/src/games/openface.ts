// An open-face table as the client shows it (docs/protocol.md, "Open-face tables"): every seat's
// rows as placed, face up (a Fantasyland hand face down until the end), whose turn it is, the
// viewer's cards to place and discards, and the hand's end. The placement in progress is the
// viewer's own, judged by the engine (`preview`); nothing here knows the rules beyond a row's size.
import type { Fairness, OpenFaceDeal, OpenFaceEnd, OpenFacePlaced, OpenFaceRowsEnd, OpenFaceTurn, OpenFaceView as OpenFaceSnapshot } from "../gen/protocol";
import { verifyDeal, type Verdict } from "../fairness";
import { cardList, endLine, nameOf, type TableView } from "../view";
import type { TableGame } from "./game";

import { kRows, kRowSize, type Row } from "./chinese";

// The rows are thirteen-card Chinese poker's.
export { kRows, kRowSize, type Row };

export interface Rows {
  front: string[];
  middle: string[];
  back: string[];
}

export interface OpenFaceEndView {
  hand: number;
  handId: number;
  rows: OpenFaceRowsEnd[];
  payments: OpenFaceEnd["payments"];
  settled: OpenFaceEnd["settled"];
  points: number[];
  net: number[];
  rake: number[];
  stacks: number[];
  fantasyland: { seat: number; cards: number }[];
  verdict: Verdict | null;
}

export interface OpenFaceView {
  hand: number;
  handId: number;
  variant: string;
  dealer: number;
  seats: number[]; // dealt in, in turn order
  commitment: string;
  fantasyland: Record<number, number>; // seat -> cards dealt at once this hand
  boards: Record<number, Rows>; // seat -> rows as the viewer sees them
  faceDown: number[]; // seats whose rows are hidden until the end
  street: number;
  toAct: number | null;
  deadline: number; // the clock's end, in Date.now() time; 0: none
  cards: string[]; // the viewer's cards to place now
  discardsDue: number;
  discards: string[]; // the viewer's, this hand
  seen: string[]; // every card the viewer saw this hand, for the fairness check
  end: OpenFaceEndView | null;
  last: OpenFaceEndView | null; // the previous hand's end, on screen during this one
}

export function emptyRows(): Rows {
  return { front: [], middle: [], back: [] };
}

function rowsOf(r: { front: string; middle: string; back: string } | undefined): Rows {
  return r ? { front: cardList(r.front), middle: cardList(r.middle), back: cardList(r.back) } : emptyRows();
}

export function openFaceFromSnapshot(
  d: OpenFaceSnapshot,
  seats: { seat: number; rows?: { front: string; middle: string; back: string }; fantasyland?: number; face_down?: true }[],
  now: number,
): OpenFaceView {
  const boards: Record<number, Rows> = {};
  const fantasyland: Record<number, number> = {};
  const faceDown: number[] = [];
  for (const s of seats) {
    if (!d.seats.includes(s.seat)) continue;
    boards[s.seat] = rowsOf(s.rows);
    if (s.fantasyland) fantasyland[s.seat] = s.fantasyland;
    if (s.face_down) faceDown.push(s.seat);
  }
  const cards = cardList(d.cards);
  const seen = [...cards, ...cardList(d.discards)];
  for (const b of Object.values(boards)) seen.push(...b.front, ...b.middle, ...b.back);
  return {
    hand: d.hand,
    handId: d.hand_id,
    variant: d.variant,
    dealer: d.dealer,
    seats: d.seats,
    commitment: d.commitment,
    fantasyland,
    boards,
    faceDown,
    street: d.street,
    toAct: d.to_act,
    deadline: d.to_act !== null && d.deadline_ms ? now + d.deadline_ms : 0,
    cards,
    discardsDue: d.discards_due ?? 0,
    discards: cardList(d.discards),
    seen,
    end: null,
    last: null,
  };
}

export function openFaceDeal(m: OpenFaceDeal, before: OpenFaceView | null): OpenFaceView {
  const fantasyland: Record<number, number> = {};
  for (const f of m.fantasyland) fantasyland[f.seat] = f.cards;
  const boards: Record<number, Rows> = {};
  for (const s of m.seats) boards[s] = emptyRows();
  const cards = cardList(m.cards);
  return {
    hand: m.hand,
    handId: m.hand_id,
    variant: m.variant,
    dealer: m.dealer,
    seats: m.seats,
    commitment: m.commitment,
    fantasyland,
    boards,
    faceDown: m.fantasyland.map((f) => f.seat),
    street: 0,
    toAct: null,
    deadline: 0,
    cards,
    discardsDue: cards.length ? cards.length - 13 : 0,
    discards: [],
    seen: cards,
    end: null,
    last: before?.end ?? before?.last ?? null,
  };
}

export function openFaceTurn(v: OpenFaceView, m: OpenFaceTurn, now: number, mine: boolean): OpenFaceView {
  const cards = mine && m.cards !== undefined ? cardList(m.cards) : v.cards;
  return {
    ...v,
    street: m.street,
    toAct: m.seat,
    deadline: now + m.deadline_ms,
    cards,
    discardsDue: mine && m.discards_due !== undefined ? m.discards_due : v.discardsDue,
    seen: mine ? [...new Set([...v.seen, ...cards])] : v.seen,
  };
}

export function openFacePlaced(v: OpenFaceView, m: OpenFacePlaced, mine: boolean): OpenFaceView {
  const board = v.boards[m.seat] ?? emptyRows();
  const added = rowsOf({ front: m.front ?? "", middle: m.middle ?? "", back: m.back ?? "" });
  const next: Rows = { front: [...board.front, ...added.front], middle: [...board.middle, ...added.middle], back: [...board.back, ...added.back] };
  const placed = [...added.front, ...added.middle, ...added.back];
  return {
    ...v,
    boards: { ...v.boards, [m.seat]: next },
    cards: mine ? [] : v.cards,
    discardsDue: mine ? 0 : v.discardsDue,
    discards: mine ? [...v.discards, ...cardList(m.discard)] : v.discards,
    seen: [...new Set([...v.seen, ...placed])],
  };
}

// The end: every row face up, the payments, and the fairness check of every card the viewer saw.
export function openFaceEnd(v: OpenFaceView | null, m: OpenFaceEnd): OpenFaceView | null {
  const seen = new Set<string>(v?.seen ?? []);
  for (const r of m.rows) for (const row of kRows) for (const c of cardList(r[row])) seen.add(c);
  const verdict = v?.commitment && v.hand === m.hand ? verifyDeal(v.commitment, m.fairness as Fairness, seen) : null;
  const end: OpenFaceEndView = {
    hand: m.hand,
    handId: m.hand_id,
    rows: m.rows,
    payments: m.payments,
    settled: m.settled,
    points: m.points,
    net: m.net,
    rake: m.rake,
    stacks: m.stacks,
    fantasyland: m.fantasyland,
    verdict,
  };
  if (!v) return null;
  const boards: Record<number, Rows> = {};
  for (const r of m.rows) boards[r.seat] = rowsOf(r);
  return { ...v, boards, faceDown: [], toAct: null, deadline: 0, cards: [], end };
}

export const openFaceGame: TableGame = {
  fromSnapshot(m, now, previous) {
    const openFace = m.open_face
      ? openFaceFromSnapshot(m.open_face, m.seats, now)
      : previous?.openFace?.end
        ? previous.openFace
        : null;
    return { hand: null, chinese: null, leap: null, openFace };
  },
  apply(v, next, m, now) {
    switch (m.kind) {
      case "open_face_deal":
        for (const s of next.seats)
          if (s) {
            s.inHand = m.seats.includes(s.seat);
            if (s.inHand) s.stack = m.stacks[s.seat] ?? s.stack;
          }
        return {
          view: { ...next, openFace: openFaceDeal(m, v.openFace) },
          lines: [
            `Hand ${m.hand} begins`,
            ...m.fantasyland.map((f) => `${nameOf(v, f.seat)} plays in Fantasyland with ${f.cards} cards`),
          ],
        };
      case "open_face_turn":
        if (!v.openFace) return { view: next, lines: [] };
        return { view: { ...next, openFace: openFaceTurn(v.openFace, m, now, m.seat === v.mySeat) }, lines: [] };
      case "open_face_placed":
        if (!v.openFace) return { view: next, lines: [] };
        return {
          view: { ...next, openFace: openFacePlaced(v.openFace, m, m.seat === v.mySeat) },
          lines: m.by === "server" ? [`The server places for ${nameOf(v, m.seat)}`] : [],
        };
      case "open_face_end": {
        for (const [i, st] of m.stacks.entries()) {
          const s = next.seats[i];
          if (s) s.stack = st;
        }
        const openFace = openFaceEnd(v.openFace, m);
        return {
          view: { ...next, openFace },
          lines: [endLine("Hand", m.hand, openFace?.end?.verdict), ...(openFace?.end ? endFacts(v, openFace.end) : [])],
        };
      }
      default:
        return { view: next, lines: [] };
    }
  },
};

// ---- the placement in progress ----------------------------------------------------------------

// Where the viewer puts each of the cards to place: a row, or the discards.
export interface Placing extends Rows {
  discard: string[];
}

export function emptyPlacing(): Placing {
  return { front: [], middle: [], back: [], discard: [] };
}

export type Target = Row | "discard";

export function assigned(p: Placing): Set<string> {
  return new Set([...p.front, ...p.middle, ...p.back, ...p.discard]);
}

// Moves a card to a row (with room beside what is placed) or to the discards (up to those due);
// a full target takes nothing.
export function put(p: Placing, placed: Rows, card: string, to: Target, due: number): Placing {
  if (p[to].includes(card)) return p;
  const room = to === "discard" ? due : kRowSize[to] - placed[to].length;
  if (p[to].length >= room) return p;
  const out = unput(p, card);
  return { ...out, [to]: [...out[to], card] };
}

export function unput(p: Placing, card: string): Placing {
  return {
    front: p.front.filter((c) => c !== card),
    middle: p.middle.filter((c) => c !== card),
    back: p.back.filter((c) => c !== card),
    discard: p.discard.filter((c) => c !== card),
  };
}

// Where a clicked card goes: the chosen target if it has room, else the discards while some are
// due and unset (for Fantasyland, only when the rows are full), else the first row with room,
// back first.
export function targetOf(p: Placing, placed: Rows, chosen: Target | null, due: number): Target | null {
  const room = (t: Target) => (t === "discard" ? due : kRowSize[t] - placed[t].length) - p[t].length;
  if (chosen && room(chosen) > 0) return chosen;
  for (const r of ["back", "middle", "front"] as Row[]) if (room(r) > 0) return r;
  return room("discard") > 0 ? "discard" : null;
}

// Every card to place is assigned, and the discards are those due.
export function ready(p: Placing, cards: string[], due: number): boolean {
  return p.discard.length === due && assigned(p).size === cards.length && cards.every((c) => assigned(p).has(c));
}

// The rows as they would be: placed, then proposed.
export function withPlacing(placed: Rows, p: Placing): Rows {
  return { front: [...placed.front, ...p.front], middle: [...placed.middle, ...p.middle], back: [...placed.back, ...p.back] };
}

// A payment's reason as a newcomer reads it: "royalty back full_house" -> "royalty: full house
// in the back" (or, given the receiver's rows in words, "royalty: full house, kings over fours in
// the back"), "foul" -> "foul (loses every row and the scoop)".
export function openFaceReason(reason: string, rowWords?: Partial<Record<Row, string>>): string {
  const [kind, ...rest] = reason.split(" ");
  const words = (s: string | undefined) => (s ?? "").replaceAll("_", " ");
  switch (kind) {
    case "front":
    case "middle":
    case "back":
      return `wins the ${kind}`;
    case "royalty": {
      const named = rowWords?.[rest[0] as Row];
      return `royalty: ${named || words(rest[1])} in the ${rest[0]}`;
    }
    case "scoop":
      return "scoop (wins all three rows)";
    case "foul":
      return "foul (loses every row and the scoop)";
    default:
      return words(reason);
  }
}

// The hand's end in a line of the log for each payment-free fact: who fouled, who goes to
// Fantasyland.
export function endFacts(v: Pick<TableView, "seats">, end: OpenFaceEndView): string[] {
  const out: string[] = [];
  for (const r of end.rows) if (r.fouled) out.push(`${nameOf(v, r.seat)} fouled`);
  for (const f of end.fantasyland) out.push(`${nameOf(v, f.seat)} goes to Fantasyland with ${f.cards} cards`);
  return out;
}

// ---- the history ------------------------------------------------------------------------------

// A finished hand's record, step by step: the rows after each placement (as the asker saw them: a
// Fantasyland hand's own rows only), then the end. `events` as `hand` gives them.
export interface OpenFaceStep {
  boards: Record<number, Rows>;
  seat: number | null; // who just placed
  line: string;
}

export function openFaceReplay(
  events: { kind: string; seat?: number; front?: string; middle?: string; back?: string; face_down?: boolean; by?: string }[],
  name: (seat: number) => string,
): OpenFaceStep[] {
  let boards: Record<number, Rows> = {};
  const out: OpenFaceStep[] = [{ boards, seat: null, line: "The deal" }];
  for (const e of events) {
    if (e.kind !== "open_face_placed" || e.seat === undefined) continue;
    const b = boards[e.seat] ?? emptyRows();
    const add = rowsOf({ front: e.front ?? "", middle: e.middle ?? "", back: e.back ?? "" });
    boards = { ...boards, [e.seat]: { front: [...b.front, ...add.front], middle: [...b.middle, ...add.middle], back: [...b.back, ...add.back] } };
    const placed = [...add.front, ...add.middle, ...add.back].length;
    out.push({
      boards,
      seat: e.seat,
      line: e.face_down && placed === 0 ? `${name(e.seat)} sets a Fantasyland hand, face down` : `${name(e.seat)} places ${placed} card${placed === 1 ? "" : "s"}${e.by === "server" ? " (by the server)" : ""}`,
    });
  }
  return out;
}
