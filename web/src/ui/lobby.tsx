// The lobby: every table, live, with a filter; a form that creates a table of any game with every
// option create_table takes; joining with a buy-in inside the table's limits and the balance.
import { useState } from "preact/hooks";
import { RequestError } from "../connection";
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
  if (t["game"] === "open-face") return `${Number(t["unit"] ?? 1)} a point`;
  return stakesText(t["stakes"] as Record<string, number> | undefined, t["structure"]);
}

// The buy-in range, or "none" for a game played for points alone.
function buyInOf(t: LobbyLine): string {
  const max = Number(t["max_buy_in"] ?? 0);
  return max === 0 ? "none" : `${String(t["min_buy_in"] ?? "")}–${max}`;
}

// The fields of create_table for each game (docs/protocol.md): choices, switches and numbers.
// Each number shows its default as its value (from the other values where it depends on them),
// applies only where the game, variant and structure have it, and is judged in words before
// anything is sent. Times are in seconds here and in ms on the wire. Only the numbers the player
// changed are sent: the rest are the server's defaults, which these mirror.
type Values = Record<string, string | boolean>;

interface NumberField {
  key: string;
  label: string;
  def?: (v: Values) => number; // none: the server works it out ("auto")
  min: number;
  max: number;
  seconds?: boolean; // the key ends in _ms; the form shows and takes seconds
  applies?: (v: Values) => boolean;
}

interface GameForm {
  choices: [key: string, label: string, options: string[]][];
  switches: [key: string, label: string, on: boolean][];
  numbers: NumberField[];
}

// Every betting game, the six of the rules and the mixed games.
export const kVariants = ["holdem", "draw", "stud", "straight", "mexican", "shrinking", "omaha", "omaha-hilo", "razz", "stud-hilo", "deuce-single-draw", "deuce-triple-draw", "badugi", "short-deck"];
// The mixed games play their own ranking, without wild cards.
const kOwnRanking = ["omaha", "omaha-hilo", "razz", "stud-hilo", "deuce-single-draw", "deuce-triple-draw", "badugi", "short-deck"];
const stud = (v: Values) => ["stud", "mexican", "razz", "stud-hilo"].includes(String(v["variant"]));
const fixed = (v: Values) => v["structure"] === "fixed-limit";
const kChips = 1_000_000_000;
const kBuyIns = 1_000_000_000_000;
// A number as the form holds it, as the wire has it: what the player typed (seconds made ms),
// else the default.
const num = (v: Values, f: NumberField): number => {
  const typed = v[f.key];
  if (typeof typed !== "string" || typed.trim() === "") return f.def?.(v) ?? NaN;
  return f.seconds ? Math.round(Number(typed) * 1000) : Number(typed);
};
const pokerStake = (key: string, v: Values): number => num(v, kPokerNumbers.find((f) => f.key === key)!);
// What a buy-in is counted in: the big bet at fixed limit and stud, else the big blind.
const buyInUnit = (v: Values) => (stud(v) || fixed(v) ? pokerStake("big_bet", v) : pokerStake("big_blind", v));

