// The page: a header with the balance, the connection's state and the navigation; the sign-in
// when nobody is signed in; otherwise the lobby, a table, the history or a replayed hand.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { State } from "../store";
import { myTurn, potLines } from "../view";
import { History, Replay } from "./history";
import { StatsPage } from "./stats";
import { Lobby } from "./lobby";
import { ChineseTable } from "./chinese";
import { OpenFaceTable } from "./openface";
import { LeapTable } from "./leap";
import { PokerTable } from "./poker";
import { TournamentLobby, TournamentPage } from "./tournaments";

export function useStore(c: Controller): State {
  const [state, setState] = useState(c.store.get());
  useEffect(() => {
    const off = c.store.subscribe(() => setState(c.store.get()));
    // The effect runs after the first paint: an update made before it subscribed (the server's
    // hello answered that fast) would otherwise be lost, and the page would wait for nothing.
    setState(c.store.get());
    return off;
  }, [c]);
  return state;
}

function SignIn(props: { c: Controller }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const signIn = (how: "guest" | "login" | "register") =>
    void props.c.conn.signIn(how, how === "guest" ? {} : { name, password }).catch((e: Error) => props.c.notify("error", e.message));
  return (
    <div class="sign-in">
      <h2>Welcome to Felt</h2>
      <p>Poker with friends and bots, on your own server.</p>
      <button type="button" class="primary big" onClick={() => signIn("guest")}>
        Play as a guest
      </button>
      <form
        aria-label="sign in"
        onSubmit={(e) => {
          e.preventDefault();
          signIn("login");
        }}
      >
        <label>
          Name
          <input name="name" autoComplete="username" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        <div class="buttons">
          <button type="submit">Log in</button>
          <button type="button" onClick={() => signIn("register")}>
            Register
          </button>
        </div>
      </form>
    </div>
  );
}

const kSoundKey = "felt.sound";

// A short soft tone (Web Audio: nothing to download).
function tone(): void {
  try {
    const audio = new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
    osc.onended = () => void audio.close();
  } catch {
    // No audio here: the title still says it.
  }
}

// A table asked for and not shown yet: no wait is for ever. Past kOpeningMs the page says so and
// offers the lobby, and asks again.
const kOpeningMs = 10_000;

function Opening(props: { c: Controller; id: number }) {
  const [late, setLate] = useState(false);
  useEffect(() => {
    setLate(false);
    const t = setTimeout(() => setLate(true), kOpeningMs);
    return () => clearTimeout(t);
  }, [props.id]);
  if (!late) return <p class="connecting">Opening table {props.id}…</p>;
  return (
    <div class="notice error" role="alert">
      <p>Table {props.id} is not answering. The server may have restarted, or the table closed.</p>
      <button type="button" onClick={() => void props.c.watchTable(props.id)}>
        Try again
      </button>{" "}
      <button type="button" onClick={() => props.c.go({ name: "lobby" })}>
        Back to the lobby
      </button>
    </div>
  );
}

