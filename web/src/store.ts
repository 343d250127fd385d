// The one store every screen reads: who is signed in, the connection, the lobby, the tables
// watched, the current screen and the last notice. Changed only through the controller
// (controller.ts), which feeds it from the connection.
import type { Account, LobbyLine, TournamentDeal, TournamentLine } from "./gen/protocol";
import type { Status } from "./connection";
import type { TableView } from "./tableview";

export type Screen =
  | { name: "lobby" }
  | { name: "table"; id: number }
  | { name: "history" }
  | { name: "stats" }
  | { name: "hand"; id: number }
  | { name: "tournament"; id: number };

export interface Notice {
  kind: "error" | "info";
  text: string;
  at: number;
  sticky?: boolean; // stays until the player closes it (what happened while they were away)
}

export interface State {
  status: Status;
  attempt: number; // reconnection attempts so far
  ready: boolean; // the first handshake is done: signed in or known to be signed out
  account: Account | null;
  lobby: Map<number, LobbyLine>;
  tournaments: Map<number, TournamentLine>; // the lobby of tournaments, newest first
  deals: Map<number, TournamentDeal>; // by tournament: a deal on the table
  tables: Map<number, TableView>;
  screen: Screen;
  notice: Notice | null;
  fourColour: boolean;
  sound: boolean; // a short tone when the player's turn comes (off by default; kept in the browser)
}

export function initialState(screen: Screen = { name: "lobby" }): State {
  return {
    status: "connecting",
    attempt: 0,
    ready: false,
    account: null,
    lobby: new Map(),
    tournaments: new Map(),
    deals: new Map(),
    tables: new Map(),
    screen,
    notice: null,
    fourColour: false,
    sound: false,
  };
}

export class Store {
  private listeners = new Set<() => void>();
  constructor(public state: State) {}

  get(): State {
    return this.state;
  }

  update(change: (s: State) => Partial<State>): void {
    this.state = { ...this.state, ...change(this.state) };
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

// The screen a location hash names: #/lobby, #/table/7, #/history, #/stats, #/hand/12,
// #/tournament/4.
export function screenFromHash(hash: string): Screen {
  const m = /^#\/(table|hand|tournament)\/(\d+)$/.exec(hash);
  if (m) return { name: m[1] as "table" | "hand" | "tournament", id: Number(m[2]) };
  if (hash === "#/history") return { name: "history" };
  if (hash === "#/stats") return { name: "stats" };
  return { name: "lobby" };
}

export function hashOf(s: Screen): string {
  return s.name === "table" || s.name === "hand" || s.name === "tournament" ? `#/${s.name}/${s.id}` : `#/${s.name}`;
}
