// The lobby: every table, live, with a filter; a form that creates a table of any game with every
// option create_table takes; joining with a buy-in inside the table's limits and the balance.
import { useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { LobbyLine } from "../gen/protocol";
import { stakesText } from "./poker";
import { JoinForm } from "./shared";

// The stakes of a table of any game, as its players name them.
export function stakesOf(t: Record<string, unknown>): string {
  if (t["game"] === "leap") {
    const perPoint = Number(t["chips_per_point"] ?? 0);
    return perPoint ? `${perPoint} a point` : "for points";
  }
  if (t["game"] === "chinese") return `${Number(t["unit"] ?? 1)} a unit`;
  return stakesText(t["stakes"] as Record<string, number> | undefined, t["structure"]);
}

// The buy-in range, or "none" for a game played for points alone.
function buyInOf(t: LobbyLine): string {
  const max = Number(t["max_buy_in"] ?? 0);
  return max === 0 ? "none" : `${String(t["min_buy_in"] ?? "")}–${max}`;
}

// The fields of create_table for each game (docs/protocol.md): choices, switches and numbers. A
// number left empty takes the server's default; switches start at the server's defaults.
interface GameForm {
  choices: [key: string, label: string, options: string[]][];
  switches: [key: string, label: string, on: boolean][];
  numbers: [key: string, label: string][];
}

const kForms: Record<string, GameForm> = {
  poker: {
    choices: [
      ["variant", "Variant", ["holdem", "draw", "stud", "straight", "mexican", "shrinking"]],
      ["structure", "Structure", ["no-limit", "pot-limit", "fixed-limit"]],
      ["ranking", "Ranking", ["standard", "vertical"]],
      ["wild", "Wild cards", ["none", "joker", "bug", "deuces", "one-eyes"]],
      ["open_pair", "A pair showing on 4th street", ["big_bet", "choice", "off"]],
      ["big_bet_from", "The big bet from", ["fifth", "seventh"]],
      ["draws", "Draws", ["4", "3", "2", "1"]],
    ],
    switches: [],
    numbers: [
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
      ["showdown_delay_ms", "Pause after a showdown (ms)"],
      ["runout_ms", "Pause between an all-in's streets (ms)"],
      ["sit_out_after", "Missed hands before sitting out"],
    ],
  },
  chinese: {
    choices: [["profile", "Profile", ["classic", "basic", "extras-a", "extras-b", "asian", "asian-colour", "banker", "scoop"]]],
    switches: [
      ["chip_limit", "Chip limit (nobody loses more than their stack)", true],
      ["hints", "Hints", true],
      ["strict_order", "Strict row order (no ties between rows)", false],
      ["short_kickers_lowest", "A front's missing kickers rank lowest", false],
      ["aces", "Aces side bet", false],
      ["banker", "Dealer is the bank", false],
      ["surrender", "Surrender (scoop profile)", false],
    ],
    numbers: [
      ["seats", "Seats (2 to 4)"],
      ["unit", "Chips a unit"],
      ["rake", "Rake a player a deal"],
      ["min_buy_in", "Min buy-in"],
      ["max_buy_in", "Max buy-in"],
      ["decision_ms", "Clock to set the rows (ms)"],
      ["hand_delay_ms", "Pause between deals (ms)"],
      ["sit_out_after", "Missed deals before sitting out"],
    ],
  },
  leap: {
    choices: [
      ["ranks", "Ranks", ["13", "11", "7", "5", "12", "17"]],
      ["suits", "Meld suits", ["same_suit", "same_colour", "any"]],
      ["leap_rule", "Leap rule", ["leaptokens", "distinct"]],
    ],
    switches: [],
    numbers: [
      ["seats", "Seats (2 to 6; under leaptokens, at most one a leap)"],
      ["packs", "Packs (0: by players)"],
      ["jokers", "Jokers a pack"],
      ["hand_size", "Hand size"],
      ["chips_per_point", "Chips a point (0: points only)"],
      ["min_buy_in", "Min buy-in"],
      ["max_buy_in", "Max buy-in"],
      ["turn_ms", "Clock a turn (ms)"],
      ["time_bank_ms", "Time bank (ms)"],
      ["retire_after", "Time-outs before retiring"],
      ["hand_delay_ms", "Pause between games (ms)"],
      ["sit_out_after", "Missed games before sitting out"],
    ],
  },
};

function defaults(game: string): Record<string, string | boolean> {
  const f = kForms[game]!;
  return Object.fromEntries([...f.choices.map(([k, , o]) => [k, o[0]!]), ...f.switches.map(([k, , on]) => [k, on])]);
}

// A choice that only some tables have: the open pair and the street of the big bet are rules of
// fixed-limit stud and Mexican stud, the number of draws shrinking draw's (the server refuses
// them elsewhere).
function applies(key: string, values: Record<string, string | boolean>): boolean {
  if (key === "draws") return values["variant"] === "shrinking";
  if (key !== "open_pair" && key !== "big_bet_from") return true;
  return values["structure"] === "fixed-limit" && (values["variant"] === "stud" || values["variant"] === "mexican");
}

function CreateForm(props: { c: Controller; done: () => void }) {
  const [game, setGame] = useState("poker");
  const [values, setValues] = useState<Record<string, string | boolean>>(defaults("poker"));
  const form = kForms[game]!;
  const set = (key: string, value: string | boolean) => setValues({ ...values, [key]: value });
  return (
    <form
      class="create-form"
      aria-label="create a table"
      onSubmit={async (e) => {
        e.preventDefault();
        const body: Record<string, unknown> = { game };
        for (const [k, v] of Object.entries(values)) {
          if (!applies(k, values)) continue;
          if (typeof v === "boolean") body[k] = v;
          else if (form.choices.some(([key]) => key === k)) body[k] = /^\d+$/.test(v) ? Number(v) : v;
          else if (v.trim() !== "") body[k] = Number(v);
        }
        const r = await props.c.ask("create_table", body as never);
        if (r) {
          props.done();
          props.c.notify("info", `Table ${r.table} is open`);
        }
      }}
    >
      <label>
        Game
        <select
          name="game"
          value={game}
          onChange={(e) => {
            const g = (e.target as HTMLSelectElement).value;
            setGame(g);
            setValues(defaults(g));
          }}
        >
          <option value="poker">Poker</option>
          <option value="chinese">Chinese poker</option>
          <option value="leap">Leap rummy</option>
        </select>
      </label>
      {form.choices.filter(([k]) => applies(k, values)).map(([k, label, options]) => (
        <label>
          {label}
          <select name={k} value={String(values[k])} onChange={(e) => set(k, (e.target as HTMLSelectElement).value)}>
            {options.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
      ))}
      {form.switches.map(([k, label]) => (
        <label class="switch">
          <input type="checkbox" name={k} checked={values[k] === true} onChange={(e) => set(k, (e.target as HTMLInputElement).checked)} />
          {label}
        </label>
      ))}
      {form.numbers.map(([k, label]) => (
        <label>
          {label}
          <input type="number" name={k} min={0} placeholder="default" value={String(values[k] ?? "")} onInput={(e) => set(k, (e.target as HTMLInputElement).value)} />
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
            <th>Host</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <>
              <tr data-table={t.id}>
                <td>{t.id}</td>
                <td>{t.game === "poker" ? String(t["variant"]) : t.game === "chinese" ? "chinese poker" : "leap rummy"}</td>
                <td>{String(t["structure"] ?? t["profile"] ?? t["leap_rule"] ?? "")}</td>
                <td>{stakesOf(t)}</td>
                <td>{buyInOf(t)}</td>
                <td data-taken={t.taken}>
                  {t.taken}/{t.seats}
                </td>
                <td>{t.watching}</td>
                <td class="creator">{typeof t["creator"] === "string" ? t["creator"] : ""}</td>
                <td class="row-buttons">
                  <button type="button" onClick={() => props.c.go({ name: "table", id: t.id })}>
                    Watch
                  </button>
                  <button type="button" class="primary" disabled={t.taken >= t.seats} onClick={() => setJoining(joining === t.id ? null : t.id)}>
                    Join
                  </button>
                </td>
              </tr>
              {joining === t.id && (
                <tr>
                  <td colSpan={9}>
                    <JoinForm c={props.c} t={t} balance={props.balance} done={() => setJoining(null)} />
                  </td>
                </tr>
              )}
            </>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={9} class="empty">
                {props.lobby.size ? "No table matches the filter." : "No tables yet: create one."}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