const kPokerNumbers: NumberField[] = [
  { key: "seats", label: "Seats", def: () => 6, min: 2, max: 9 },
  { key: "small_blind", label: "Small blind", def: () => 1, min: 0, max: kChips, applies: (v) => !stud(v) },
  { key: "big_blind", label: "Big blind", def: () => 2, min: 0, max: kChips, applies: (v) => !stud(v) },
  { key: "ante", label: "Ante", def: (v) => (stud(v) ? 1 : 0), min: 0, max: kChips },
  { key: "bring_in", label: "Bring-in", def: () => 2, min: 0, max: kChips, applies: stud },
  { key: "small_bet", label: "Small bet", def: (v) => (stud(v) ? 4 : 2), min: 1, max: kChips, applies: (v) => fixed(v) || stud(v) },
  { key: "big_bet", label: "Big bet", def: (v) => (stud(v) ? 8 : 4), min: 1, max: kChips, applies: (v) => fixed(v) || stud(v) },
  { key: "min_buy_in", label: "Least buy-in", def: (v) => 40 * buyInUnit(v), min: 1, max: kBuyIns },
  { key: "max_buy_in", label: "Most buy-in", def: (v) => 200 * buyInUnit(v), min: 1, max: kBuyIns },
  { key: "decision_ms", label: "Time to act", def: () => 30_000, min: 100, max: 3_600_000, seconds: true },
  { key: "time_bank_ms", label: "Time bank", def: () => 0, min: 0, max: 3_600_000, seconds: true },
  { key: "hand_delay_ms", label: "Pause between hands", def: () => 1000, min: 0, max: 60_000, seconds: true },
  { key: "showdown_delay_ms", label: "Pause after a showdown", def: (v) => Math.min(60_000, 4 * num(v, kPokerNumbers.find((f) => f.key === "hand_delay_ms")!)), min: 0, max: 60_000, seconds: true },
  { key: "runout_ms", label: "Pause between an all-in's streets", def: (v) => Math.min(10_000, num(v, kPokerNumbers.find((f) => f.key === "hand_delay_ms")!)), min: 0, max: 10_000, seconds: true },
  { key: "sit_out_after", label: "Missed hands before sitting out", def: () => 3, min: 1, max: 1000 },
];

// The server's bots a table asks for (docs/bots.md): how many, how well.
function kBotChoices(most: number): GameForm["choices"] {
  return [
    ["bots", "Bots", ["none", ...Array.from({ length: most }, (_, i) => String(i + 1))]],
    ["bot_level", "Bots play", ["fair", "easy", "strong"]],
  ];
}

