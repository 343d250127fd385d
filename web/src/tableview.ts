// A table as the client shows it, rebuilt from the server's table messages alone: the snapshot
// sets it, and each message moves it on. The messages every table has are here; each game's own
// are its file's in games/, behind one interface (games/game.ts). Pure functions, so that they are
// tested without a browser. A gap in seq makes the view stale until a new snapshot arrives.
import type { Snapshot, TableMessage } from "./gen/protocol";
import { chineseGame } from "./games/chinese";
import type { TableGame } from "./games/game";
import { leapGame } from "./games/leap";
import { openFaceGame } from "./games/openface";
import { pokerGame } from "./games/poker";
import { nameOf, newSeat, seatCount, seatFrom, withLog, type SeatView, type TableView } from "./view";

export type { ChatLine, EndView, HandView, SeatView, TableView } from "./view";
export { categoryWords, seatCount } from "./view";

// Each game's client logic, by the configuration's `game` (poker when it names none).
const kGames: Record<string, TableGame> = { poker: pokerGame, chinese: chineseGame, leap: leapGame, "open-face": openFaceGame };

function gameOf(name: string): TableGame {
  return kGames[name] ?? pokerGame;
}

const kChatKept = 100;

export function fromSnapshot(m: Snapshot, now: number, previous?: TableView): TableView {
  const seats: (SeatView | null)[] = Array(seatCount(m.config)).fill(null);
  for (const s of m.seats) {
    const seat = seatFrom(s);
    if (s.seat !== m.your_seat) seat.up = [...seat.cards]; // another seat's cards shown are up
    seats[s.seat] = seat;
  }
  const game = typeof m.config["game"] === "string" ? m.config["game"] : "poker";
  const v: TableView = {
    id: m.table,
    game,
    // A tournament's table says so beside its configuration; kept with it here.
    config: { ...(m.config as Record<string, unknown>), ...(m.tournament !== undefined ? { tournament: m.tournament } : {}) },
    seq: m.seq,
    stale: false,
    mySeat: m.your_seat,
    seats,
    legal: m.legal ?? null,
    legalSeq: m.seq,
    lastEnd: previous?.lastEnd ?? null,
    hand: null,
    chinese: null,
    leap: null,
    openFace: null,
    chat: previous?.chat ?? [],
    log: previous?.log ?? [],
    closed: false,
    timedOut: null,
  };
  const { lines, ...part } = gameOf(game).fromSnapshot(m, now, previous, v);
  return { ...v, ...part, log: (lines ?? []).reduce((log, line) => withLog({ log }, line), v.log) };
}

export function applyTable(v: TableView, m: TableMessage, now: number): TableView {
  if (m.kind === "snapshot") return fromSnapshot(m, now, v);
  if (v.stale) return v;
  if (m.seq !== v.seq + 1) return { ...v, stale: true };
  const seats = v.seats.map((s) => (s ? { ...s, cards: [...s.cards], up: [...s.up] } : null));
  const next: TableView = { ...v, seq: m.seq, seats, timedOut: null };
  switch (m.kind) {
    case "seated":
      seats[m.seat] = newSeat(m.seat, m.name, m.stack, false);
      return { ...next, log: withLog(v, `${m.name} sits down with ${m.stack}`) };
    case "left": {
      // A player who leaves as a poker hand ends (busted, or cashed out) stays on screen, marked,
      // while its results are shown: until the next hand starts.
      const s = seats[m.seat];
      const over = v.hand !== null && v.lastEnd?.hand === v.hand.number;
      if (s && over && s.inHand && m.seat !== v.mySeat) Object.assign(s, { gone: true, stack: m.stack });
      else seats[m.seat] = null;
      return {
        ...next,
        mySeat: v.mySeat === m.seat ? null : v.mySeat,
        log: withLog(v, `${m.name} leaves with ${m.stack}`),
      };
    }
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
    case "timed_out":
      // Poker says it with the action that follows ("timed out, folds"); the other games here.
      return v.game === "poker" ? { ...next, timedOut: m.seat } : { ...next, log: withLog(v, `${nameOf(v, m.seat)}'s time is up`) };
    case "time_bank":
      return next.hand ? { ...next, hand: { ...next.hand, bankMs: m.bank_ms, deadline: now + m.bank_ms } } : next;
    case "closed":
      return { ...next, closed: true, hand: null, legal: null };
    case "hand_void":
      for (const [i, st] of m.stacks.entries()) {
        const s = seats[i];
        if (s) Object.assign(s, { stack: st, bet: 0, inHand: false, folded: false, cards: [], up: [], cardCount: 0 });
      }
      return { ...next, hand: null, legal: null, chinese: null, leap: null, openFace: null, log: withLog(v, `Hand ${m.hand} is void (${m.reason})`) };
    default: {
      const { view, lines } = gameOf(v.game).apply(v, next, m, now);
      return lines.length ? { ...view, log: lines.reduce((log, line) => withLog({ log }, line), v.log) } : view;
    }
  }
}
