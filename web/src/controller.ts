// Between the connection and the store: pushes become state, a gap in a table's seq asks for a
// snapshot, a reconnect watches again what was watched, and requests from the screens report
// their refusals as notices. Screens call these functions; none speaks to the socket.
import { Connection, RequestError, type Body, type Push, type ReplyOf, type RequestType } from "./connection";
import type { LobbyLine, TournamentLine, TournamentPush } from "./gen/protocol";
import { hashOf, Store, type Screen } from "./store";
import { applyTable, fromSnapshot } from "./tableview";
import { finishWords, levelWords, type LevelInfo } from "./tournament";

export class Controller {
  readonly conn: Connection;

  constructor(
    readonly store: Store,
    makeConnection: (events: ConstructorParameters<typeof Connection>[1]) => Connection,
    private readonly now: () => number = Date.now,
  ) {
    this.conn = makeConnection({
      status: (status, attempt) => store.update(() => ({ status, attempt })),
      signedIn: (account, resumed, elsewhere) => {
        // A refusal from before (a wrong password) is over once signed in.
        store.update((s) => ({ account, ready: true, notice: s.notice?.kind === "error" ? null : s.notice }));
        void this.afterSignIn(resumed);
        // Seats held on other nodes come back there: say so, and where to find them.
        if (elsewhere?.length)
          this.notify(
            "info",
            `You hold a seat at ${elsewhere.map((e) => `table ${e.table}`).join(", ")} on another server: open it from the lobby to play on.`,
          );
      },
      signedOut: () =>
        store.update((s) => ({ account: null, ready: true, tables: new Map(), lobby: s.lobby })),
      push: (m) => this.push(m),
      // Another node hosts the table asked for: the tables shown from this node stop (their
      // seats are held there as for a lost connection); the lobby is every node's.
      moved: () => store.update(() => ({ tables: new Map() })),
    });
  }

  // A request from a screen: a refusal is shown as a notice and given back as null.
  async ask<T extends RequestType>(type: T, body: Body<T>): Promise<ReplyOf<T> | null> {
    try {
      // The balance a join, a top-up or a cash-out moves comes as the server's `balance` push.
      return await this.conn.request(type, body);
    } catch (e) {
      this.notify("error", e instanceof RequestError ? e.message : String(e));
      return null;
    }
  }

  notify(kind: "error" | "info", text: string, sticky = false): void {
    this.store.update(() => ({ notice: { kind, text, at: this.now(), sticky } }));
  }

  go(screen: Screen): void {
    this.store.update(() => ({ screen }));
    if (typeof location !== "undefined" && location.hash !== hashOf(screen)) location.hash = hashOf(screen);
    if (screen.name === "table") void this.watchTable(screen.id);
  }

  // A table shown on screen: the player's own seat comes back by itself on sign-in; otherwise
  // ask for it as a spectator (there is no such table, or another node hosts it: spectate says).
  // What came of it: "watching" (as before: seated or spectating), "spectating" (newly), "gone"
  // (no such table: back to the lobby, saying so) or "failed".
  async watchTable(id: number): Promise<"watching" | "spectating" | "gone" | "failed"> {
    if (this.store.get().tables.has(id) || !this.conn.isOnline()) return "watching";
    try {
      await this.conn.request("snapshot", { table: id });
      return "watching";
    } catch (e) {
      if (!(e instanceof RequestError)) return "failed";
      // Not watched yet; or on another node (several nodes), which spectate follows (moved).
      if (e.code !== "not_watching" && e.code !== "no_such_table") {
        this.notify("error", e.message);
        return "failed";
      }
      try {
        await this.conn.request("spectate", { table: id });
        return "spectating";
      } catch (e2) {
        const gone = e2 instanceof RequestError && e2.code === "no_such_table";
        this.notify("error", gone ? `Table ${id} has closed.` : e2 instanceof RequestError ? e2.message : String(e2));
        const s = this.store.get();
        if (gone && s.screen.name === "table" && s.screen.id === id) this.go({ name: "lobby" });
        return gone ? "gone" : "failed";
      }
    }
  }

  async leaveTable(id: number): Promise<void> {
    await this.ask("leave", { table: id });
    this.store.update((s) => {
      const view = s.tables.get(id);
      if (!view || view.mySeat !== null) return {};
      const tables = new Map(s.tables);
      tables.delete(id); // a spectator, or a player whose seat is gone: stop showing it
      return { tables };
    });
  }

  // The lobby of tournaments, asked again (after sign-in, on a tournament's news, and while the
  // lobby is shown).
  async loadTournaments(): Promise<void> {
    const reply = await this.conn.request("tournaments", {}).catch(() => null);
    if (!reply) return;
    const tournaments = new Map<number, TournamentLine>();
    for (const t of reply.tournaments) tournaments.set(t.tournament, t);
    this.store.update(() => ({ tournaments }));
  }