const kForms: Record<string, GameForm> = {
  poker: {
    choices: [
      ["variant", "Variant", kVariants],
      ["structure", "Structure", ["no-limit", "pot-limit", "fixed-limit"]],
      ["hole_cards", "Hole cards", ["4", "5", "6"]],
      ["ranking", "Ranking", ["standard", "vertical"]],
      ["wild", "Wild cards", ["none", "joker", "bug", "deuces", "one-eyes"]],
      ["open_pair", "A pair showing on 4th street", ["big_bet", "choice", "off"]],
      ["big_bet_from", "The big bet from", ["fifth", "seventh"]],
      ["draws", "Draws", ["4", "3", "2", "1"]],
      ...kBotChoices(8),
    ],
    switches: [["trips_beat_straight", "Three of a kind beats a straight", false]],
    numbers: kPokerNumbers,
  },
  chinese: {
    choices: [["profile", "Profile", ["classic", "basic", "extras-a", "extras-b", "asian", "asian-colour", "banker", "scoop"]], ...kBotChoices(3)],
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
      { key: "seats", label: "Seats (2 to 4)", def: () => 4, min: 2, max: 4 },
      { key: "unit", label: "Chips a unit", def: () => 1, min: 1, max: 1_000_000 },
      { key: "rake", label: "Rake a player a deal", def: () => 0, min: 0, max: 1_000_000 },
      { key: "min_buy_in", label: "Least buy-in", min: 1, max: kBuyIns },
      { key: "max_buy_in", label: "Most buy-in", min: 1, max: kBuyIns },
      { key: "decision_ms", label: "Time to set the rows", def: () => 60_000, min: 100, max: 3_600_000, seconds: true },
      { key: "hand_delay_ms", label: "Pause between deals", def: () => 1000, min: 0, max: 60_000, seconds: true },
      { key: "sit_out_after", label: "Missed deals before sitting out", def: () => 3, min: 1, max: 1000 },
    ],
  },
  "open-face": {
    choices: [["variant", "Variant", ["pineapple", "classic"]], ["stay", "Staying in Fantasyland", ["standard", "strict"]], ...kBotChoices(3)],
    switches: [
      ["progressive", "Progressive Fantasyland (14 to 17 cards)", false],
      ["chip_limit", "Chip limit (nobody loses more than their stack)", true],
      ["hints", "Hints", true],
    ],
    numbers: [
      { key: "seats", label: "Seats (Pineapple 2 to 3, classic 2 to 4)", def: (v) => (v["variant"] === "classic" ? 4 : 3), min: 2, max: 4 },
      { key: "unit", label: "Chips a point", def: () => 1, min: 1, max: 1_000_000 },
      { key: "rake", label: "Rake a player a hand", def: () => 0, min: 0, max: 1_000_000 },
      { key: "min_buy_in", label: "Least buy-in", min: 1, max: kBuyIns },
      { key: "max_buy_in", label: "Most buy-in", min: 1, max: kBuyIns },
      { key: "decision_ms", label: "Time to place a street", def: () => 30_000, min: 100, max: 3_600_000, seconds: true },
      { key: "hand_delay_ms", label: "Pause between hands", def: () => 1000, min: 0, max: 60_000, seconds: true },
      { key: "sit_out_after", label: "Missed hands before sitting out", def: () => 3, min: 1, max: 1000 },
    ],
  },
  leap: {
    choices: [
      ["ranks", "Ranks", ["13", "11", "7", "5", "12", "17"]],
      ["suits", "Meld suits", ["same_suit", "same_colour", "any"]],
      ["leap_rule", "Leap rule", ["leaptokens", "distinct"]],
      ...kBotChoices(5),
    ],
    switches: [],
    numbers: [
      { key: "seats", label: "Seats (2 to 6; under leaptokens, at most one a leap)", min: 2, max: 6 },
      { key: "packs", label: "Packs (0: by players)", def: () => 0, min: 0, max: 4 },
      { key: "jokers", label: "Jokers a pack", def: () => 0, min: 0, max: 8 },
      { key: "hand_size", label: "Hand size", def: () => 5, min: 1, max: 20 },
      { key: "chips_per_point", label: "Chips a point (0: points only)", def: () => 0, min: 0, max: 1_000_000 },
      { key: "min_buy_in", label: "Least buy-in", def: (v) => 100 * num(v, { key: "chips_per_point", label: "", def: () => 0, min: 0, max: 0 }), min: 1, max: kBuyIns, applies: (v) => Number(v["chips_per_point"] || 0) > 0 },
      { key: "max_buy_in", label: "Most buy-in", def: (v) => 1000 * num(v, { key: "chips_per_point", label: "", def: () => 0, min: 0, max: 0 }), min: 1, max: kBuyIns, applies: (v) => Number(v["chips_per_point"] || 0) > 0 },
      { key: "turn_ms", label: "Time for a turn", def: () => 30_000, min: 100, max: 3_600_000, seconds: true },
      { key: "time_bank_ms", label: "Time bank", def: () => 0, min: 0, max: 3_600_000, seconds: true },
      { key: "retire_after", label: "Time-outs before retiring", def: () => 3, min: 1, max: 100 },
      { key: "hand_delay_ms", label: "Pause between games", def: () => 1000, min: 0, max: 60_000, seconds: true },
      { key: "sit_out_after", label: "Missed games before sitting out", def: () => 3, min: 1, max: 1000 },
    ],
  },
};

function defaults(game: string): Values {
  const f = kForms[game]!;
  return Object.fromEntries([...f.choices.map(([k, , o]) => [k, o[0]!]), ...f.switches.map(([k, , on]) => [k, on])]);
}

