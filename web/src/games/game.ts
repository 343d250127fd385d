// What each game's client logic gives the table (tableview.ts), behind one interface: its part of
// a table rebuilt from a snapshot, and its own messages applied, with their lines for the log.
// The messages every table has (seats, chat, the connection, the clock's bank, a void, closing)
// are tableview.ts's. A new game is one file here, and one line in tableview.ts's `kGames`.
import type { Snapshot, TableMessage } from "../gen/protocol";
import type { TableView } from "../view";

// The parts of a view a game sets from a snapshot.
export type GamePart = Pick<TableView, "hand" | "chinese" | "leap">;

export interface TableGame {
  // The game's part of the table, from a snapshot; `previous`, the view before it, keeps what the
  // snapshot does not say (the hand's id and commitment, the last deal's end on screen).
  fromSnapshot(m: Snapshot, now: number, previous: TableView | undefined): GamePart;
  // One of the game's own messages. `next` is `v` with `seq` moved on and its seats copied, to be
  // changed in place; the view after the message, and what it says in words, oldest first.
  apply(v: TableView, next: TableView, m: TableMessage, now: number): { view: TableView; lines: string[] };
}