  private async afterSignIn(resumed: boolean): Promise<void> {
    void this.loadTournaments();
    const reply = await this.ask("watch_lobby", { limit: 100 });
    if (reply) {
      const lobby = new Map<number, LobbyLine>();
      for (const t of reply.tables) lobby.set(t.id, t);
      this.store.update(() => ({ lobby }));
    }
    // After a reconnect, the tables shown are asked for again: a seat still held comes back with
    // its snapshot; a table watched as a spectator is watched again.
    const s = this.store.get();
    const again = new Set<number>();
    const seated = new Set<number>();
    for (const [id, v] of s.tables)
      if (resumed && !v.closed) {
        again.add(id);
        if (v.mySeat !== null) seated.add(id);
      }
    if (s.screen.name === "table") again.add(s.screen.id);
    if (again.size) this.store.update((st) => ({ tables: new Map([...st.tables].filter(([id]) => !again.has(id))) }));
    for (const id of again) {
      const came = await this.watchTable(id);
      // A seat that is not held any more: the server restarted (seats are held through a lost
      // connection), and cashed it out.
      if (seated.has(id) && came !== "watching") {
        const balance = this.store.get().account?.balance;
        this.notify(
          "info",
          `The server restarted while you sat at table ${id}: your chips from it are back in your balance` +
            (balance !== undefined ? ` (${balance})` : "") +
            (came === "spectating" ? ". Sit down again to play on." : "."),
          true,
        );
      }
    }
  }

  private push(m: Push): void {
    // The account's balance changed here or in another tab (or on another node).
    if (m.type === "balance") {
      return this.store.update((s) => (s.account ? { account: { ...s.account, balance: m.balance } } : {}));
    }
    if (m.type === "lobby") {
      return this.store.update((s) => {
        const lobby = new Map(s.lobby);
        if (m.kind === "changed") lobby.set(m.table.id, m.table);
        else lobby.delete(m.id);
        return { lobby };
      });
    }
    if (m.type === "tournament") return this.tournamentNews(m);
    if (m.type !== "table") return;
    const before = this.store.get().tables.get(m.table);
    let view;
    if (before) view = applyTable(before, m, this.now());
    else if (m.kind === "snapshot") view = fromSnapshot(m, this.now());
    else return; // a table no longer shown
    this.store.update((s) => {
      const tables = new Map(s.tables);
      tables.set(m.table, view);
      return { tables };
    });
    if (view.stale && !before?.stale) void this.conn.request("snapshot", { table: m.table }).catch(() => {});
  }

  // A tournament's news. At its start and at each move the server has seated the player's
  // connections at their table already (its snapshot comes by itself): the page follows them
  // there without a click, unless they are looking at something else than a table of theirs.
  private tournamentNews(m: TournamentPush): void {
    const t = m.tournament;
    if ((m.kind === "started" || m.kind === "moved" || m.kind === "seated") && m.table !== undefined) {
      const table = m.table;
      const from = m.from_table;
      this.store.update((s) => {
        const tables = new Map(s.tables);
        if (from !== undefined) tables.delete(from);
        const shown = s.screen.name === "table" ? s.screen.id : null;
        const follow = shown === null || shown === from || !s.tables.has(shown) || s.tables.get(shown)?.config["tournament"] === t;
        return follow ? { tables, screen: { name: "table", id: table } } : { tables };
      });
      const shown = hashOf(this.store.get().screen);
      if (typeof location !== "undefined" && location.hash !== shown) location.hash = shown;
      const seat = (m.seat ?? 0) + 1;
      this.notify(
        "info",
        m.kind === "started"
          ? `Tournament ${t} starts: table ${table}, seat ${seat}.`
          : m.kind === "seated"
            ? `Tournament ${t}: you sit at table ${table}, seat ${seat}.`
            : `You move to table ${table}, seat ${seat}.`,
      );
    } else if (m.kind === "busted") {
      const may = [m.rebuy ? `rebuy (within ${Math.round((m.ms ?? 0) / 1000)} s, your seat kept)` : "", m.reenter ? "re-enter" : ""].filter((x) => x);
      this.notify("info", `Tournament ${t}: you have lost your chips.${may.length ? ` You may ${may.join(" or ")}.` : ""}`, true);
    } else if (m.kind === "level" && m.level) {
      const l = m.level as LevelInfo;
      this.notify("info", `Tournament ${t}: level ${l.level ?? ""}, ${levelWords(l)}.`);
    } else if (m.kind === "break") {
      this.notify("info", `Tournament ${t}: a break of ${Math.round((m.ms ?? 0) / 60_000)} minutes.`);
    } else if ((m.kind === "out" || m.kind === "won") && m.place !== undefined) {
      this.store.update((s) => {
        const deals = new Map(s.deals);
        deals.delete(t);
        return { deals };
      });
      this.notify("info", finishWords(t, m.place, m.prize ?? 0, m.tied ?? false), true);
    } else if (m.kind === "deal" && m.deal) {
      const deal = m.deal;
      this.store.update((s) => ({ deals: new Map(s.deals).set(t, deal) }));
    } else if (m.kind === "deal_off") {
      this.store.update((s) => {
        const deals = new Map(s.deals);
        deals.delete(t);
        return { deals };
      });
      this.notify("info", `Tournament ${t}: the deal is off (${m.reason ?? "declined"}). Play goes on.`);
    } else if (m.kind === "hand_for_hand") {
      this.notify("info", `Tournament ${t}: hand-for-hand on the bubble (${m.remaining ?? "?"} left): each table plays one hand and waits for the others.`);
    } else if (m.kind === "cancelled") {
      this.notify("info", `Tournament ${t} is cancelled: ${m.reason ?? "too few registered"}.`, true);
    }
    void this.loadTournaments();
  }
}