// A choice or number that only some tables have: the open pair and the street of the big bet are
// rules of fixed-limit stud and Mexican stud, the number of draws shrinking draw's, each stake
// its structure's (the server refuses them elsewhere).
function applies(game: string, key: string, values: Values): boolean {
  const field = kForms[game]!.numbers.find((f) => f.key === key);
  if (field) return field.applies?.(values) ?? true;
  if (key === "draws") return values["variant"] === "shrinking";
  if (key === "hole_cards") return values["variant"] === "omaha" || values["variant"] === "omaha-hilo";
  if (key === "trips_beat_straight") return values["variant"] === "short-deck";
  if (key === "bot_level") return values["bots"] !== undefined && values["bots"] !== "none";
  if (key === "ranking" || key === "wild") return !kOwnRanking.includes(String(values["variant"]));
  if (key !== "open_pair" && key !== "big_bet_from") return true;
  return fixed(values) && (values["variant"] === "stud" || values["variant"] === "mexican");
}

// Seconds as people write them: "30 s", "1.5 s", "1 hour".
function secondsText(ms: number): string {
  return ms === 3_600_000 ? "1 hour" : `${ms / 1000} s`;
}

// The field's name for the form (times take seconds), and what is wrong with what was typed.
const fieldName = (f: NumberField) => (f.seconds ? f.key.replace(/_ms$/, "_s") : f.key);
export function fieldProblem(f: NumberField, typed: string): string | null {
  const t = typed.trim();
  if (t === "") return null; // the default
  const n = Number(t);
  if (f.seconds) {
    if (!Number.isFinite(n) || !/^\d+(\.\d+)?$/.test(t)) return `${f.label}: a number of seconds, such as 30 or 1.5.`;
    const ms = Math.round(n * 1000);
    if (ms < f.min || ms > f.max) return `${f.label} must be ${secondsText(f.min)} to ${secondsText(f.max)}.`;
    return null;
  }
  if (!/^\d+$/.test(t)) return `${f.label}: a whole number.`;
  if (n < f.min || n > f.max) return `${f.label} must be ${f.min} to ${f.max.toLocaleString("en")}.`;
  return null;
}

// A table's bots, as create_table takes them: {"seats": N, "level": L}, or none.
function botsOf(body: Record<string, unknown>): void {
  const seats = body["bots"];
  const level = body["bot_level"] ?? "fair";
  delete body["bots"];
  delete body["bot_level"];
  if (typeof seats === "number") body["bots"] = { seats, level };
}

