// What every game's table screen shares: the clock's redraw, the fairness line, the side panel
// (the seat's own controls, the chat, the log), the end's table of nets and stacks, and a seat's
// name (view.ts's nameOf).
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { Verdict } from "../fairness";
import type { LobbyLine } from "../gen/protocol";
import type { TableView } from "../tableview";

// A question in the page's own dialog (never the browser's confirm(), which stops the page and
// cannot be styled or tested): what will happen, and the two answers.
export function Confirm(props: { question: string; yes: string; no?: string; onYes: () => void; onNo: () => void }) {
  return (
    <div class="confirm" role="alertdialog" aria-label={props.question}>
      <p>{props.question}</p>
      <button type="button" class="primary" onClick={props.onYes}>
        {props.yes}
      </button>
      <button type="button" onClick={props.onNo}>
        {props.no ?? "Cancel"}
      </button>
    </div>
  );
}

// The time now, drawn again four times a second while a clock runs.
// One of the server's bots: their names begin with "bot-", which no person may take. Marked
// before the name at a seat.
export const isBot = (name: string): boolean => name.startsWith("bot-");
export function BotMark(props: { name: string }) {
  return isBot(props.name) ? (
    <span class="bot-mark" title="one of the server's bots">
      bot
    </span>
  ) : null;
}

export function useNow(active: boolean): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(t);
  }, [active]);
  return Date.now();
}

function Chat(props: { c: Controller; view: TableView }) {
  const [text, setText] = useState("");
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [props.view.chat.length]);
  return (
    <section class="chat" aria-label="chat">
      <h3>Chat</h3>
      <div class="lines" ref={box}>
        {props.view.chat.map((l) => (
          <div>
            <b>{l.name}:</b> {l.text}
          </div>
        ))}
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) return;
          void props.c.ask("chat", { table: props.view.id, text }).then((r) => r && setText(""));
        }}
      >
        <input aria-label="chat message" maxLength={200} value={text} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        <button type="submit">Send</button>
      </form>
    </section>
  );
}

// Sitting down at a table (a lobby line, or a table's configuration with its id): the buy-in,
// inside the table's limits and the balance, with what is wrong with it said in words.
export function JoinForm(props: { c: Controller; t: LobbyLine; balance: number; done: () => void }) {
  const min = Number(props.t["min_buy_in"] ?? 0);
  const tableMax = Number(props.t["max_buy_in"] ?? 0);
  const max = Math.min(tableMax, props.balance);
  const [buyIn, setBuyIn] = useState(Math.max(min, Math.min(max, min * 2 || max)));
  const ok = Number.isInteger(buyIn) && buyIn >= min && buyIn <= max;
  const free = tableMax === 0; // a game for points alone: no buy-in
  const poor = !free && max < min;
  const why = poor || ok ? "" : !Number.isInteger(buyIn) ? "The buy-in is a whole number of chips." : buyIn < min ? `The buy-in is at least ${min}.` : buyIn > props.balance ? `Your balance is ${props.balance}.` : `The buy-in is at most ${tableMax}.`;
  return (
    <form
      class="join-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await props.c.ask("join", free ? { table: props.t.id } : { table: props.t.id, buy_in: buyIn });
        if (r) {
          props.done();
          props.c.go({ name: "table", id: props.t.id });
        }
      }}
    >
      {free ? (
        <span>Played for points: no buy-in.</span>
      ) : poor ? (
        <p class="notice error" role="alert">
          Your balance, {props.balance}, is below this table's minimum buy-in of {min}.
        </p>
      ) : (
        <>
          <label>
            Buy-in ({min} to {max})
            <input type="number" aria-label="buy-in" min={min} max={max} value={buyIn} onInput={(e) => setBuyIn(Number((e.target as HTMLInputElement).value))} />
          </label>
          <input type="range" aria-label="buy-in slider" min={min} max={max} value={buyIn} onInput={(e) => setBuyIn(Number((e.target as HTMLInputElement).value))} />
        </>
      )}
      {!poor && (
        <button type="submit" class="primary" disabled={!free && !ok}>
          Sit down
        </button>
      )}
      <button type="button" onClick={props.done}>
        Cancel
      </button>
      {why && (
        <p class="why" role="alert">
          {why}
        </p>
      )}
    </form>
  );
}

// The player's seat is in a hand (a deal, a game) that has not ended: no top-up is offered.
function playing(view: TableView): boolean {
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  if (!me?.inHand) return false;
  if (view.hand) return view.lastEnd?.hand !== view.hand.number;
  if (view.chinese) return view.chinese.end === null;
  if (view.leap) return view.leap.end === null;
  return false;
}

