// What every game's table screen shares: the clock's redraw, the fairness line, the side panel
// (the seat's own controls, the chat, the log), the end's table of nets and stacks, and a seat's
// name (view.ts's nameOf).
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { Verdict } from "../fairness";
import type { TableView } from "../tableview";

// The time now, drawn again four times a second while a clock runs.
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
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: "nearest" }), [props.view.chat.length]);
  return (
    <section class="chat" aria-label="chat">
      <div class="lines">
        {props.view.chat.map((l) => (
          <div>
            <b>{l.name}:</b> {l.text}
          </div>
        ))}
        <div ref={end} />
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

function SeatControls(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  const max = Number(view.config["max_buy_in"] ?? 0);
  const room = Math.max(0, Math.min(max - (me?.stack ?? 0), props.balance));
  const [amount, setAmount] = useState(room);
  useEffect(() => setAmount(room), [room]);
  return (
    <div class="seat-controls">
      <button type="button" onClick={() => void c.leaveTable(view.id).then(() => c.go({ name: "lobby" }))}>
        {me ? "Leave table" : "Stop watching"}
      </button>
      {me && (
        <button type="button" onClick={() => void c.ask(me.sittingOut ? "sit_in" : "sit_out", { table: view.id })}>
          {me.sittingOut ? "Sit back in" : "Sit out"}
        </button>
      )}
      {me && room > 0 && (
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
export function TableSide(props: { c: Controller; view: TableView; balance: number; noun: string }) {
  const { c, view } = props;
  return (
    <div class="table-side">
      <SeatControls c={c} view={view} balance={props.balance} />
      <Chat c={c} view={view} />
      <section class="log" aria-label={`${props.noun} log`}>
        {view.log.slice(-8).map((l) => (
          <div>{l}</div>
        ))}
      </section>
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