function CreateForm(props: { c: Controller; balance: number; done: () => void }) {
  const [game, setGame] = useState("poker");
  const [values, setValues] = useState<Values>(defaults("poker"));
  // The server's refusal, with the field it names.
  const [refused, setRefused] = useState<{ field: string; text: string } | null>(null);
  const form = kForms[game]!;
  const set = (key: string, value: string | boolean) => setValues({ ...values, [key]: value });
  const numbers = form.numbers.filter((f) => applies(game, f.key, values));
  const problems = numbers.flatMap((f) => {
    const p = typeof values[f.key] === "string" ? fieldProblem(f, values[f.key] as string) : null;
    return p ? [{ key: f.key, text: p }] : [];
  });
  return (
    <form
      class="create-form"
      aria-label="create a table"
      onSubmit={async (e) => {
        e.preventDefault();
        if (problems.length) return;
        const body: Record<string, unknown> = { game };
        for (const [k, v] of Object.entries(values)) {
          if (!applies(game, k, values)) continue;
          const field = form.numbers.find((f) => f.key === k);
          if (typeof v === "boolean") body[k] = v;
          else if (!field) body[k] = /^\d+$/.test(v) ? Number(v) : v;
          else if (v.trim() !== "") body[k] = field.seconds ? Math.round(Number(v) * 1000) : Number(v);
        }
        botsOf(body);
        try {
          const r = await props.c.conn.request("create_table", body as never);
          props.done();
          props.c.notify("info", `Table ${r.table} is open`);
          // A table with bots: the host sits down against them at once (they sit when a person
          // does), with twice the least buy-in where the balance allows.
          if (body["bots"] !== undefined) {
            const config = r.config as Record<string, unknown>;
            const min = Number(config["min_buy_in"] ?? 0);
            const max = Math.min(Number(config["max_buy_in"] ?? 0), props.balance);
            if (max >= min && (await props.c.ask("join", { table: r.table, buy_in: Math.min(max, 2 * min) }))) props.c.go({ name: "table", id: r.table });
          }
        } catch (err) {
          const field = err instanceof RequestError ? (err.field ?? "") : "";
          const label = form.numbers.find((f) => f.key === field)?.label;
          setRefused({ field, text: `${label ? `${label}: ` : ""}${err instanceof Error ? err.message : String(err)}` });
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
            setRefused(null);
          }}
        >
          <option value="poker">Poker</option>
          <option value="chinese">Chinese poker</option>
          <option value="open-face">Open-face Chinese poker</option>
          <option value="leap">Leap rummy</option>
        </select>
      </label>
      {form.choices.filter(([k]) => applies(game, k, values)).map(([k, label, options]) => (
        <label>
          {label}
          <select name={k} value={String(values[k])} onChange={(e) => set(k, (e.target as HTMLSelectElement).value)}>
            {options.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
      ))}
      {form.switches.filter(([k]) => applies(game, k, values)).map(([k, label]) => (
        <label class="switch">
          <input type="checkbox" name={k} checked={values[k] === true} onChange={(e) => set(k, (e.target as HTMLInputElement).checked)} />
          {label}
        </label>
      ))}
      {numbers.map((f) => {
        const typed = values[f.key];
        const def = f.def?.(values);
        const shown = typeof typed === "string" ? typed : def === undefined || Number.isNaN(def) ? "" : String(f.seconds ? def / 1000 : def);
        const bad = problems.some((p) => p.key === f.key) || refused?.field === f.key;
        return (
          <label class={bad ? "bad" : ""}>
            {f.label}
            {f.seconds ? " (s)" : ""}
            <input
              type="text"
              inputMode="decimal"
              name={fieldName(f)}
              placeholder={def === undefined ? "auto" : ""}
              aria-invalid={bad}
              value={shown}
              onInput={(e) => {
                setRefused(null);
                set(f.key, (e.target as HTMLInputElement).value);
              }}
            />
          </label>
        );
      })}
      {(problems.length > 0 || refused) && (
        <div class="why" role="alert">
          {problems.map((p) => (
            <p>{p.text}</p>
          ))}
          {refused && <p>{refused.text}</p>}
        </div>
      )}
      <div class="buttons">
        <button type="submit" class="primary" disabled={problems.length > 0}>
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
      {creating && <CreateForm c={props.c} balance={props.balance} done={() => setCreating(false)} />}
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
                <td>{t.game === "poker" ? String(t["variant"]) : t.game === "chinese" ? "chinese poker" : t.game === "open-face" ? `open-face ${String(t["variant"])}` : "leap rummy"}</td>
                <td>{String(t["structure"] ?? t["profile"] ?? t["leap_rule"] ?? "")}</td>
                <td>{t["tournament"] === undefined ? stakesOf(t) : "by level"}</td>
                <td>{t["tournament"] === undefined ? buyInOf(t) : "—"}</td>
                <td data-taken={t.taken}>
                  {t.taken}/{t.seats}
                </td>
                <td>{t.watching}</td>
                <td class="creator">{typeof t["creator"] === "string" ? t["creator"] : ""}</td>
                <td class="row-buttons">
                  <button type="button" onClick={() => props.c.go({ name: "table", id: t.id })}>
                    Watch
                  </button>
                  {t["tournament"] === undefined ? (
                    <button type="button" class="primary" disabled={t.taken >= t.seats} onClick={() => setJoining(joining === t.id ? null : t.id)}>
                      Join
                    </button>
                  ) : (
                    <button type="button" onClick={() => props.c.go({ name: "tournament", id: Number(t["tournament"]) })}>
                      Tournament {String(t["tournament"])}
                    </button>
                  )}
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