function SeatControls(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  // A spectator may sit down where a seat is free (after a restart, at the table they sat at).
  const [joining, setJoining] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // The table's creator may close it.
  const [closing, setClosing] = useState(false);
  const st = c.store.get();
  const host = st.account !== null && st.lobby.get(view.id)?.["creator"] === st.account.name && !view.closed;
  const leave = () => void c.leaveTable(view.id).then(() => c.go({ name: "lobby" }));
  const free = view.seats.some((s) => s === null);
  const max = Number(view.config["max_buy_in"] ?? 0);
  const room = Math.max(0, Math.min(max - (me?.stack ?? 0), props.balance));
  const [amount, setAmount] = useState(room);
  useEffect(() => setAmount(room), [room]);
  return (
    <div class="seat-controls">
      {/* Leaving in a hand folds it (the server plays the seat's turns): ask first. */}
      <button type="button" onClick={() => (me && playing(view) ? setLeaving(true) : leave())}>
        {me ? "Leave table" : "Stop watching"}
      </button>
      {leaving && (
        <Confirm
          question="Leave during the hand? Your hand will be folded, and your stack goes back to your balance."
          yes="Leave and fold"
          no="Stay"
          onYes={() => {
            setLeaving(false);
            leave();
          }}
          onNo={() => setLeaving(false)}
        />
      )}
      {host && (
        <button type="button" onClick={() => setClosing(true)}>
          Close table
        </button>
      )}
      {host && closing && (
        <Confirm
          question={`Close table ${view.id}? Nobody can sit down any more; a hand being played is played out, then everyone is cashed out.`}
          yes="Close the table"
          no="Keep it open"
          onYes={() => {
            setClosing(false);
            void c.ask("close_table", { table: view.id }).then((r) => r && c.notify("info", r.at_once ? `Table ${view.id} is closed.` : `Table ${view.id} closes once this hand ends.`));
          }}
          onNo={() => setClosing(false)}
        />
      )}
      {!me && free && !view.closed && !joining && (
        <button type="button" class="primary" onClick={() => setJoining(true)}>
          Sit down
        </button>
      )}
      {!me && joining && <JoinForm c={c} t={{ ...view.config, id: view.id } as LobbyLine} balance={props.balance} done={() => setJoining(false)} />}
      {me && (
        <button type="button" onClick={() => void c.ask(me.sittingOut ? "sit_in" : "sit_out", { table: view.id })}>
          {me.sittingOut ? "Sit back in" : "Sit out"}
        </button>
      )}
      {me && room > 0 && !playing(view) && (
        <form
          class="top-up"
          onSubmit={(e) => {
            e.preventDefault();
            void c.ask("top_up", { table: view.id, amount }).then((r) => r && c.notify("info", `Topped up to ${r.stack}`));
          }}
        >
          <input type="number" aria-label="top-up amount" min={1} max={room} value={amount} onInput={(e) => setAmount(Number((e.target as HTMLInputElement).value))} />
          <button type="submit">Top up</button>
        </form>
      )}
    </div>
  );
}

// The fairness check's result, at the end of a hand, a deal or a game.
export function FairnessLine(props: { verdict: Verdict | null }) {
  const v = props.verdict;
  if (!v) return null;
  return (
    <div class={`fairness ${v.ok ? "ok" : "bad"}`} title={v.problems.join("; ")}>
      {v.ok ? `Deal verified ✓ (${v.opened} cards checked)` : `Deal NOT verified: ${v.problems[0]}`}
    </div>
  );
}

// Below every table: the seat's own controls, the chat and the last lines of the log.
// What happened at the table, newest last, kept scrolled to the newest line.
function Log(props: { lines: string[]; noun: string }) {
  // The box scrolls, never the page (scrollIntoView would pull a phone's page down to the log).
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [props.lines.length, props.lines.at(-1)]);
  return (
    <section class="log" aria-label={`${props.noun} log`}>
      <h3>{props.noun === "hand" ? "Hand log" : props.noun === "deal" ? "Deal log" : "Game log"}</h3>
      <div class="lines" ref={box}>
        {props.lines.slice(-60).map((l) => (
          <div>{l}</div>
        ))}
      </div>
    </section>
  );
}

export function TableSide(props: { c: Controller; view: TableView; balance: number; noun: string }) {
  const { c, view } = props;
  return (
    <div class="table-side">
      <SeatControls c={c} view={view} balance={props.balance} />
      <Log lines={view.log} noun={props.noun} />
      <Chat c={c} view={view} />
    </div>
  );
}

// A player's net in chips, marked won or lost.
export function NetCell(props: { net: number }) {
  const n = props.net;
  return (
    <td class={n > 0 ? "won" : n < 0 ? "lost" : ""}>
      {n > 0 ? "+" : ""}
      {n}
    </td>
  );
}

// The end of a deal or a game: a line a player, their name and then each column's cell; `data`,
// the line's data attributes (what the browser tests read).
export function NetsTable(props: {
  seats: number[];
  name: (seat: number) => string;
  columns: { head: string; cell: (seat: number) => ComponentChildren }[];
  data: (seat: number) => Record<string, number | undefined>;
}) {
  return (
    <table class="nets">
      <thead>
        <tr>
          <th>Player</th>
          {props.columns.map((c) => (
            <th>{c.head}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.seats.map((seat) => (
          <tr data-seat={seat} {...props.data(seat)}>
            <td>{props.name(seat)}</td>
            {props.columns.map((c) => c.cell(seat))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
