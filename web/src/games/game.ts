// What each game's client logic gives the table (tableview.ts), behind one interface: its part of
// a table rebuilt from a snapshot, and its own messages applied, with their lines for the log.
// The messages every table has (seats, chat, the connection, the clock's bank, a void, closing)
// are tableview.ts's. A new game is one file here, and one line in tableview.ts's `kGames`.
import type { Snapshot, TableMessage } from "../gen/protocol";
import type { TableView } from "../view";

// The parts of a view a game sets from a snapshot, and the running hand so far in words, for a
// client that did not see it (a reload): added to the log.
export type GamePart = Pick<TableView, "hand" | "chinese" | "leap"> & Partial<Pick<TableView, "openFace">> & { lines?: string[] };

export interface TableGame {
  // The game's part of the table, from a snapshot; `previous`, the view before it, keeps what the
  // snapshot does not say (the last deal's end on screen). `v` is the table from the snapshot
  // without the game's part (its seats and names).
  fromSnapshot(m: Snapshot, now: number, previous: TableView | undefined, v: TableView): GamePart;
  // One of the game's own messages. `next` is `v` with `seq` moved on and its seats copied, to be
  // changed in place; the view after the message, and what it says in words, oldest first.
  apply(v: TableView, next: TableView, m: TableMessage, now: number): { view: TableView; lines: string[] };
}