export function App(props: { c: Controller }) {
  const { c } = props;
  const s = useStore(c);
  useEffect(() => {
    document.body.classList.toggle("four-colour", s.fourColour);
  }, [s.fourColour]);
  // The player's turn at any table: the title says so while the tab is hidden, and the tone plays
  // as the turn comes, when the player turned it on.
  const turn = [...s.tables.values()].some(myTurn);
  useEffect(() => {
    const title = () => (document.title = turn && document.hidden ? "▶ Your turn · Felt" : "Felt");
    title();
    document.addEventListener("visibilitychange", title);
    return () => document.removeEventListener("visibilitychange", title);
  }, [turn]);
  // For screen readers, a live region: the player's turn, and the results of the shown table's
  // last poker hand.
  const shown = s.screen.name === "table" ? s.tables.get(s.screen.id) : undefined;
  const turnAt = [...s.tables.values()].find(myTurn);
  const said = turnAt
    ? `Your turn at table ${turnAt.id}.`
    : shown?.lastEnd && shown.hand?.number === shown.lastEnd.hand
      ? `Hand ${shown.lastEnd.hand}: ${potLines(shown, shown.lastEnd).join(". ")}.`
      : "";
  const wasTurn = useRef(false);
  useEffect(() => {
    if (turn && !wasTurn.current && s.sound) tone();
    wasTurn.current = turn;
  }, [turn]);
  useEffect(() => {
    if (!s.notice || s.notice.sticky) return;
    const t = setTimeout(() => c.store.update((st) => (st.notice === s.notice ? { notice: null } : {})), 5000);
    return () => clearTimeout(t);
  }, [s.notice]);
  let body;
  if (!s.ready) body = <p class="connecting">Connecting to the server…</p>;
  else if (!s.account) body = <SignIn c={c} />;
  else if (s.screen.name === "table") {
    const view = s.tables.get(s.screen.id);
    const Table = view?.game === "chinese" ? ChineseTable : view?.game === "leap" ? LeapTable : view?.game === "open-face" ? OpenFaceTable : PokerTable;
    body = view ? <Table c={c} view={view} balance={s.account.balance} /> : <Opening c={c} id={s.screen.id} />;
  } else if (s.screen.name === "history") body = <History c={c} name={s.account.name} />;
  else if (s.screen.name === "stats") body = <StatsPage c={c} />;
  else if (s.screen.name === "hand") body = <Replay c={c} id={s.screen.id} />;
  else if (s.screen.name === "tournament") body = <TournamentPage c={c} id={s.screen.id} name={s.account.name} />;
  else
    body = (
      <>
        <Lobby c={c} lobby={s.lobby} balance={s.account.balance} />
        <TournamentLobby c={c} tournaments={s.tournaments} />
      </>
    );
  return (
    <>
      <header>
        <h1>
          <a href="#/lobby" onClick={(e) => (e.preventDefault(), c.go({ name: "lobby" }))}>
            Felt
          </a>
        </h1>
        {s.account && (
          <nav aria-label="main">
            <a href="#/lobby" onClick={(e) => (e.preventDefault(), c.go({ name: "lobby" }))} aria-current={s.screen.name === "lobby" ? "page" : undefined}>
              Lobby
            </a>
            <a href="#/history" onClick={(e) => (e.preventDefault(), c.go({ name: "history" }))} aria-current={s.screen.name === "history" ? "page" : undefined}>
              History
            </a>
            <a href="#/stats" onClick={(e) => (e.preventDefault(), c.go({ name: "stats" }))} aria-current={s.screen.name === "stats" ? "page" : undefined}>
              Statistics
            </a>
          </nav>
        )}
        <div class="who">
          {s.status !== "online" && (
            <span class="conn" role="status">
              {s.status === "reconnecting" ? `Reconnecting… (attempt ${s.attempt})` : "Connecting…"}
            </span>
          )}
          {s.account && (
            <>
              <span class="name">{s.account.name}</span>
              <span class="balance" aria-label="balance">
                {s.account.balance} chips
              </span>
            </>
          )}
          <label class="toggle">
            <input type="checkbox" checked={s.fourColour} onChange={(e) => c.store.update(() => ({ fourColour: (e.target as HTMLInputElement).checked }))} />
            4-colour deck
          </label>
          <label class="toggle">
            <input
              type="checkbox"
              checked={s.sound}
              onChange={(e) => {
                const sound = (e.target as HTMLInputElement).checked;
                c.store.update(() => ({ sound }));
                localStorage.setItem(kSoundKey, sound ? "on" : "off");
              }}
            />
            Sound on my turn
          </label>
          {s.account && (
            <button type="button" onClick={() => void c.conn.signOut().catch(() => {})}>
              Log out
            </button>
          )}
        </div>
      </header>
      {s.notice && (
        <div class={`notice ${s.notice.kind}`} role={s.notice.kind === "error" ? "alert" : "status"}>
          {s.notice.text}
          {s.notice.sticky && (
            <button type="button" class="close" aria-label="close the notice" onClick={() => c.store.update(() => ({ notice: null }))}>
              ×
            </button>
          )}
        </div>
      )}
      <div class="sr-only" aria-live="polite" aria-label="announcements">
        {said}
      </div>
      <main>{body}</main>
    </>
  );
}
