// The lobby: every table, live, with a filter; a form that creates a poker table with every
// option create_table takes; joining with a buy-in inside the table's limits and the balance.
import { useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { LobbyLine } from "../gen/protocol";
import { stakesText } from "./table";

function stakesOf(t: LobbyLine): string {
  return stakesText(t["stakes"] as Record<string, number> | undefined);
}

function JoinForm(props: { c: Controller; t: LobbyLine; balance: number; done: () => void }) {
  const min = Number(props.t["min_buy_in"] ?? 0);
  const max = Math.min(Number(props.t["max_buy_in"] ?? 0), props.balance);
  const [buyIn, setBuyIn] = useState(Math.max(min, Math.min(max, min * 2 || max)));
  const ok = buyIn >= min && buyIn <= max;
  return (
    <form
      class="join-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await props.c.ask("join", { table: props.t.id, buy_in: buyIn });
        if (r) {
          props.done();
          props.c.go({ name: "table", id: props.t.id });
        }
      }}
    >
      <label>
        Buy-in ({min} to {max})
        <input type="number" aria-label="buy-in" min={min} max={max} value={buyIn} onInput={(e) => setBuyIn(Number((e.target as HTMLInputElement).value))} />
      </label>
      <input type="range" aria-label="buy-in slider" min={min} max={max} value={buyIn} onInput={(e) => setBuyIn(Number((e.target as HTMLInputElement).value))} />
      <button type="submit" class="primary" disabled={!ok}>
        Sit down
      </button>
      <button type="button" onClick={props.done}>
        Cancel
      </button>
      {max < min && <p class="notice error">Your balance is below this table's minimum buy-in.</p>}
    </form>
  );
}

// Fields of create_table for poker (docs/protocol.md); empty fields take the server's defaults.
const kNumberFields: [string, string][] = [
  ["seats", "Seats"],
  ["small_blind", "Small blind"],
  ["big_blind", "Big blind"],
  ["ante", "Ante"],
  ["bring_in", "Bring-in"],
  ["small_bet", "Small bet"],
  ["big_bet", "Big bet"],
  ["min_buy_in", "Min buy-in"],
  ["max_buy_in", "Max buy-in"],
  ["decision_ms", "Clock (ms)"],
  ["time_bank_ms", "Time bank (ms)"],
  ["hand_delay_ms", "Pause between hands (ms)"],
  ["sit_out_after", "Missed hands before sitting out"],
];

function CreateForm(props: { c: Controller; done: () => void }) {
  const [choice, setChoice] = useState({ variant: "holdem", structure: "no-limit", ranking: "standard", wild: "none" });
  const [numbers, setNumbers] = useState<Record<string, string>>({});
  const select = (key: keyof typeof choice, label: string, options: string[]) => (
    <label>
      {label}
      <select name={key} value={choice[key]} onChange={(e) => setChoice({ ...choice, [key]: (e.target as HTMLSelectElement).value })}>
        {options.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
    </label>
  );
  return (
    <form
      class="create-form"
      aria-label="create a table"
      onSubmit={async (e) => {
        e.preventDefault();
        const body: Record<string, unknown> = { game: "poker", ...choice };
        for (const [k, v] of Object.entries(numbers)) if (v.trim() !== "") body[k] = Number(v);
        const r = await props.c.ask("create_table", body as never);
        if (r) {
          props.done();
          props.c.notify("info", `Table ${r.table} is open`);
        }
      }}
    >
      {select("variant", "Variant", ["holdem", "draw", "stud", "straight", "mexican", "shrinking"])}
      {select("structure", "Structure", ["no-limit", "pot-limit", "fixed-limit"])}
      {select("ranking", "Ranking", ["standard", "vertical"])}
      {select("wild", "Wild cards", ["none", "joker", "bug", "deuces", "one-eyes"])}
      {kNumberFields.map(([k, label]) => (
        <label>
          {label}
          <input type="number" name={k} min={0} placeholder="default" value={numbers[k] ?? ""} onInput={(e) => setNumbers({ ...numbers, [k]: (e.target as HTMLInputElement).value })} />
        </label>
      ))}
      <div class="buttons">
        <button type="submit" class="primary">
          Create table
        </button>
        <button type="button" onClick={props.done}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function Lobby(props: { c: Controller; lobby: Map<number, LobbyLine>; balance: number }) {
  const [filter, setFilter] = useState("");
  const [joining, setJoining] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const rows = [...props.lobby.values()]
    .filter((t) => {
      const text = `${t.game} ${t["variant"] ?? ""} ${t["structure"] ?? ""} ${stakesOf(t)}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => a.id - b.id);
  return (
    <div class="lobby">
      <div class="lobby-head">
        <h2>Tables</h2>
        <input type="search" aria-label="filter tables" placeholder="Filter: holdem no-limit…" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        <button type="button" class="primary" onClick={() => setCreating(!creating)}>
          New table
        </button>
      </div>
      {creating && <CreateForm c={props.c} done={() => setCreating(false)} />}
      <table class="tables" aria-label="open tables">
        <thead>
          <tr>
            <th>#</th>
            <th>Game</th>
            <th>Structure</th>
            <th>Stakes</th>
            <th>Buy-in</th>
            <th>Seats</th>
            <th>Watching</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <>
              <tr data-table={t.id}>
                <td>{t.id}</td>
                <td>{t.game === "poker" ? String(t["variant"]) : t.game}</td>
                <td>{String(t["structure"] ?? "")}</td>
                <td>{stakesOf(t)}</td>
                <td>
                  {String(t["min_buy_in"] ?? "")}–{String(t["max_buy_in"] ?? "")}
                </td>
                <td data-taken={t.taken}>
                  {t.taken}/{t.seats}
                </td>
                <td>{t.watching}</td>
                <td class="row-buttons">
                  <button type="button" onClick={() => props.c.go({ name: "table", id: t.id })}>
                    Watch
                  </button>
                  {t.game === "poker" && (
                    <button type="button" class="primary" disabled={t.taken >= t.seats} onClick={() => setJoining(joining === t.id ? null : t.id)}>
                      Join
                    </button>
                  )}
                </td>
              </tr>
              {joining === t.id && (
                <tr>
                  <td colSpan={8}>
                    <JoinForm c={props.c} t={t} balance={props.balance} done={() => setJoining(null)} />
                  </td>
                </tr>
              )}
            </>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                {props.lobby.size ? "No table matches the filter." : "No tables yet: create one."}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
