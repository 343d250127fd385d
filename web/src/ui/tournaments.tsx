// Tournaments: their lobby beside the tables (registering, running, finished) with a form that
// creates one; a tournament's page with its structure, payouts, entrants and live standings; and
// the bar a tournament's table shows above the felt (the level, the clock, the player's place and
// the average stack).
import { useEffect, useState } from "preact/hooks";
import { RequestError } from "../connection";
import type { Controller } from "../controller";
import { kVariants } from "./lobby";
import type { TournamentLine } from "../gen/protocol";
import { breakInMs, clockWords, dealWords, levelWords, ordinal, purchases, standingOf, standingsOrder, type DealInfo, type LevelInfo, type Standing } from "../tournament";

type View = Record<string, unknown>;

// A tournament's state, asked again every `everyMs` while shown.
function useTournament(c: Controller, id: number, everyMs: number): [View | null, () => void] {
  const [view, setView] = useState<View | null>(null);
  const load = () =>
    void c.conn
      .request("tournament", { tournament: id })
      .then((r) => setView(r.tournament as View))
      .catch(() => {});
  useEffect(() => {
    load();
    const t = setInterval(load, everyMs);
    return () => clearInterval(t);
  }, [id]);
  return [view, load];
}

// The game, or a mixed tournament's mix ("HORSE, by level"; "mixed games, every 8 hands").
const gameWords = (t: TournamentLine) => {
  if (!t.games) return `${t.structure} ${t.variant}`;
  const mix = t.games === "horse" ? "HORSE" : t.games === "8-game" ? "8-game" : "mixed games";
  return `${mix}, ${t.rotate_hands ? `every ${t.rotate_hands} hands` : "by level"}`;
};

function startWords(t: TournamentLine): string {
  if (t.format === "sit-and-go") return `when ${t.max_entrants} have registered`;
  const at = Number(t["start_at"] ?? 0);
  return at ? new Date(at * 1000).toLocaleString() : "";
}

async function enter(c: Controller, id: number, register: boolean, then?: () => void): Promise<void> {
  const r = await c.ask(register ? "tournament_register" : "tournament_unregister", { tournament: id });
  if (!r) return;
  c.notify("info", register ? `You are registered for tournament ${id}.` : `You are no longer registered for tournament ${id}: your entry is back.`);
  void c.loadTournaments();
  then?.();
}

// The entry period's options in words: "late registration to level 4, 1 re-entry, rebuys for 4
// levels, add-on 3000"; "" for none.
function entryWords(t: TournamentLine): string {
  const parts: string[] = [];
  if (t.late_registration_levels) parts.push(`late registration to level ${t.late_registration_levels}`);
  if (t.reentries) parts.push(`${t.reentries} re-entr${t.reentries === 1 ? "y" : "ies"}`);
  if (t.rebuy_levels) parts.push(`rebuys for ${t.rebuy_levels} level${t.rebuy_levels === 1 ? "" : "s"}`);
  if (t.add_on_stack) parts.push(`add-on ${t.add_on_stack}`);
  return parts.join(", ");
}

const kPurchases = {
  register: ["tournament_register", "Register late", "You are in: your table and seat follow."],
  reenter: ["tournament_reenter", "Re-enter", "You are in again with a new stack."],
  rebuy: ["tournament_rebuy", "Rebuy", "Your rebuy is in."],
  addOn: ["tournament_add_on", "Take the add-on", "Your add-on is in."],
} as const;

// The entry period's buttons for what the player may buy now, each with its price.
function EntryButtons(props: { c: Controller; id: number; name: string; view: View; then?: () => void }) {
  const may = purchases(props.view, props.name);
  const config = (props.view["config"] as Record<string, number> | undefined) ?? {};
  const buyIn = config["buy_in"] ?? 0;
  const fee = config["fee"] ?? 0;
  const chips = { register: config["starting_stack"], reenter: config["starting_stack"], rebuy: config["rebuy_stack"], addOn: config["add_on_stack"] };
  const shown = (Object.keys(kPurchases) as (keyof typeof kPurchases)[]).filter((k) => may[k]);
  if (shown.length === 0) return null;
  return (
    <span class="entry-buttons" role="group" aria-label="entry period">
      {shown.map((k) => {
        const [type, label, done] = kPurchases[k];
        const price = buyIn + (k === "register" || k === "reenter" ? fee : 0);
        return (
          <button
            type="button"
            class="primary"
            onClick={async () => {
              const r = await props.c.ask(type, { tournament: props.id });
              if (!r) return;
              props.c.notify("info", `Tournament ${props.id}: ${done}`);
              props.then?.();
            }}
          >
            {label} ({chips[k] ?? 0} chips for {price})
          </button>
        );
      })}
    </span>
  );
}

// The fields of create_tournament the form offers (docs/tournaments.md has them all).
function CreateTournament(props: { c: Controller; done: () => void }) {
  const [v, setV] = useState<Record<string, string>>({
    format: "sit-and-go",
    games: "one game",
    rotate_hands: "",
    preset: "turbo",
    variant: "holdem",
    structure: "no-limit",
    seats: "6",
    buy_in: "100",
    fee: "0",
    guarantee: "",
    starting_stack: "",
    max_entrants: "100",
    min_entrants: "2",
    start_in_min: "5",
    late_registration_levels: "",
    reentries: "",
    rebuy_levels: "",
    rebuy_stack: "",
    add_on_stack: "",
  });
  const [refused, setRefused] = useState<string | null>(null);
  const set = (k: string, x: string) => {
    setRefused(null);
    setV({ ...v, [k]: x });
  };
  const multi = v["format"] === "multi-table";
  const numbers: [string, string][] = [
    ["seats", multi ? "Seats a table" : "Players (seats)"],
    ["buy_in", "Buy-in"],
    ["fee", "Fee (to you)"],
    ["guarantee", "Guaranteed pool (from your chips; empty: none)"],
    ["starting_stack", "Starting stack (empty: the preset's)"],
    ...(multi
      ? ([
          ["max_entrants", "Most entrants"],
          ["min_entrants", "Fewest entrants"],
          ["start_in_min", "Starts in (minutes)"],
          ["late_registration_levels", "Late registration, levels (empty: none)"],
          ["reentries", "Re-entries each (empty: none)"],
        ] as [string, string][])
      : []),
    ["rebuy_levels", "Rebuys, levels (empty: none)"],
    ["rebuy_stack", "Rebuy chips (empty: the starting stack)"],
    ["add_on_stack", "Add-on chips (empty: none)"],
    ...(v["games"] !== "one game" ? ([["rotate_hands", "A new game every N hands (empty: each level)"]] as [string, string][]) : []),
  ];
  const bad = numbers.find(([k]) => v[k] !== "" && !/^\d+$/.test(v[k] ?? ""));
  return (
    <form
      class="create-form"
      aria-label="create a tournament"
      onSubmit={async (e) => {
        e.preventDefault();
        if (bad) return;
        const mixed = v["games"] !== "one game";
        const body: Record<string, unknown> = mixed
          ? { format: v["format"], preset: v["preset"], games: v["games"] }
          : { format: v["format"], preset: v["preset"], variant: v["variant"], structure: v["structure"] };
        for (const [k] of numbers) {
          if (v[k] === "") continue;
          if (k === "start_in_min") body["start_in_s"] = Number(v[k]) * 60;
          else body[k] = Number(v[k]);
        }
        try {
          const r = await props.c.conn.request("create_tournament", body as never);
          props.done();
          props.c.notify("info", `Tournament ${r.tournament} is open for registration`);
          void props.c.loadTournaments();
        } catch (err) {
          setRefused(err instanceof RequestError ? `${err.field ? `${err.field}: ` : ""}${err.message}` : String(err));
        }
      }}
    >
      {(
        [
          ["format", "Format", ["sit-and-go", "multi-table"]],
          ["preset", "Structure preset", ["turbo", "regular", "multi-table"]],
          ["games", "Games", ["one game", "horse", "8-game"]],
          ["variant", "Variant", kVariants],
          ["structure", "Betting", ["no-limit", "pot-limit", "fixed-limit"]],
        ] as [string, string, string[]][]
      )
        // A mix names its games: no variant or structure of its own.
        .filter(([k]) => v["games"] === "one game" || (k !== "variant" && k !== "structure"))
        .map(([k, label, options]) => (
        <label>
          {label}
          <select name={k} value={v[k]} onChange={(e) => set(k, (e.target as HTMLSelectElement).value)}>
            {options.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
      ))}
      {numbers.map(([k, label]) => (
        <label class={bad?.[0] === k ? "bad" : ""}>
          {label}
          <input type="text" inputMode="numeric" name={k} value={v[k]} onInput={(e) => set(k, (e.target as HTMLInputElement).value)} />
        </label>
      ))}
      {(bad || refused) && (
        <div class="why" role="alert">
          {bad && <p>{bad[1]}: a whole number.</p>}
          {refused && <p>{refused}</p>}
        </div>
      )}
      <div class="buttons">
        <button type="submit" class="primary" disabled={!!bad}>
          Create tournament
        </button>
        <button type="button" onClick={props.done}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// The lobby of tournaments, below the tables.
export function TournamentLobby(props: { c: Controller; tournaments: Map<number, TournamentLine> }) {
  const { c } = props;
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    void c.loadTournaments();
    const t = setInterval(() => void c.loadTournaments(), 5000);
    return () => clearInterval(t);
  }, [c]);
  const rows = [...props.tournaments.values()].sort((a, b) => b.tournament - a.tournament);
  return (
    <div class="lobby tournaments-lobby">
      <div class="lobby-head">
        <h2>Tournaments</h2>
        <button type="button" class="primary" onClick={() => setCreating(!creating)}>
          New tournament
        </button>
      </div>
      {creating && <CreateTournament c={c} done={() => setCreating(false)} />}
      <table class="tables" aria-label="tournaments">
        <thead>
          <tr>
            <th>#</th>
            <th>Format</th>
            <th>Game</th>
            <th>Buy-in</th>
            <th>Entrants</th>
            <th>Starts</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr data-tournament={t.tournament}>
              <td>{t.tournament}</td>
              <td>{t.format}</td>
              <td>{gameWords(t)}</td>
              <td>
                {t.buy_in}
                {t.fee ? ` + ${t.fee}` : ""}
                {t.guarantee ? `, ${t.guarantee} guaranteed` : ""}
                {entryWords(t) ? `; ${entryWords(t)}` : ""}
              </td>
              <td>
                {t.entrants}/{t.max_entrants}
              </td>
              <td>{t.status === "registering" ? startWords(t) : ""}</td>
              <td class="status">{t.status === "running" && t["remaining"] !== undefined ? `running, ${String(t["remaining"])} left` : t.status}</td>
              <td class="row-buttons">
                <button type="button" onClick={() => c.go({ name: "tournament", id: t.tournament })}>
                  View
                </button>
                {t.status === "registering" && (
                  <button type="button" class="primary" disabled={t.entrants >= t.max_entrants} onClick={() => void enter(c, t.tournament, true)}>
                    Register
                  </button>
                )}
                {(t.status === "running" || t.status === "break") && t.late_registration_levels !== undefined && (
                  <button type="button" onClick={() => c.go({ name: "tournament", id: t.tournament })}>
                    Late registration
                  </button>
                )}
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                No tournaments yet: create one.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

// A tournament's page.
export function TournamentPage(props: { c: Controller; id: number; name: string }) {
  const { c, id } = props;
  const [view, load] = useTournament(c, id, 3000);
  if (!view) return <p class="connecting">Opening tournament {id}…</p>;
  const t = view as unknown as TournamentLine;
  const standings = (view["standings"] as Standing[] | undefined) ?? [];
  const me = standings.filter((s) => s.name === props.name).pop(); // a re-entry: the last entry
  const prizes = (view["prizes"] as number[] | undefined) ?? [];
  const config = (view["config"] as Record<string, unknown> | undefined) ?? {};
  const levels = (config["levels"] as LevelInfo[] | undefined) ?? [];
  const level = view["level"] as LevelInfo | undefined;
  return (
    <div class="tournament-page">
      <h2>
        Tournament {id} <span class="sub">{`${t.format}, ${gameWords(t)}, buy-in ${t.buy_in}${t.fee ? ` + ${t.fee}` : ""}${t.guarantee ? `, ${t.guarantee} guaranteed` : ""}${entryWords(t) ? `; ${entryWords(t)}` : ""}`}</span>
      </h2>
      <p class="tournament-status" aria-label="status">
        {t.status === "registering"
          ? `Registering: ${t.entrants} of ${t.max_entrants}; starts ${startWords(t)}.`
          : t.status === "cancelled"
            ? "Cancelled: every entry was refunded."
            : t.status === "finished"
              ? "Finished."
              : `${t.status === "break" ? "On a break" : "Running"}: ${String(view["remaining"] ?? "")} of ${t.entrants} left${level ? `; level ${level.level}, ${levelWords(level)}` : ""}.`}
      </p>
      <div class="buttons">
        {t.status === "registering" && !me && (
          <button type="button" class="primary" onClick={() => void enter(c, id, true, load)}>
            Register ({t.buy_in + t.fee} chips)
          </button>
        )}
        {t.status === "registering" && me && (
          <button type="button" onClick={() => void enter(c, id, false, load)}>
            Unregister
          </button>
        )}
        <EntryButtons c={c} id={id} name={props.name} view={view} then={load} />
        {me?.table !== undefined && me.place === null && (
          <button type="button" class="primary" onClick={() => c.go({ name: "table", id: me.table! })}>
            Go to my table ({me.table})
          </button>
        )}
      </div>
      <div class="tournament-columns">
        <section aria-label="standings">
          <h3>{t.status === "registering" ? "Entrants" : "Standings"}</h3>
          <table class="tables standings">
            <thead>
              <tr>
                <th>Place</th>
                <th>Player</th>
                <th>Chips</th>
                <th>Table</th>
                <th>Prize</th>
              </tr>
            </thead>
            <tbody>
              {standingsOrder(standings).map((s) => (
                <tr class={s.name === props.name ? "me" : ""}>
                  <td>{s.place !== null ? `${ordinal(s.place)}${s.tied ? " (tied)" : ""}` : ""}</td>
                  <td>{s.name}</td>
                  <td>{s.stack ?? ""}</td>
                  <td>{s.table ?? ""}</td>
                  <td>{s.prize || ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-label="payouts">
          <h3>Payouts</h3>
          <ol class="payouts">
            {prizes.map((p) => (
              <li>{p}</li>
            ))}
          </ol>
        </section>
        <section aria-label="structure">
          <h3>Structure</h3>
          <ol class="levels">
            {levels.map((l) => {
              const b = (l as Record<string, number>)["break_minutes"];
              return b !== undefined ? (
                <li class="break">Break, {b} minutes</li>
              ) : (
                <li>
                  {levelWords(l)}, {l.hands ? `${l.hands} hands` : `${l.minutes} minutes`}
                </li>
              );
            })}
          </ol>
        </section>
      </div>
    </div>
  );
}

// The deal on the table of tournament `id`, as the pushes left it (the store's).
function useDeal(c: Controller, id: number): DealInfo | undefined {
  const [deal, setDeal] = useState(c.store.get().deals.get(id) as DealInfo | undefined);
  useEffect(() => c.store.subscribe(() => setDeal(c.store.get().deals.get(id) as DealInfo | undefined)), [id]);
  return deal;
}

async function answerDeal(c: Controller, id: number, action: "propose" | "accept" | "decline", method?: "icm" | "chips"): Promise<void> {
  const r = await c.ask("tournament_deal", { tournament: id, action, ...(method ? { method } : {}) });
  if (r && action !== "decline") c.store.update((s) => ({ deals: new Map(s.deals).set(id, r.deal as never) }));
}

// A deal: who proposed it, its terms (each player's stack and prize, ✓ once they accepted), the
// time left to agree, and Accept and Decline for a player who has not answered.
function DealOffer(props: { c: Controller; id: number; name: string; deal: DealInfo }) {
  const d = props.deal;
  const [shown] = useState(() => Date.now());
  // Accepted once the terms are shown; declined at any time (no terms are needed to say no).
  const answered = d.accepted.includes(props.name);
  const mine = !answered && d.terms?.some((t) => t.name === props.name);
  const mayDecline = !answered && (d.terms ? mine : true);
  const left = d.ms_left !== undefined ? Math.max(0, d.ms_left - (Date.now() - shown)) : undefined;
  return (
    <div class="deal-offer" role="region" aria-label="deal">
      <p>{dealWords(d)}</p>
      {d.terms && (
        <table>
          <thead>
            <tr>
              <th>Player</th>
              <th>Chips</th>
              <th>Prize</th>
              <th>Agreed</th>
            </tr>
          </thead>
          <tbody>
            {d.terms.map((t) => (
              <tr key={t.name} class={t.name === props.name ? "me" : ""}>
                <td>{t.name}</td>
                <td>{t.stack}</td>
                <td>{t.prize}</td>
                <td>{d.accepted.includes(t.name) ? "✓" : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {left !== undefined && <span>{clockWords(left)} left to agree</span>}
      {mayDecline && (
        <span class="deal-answer">
          {mine && <button onClick={() => void answerDeal(props.c, props.id, "accept")}>Accept the deal</button>}
          <button onClick={() => void answerDeal(props.c, props.id, "decline")}>Decline</button>
        </span>
      )}
    </div>
  );
}

// Above a tournament table's felt: the level and its stakes, the time to the next level and the
// next break (or the hands left), the player's place by chips among those still in, and the
// average stack.
export function TournamentBar(props: { c: Controller; id: number; name: string }) {
  const [view] = useTournament(props.c, props.id, 5000);
  const deal = useDeal(props.c, props.id);
  // A deal on the table before the page was opened: the view has it.
  const [seeded, setSeeded] = useState(false);
  useEffect(() => {
    if (!view || seeded) return;
    setSeeded(true);
    const d = view["deal"] as DealInfo | undefined;
    if (d && !props.c.store.get().deals.has(props.id)) props.c.store.update((s) => ({ deals: new Map(s.deals).set(props.id, d as never) }));
  }, [view]);
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((x) => x + 1), 1000);
    return () => clearInterval(t);
  }, []);
  const [asked] = useState(() => Date.now());
  if (!view) return null;
  const level = view["level"] as LevelInfo | undefined;
  const levelMs = view["level_ms_left"] as number | undefined;
  const config = (view["config"] as Record<string, unknown> | undefined) ?? {};
  const standing = standingOf((view["standings"] as Standing[] | undefined) ?? [], props.name);
  const left = levelMs !== undefined ? Math.max(0, levelMs - (Date.now() - asked)) : undefined;
  const breakIn = level?.level && left !== undefined ? breakInMs((config["levels"] as unknown[]) ?? [], level.level, left) : null;
  return (
    <div class="tournament-bar" aria-label="tournament">
      <a href={`#/tournament/${props.id}`}>Tournament {props.id}</a>
      {view["status"] === "break" && <span>On a break</span>}
      {view["hand_for_hand"] !== undefined && <span class="level">Hand-for-hand on the bubble</span>}
      {level && (
        <span class="level">
          Level {level.level}: {levelWords(level)}
        </span>
      )}
      {left !== undefined && <span>next level in {clockWords(left)}</span>}
      {view["hands_left"] !== undefined && <span>next level in {String(view["hands_left"])} hands</span>}
      {breakIn !== null && <span>break in {clockWords(breakIn)}</span>}
      {standing && (
        <span class="place">
          You are {ordinal(standing.rank)} of {standing.of} in chips
        </span>
      )}
      {view["average_stack"] !== undefined && <span>average stack {String(view["average_stack"])}</span>}
      <EntryButtons c={props.c} id={props.id} name={props.name} view={view} />
      {!deal && standing && standing.of >= 2 && standing.of <= 10 && (
        <span class="deal-propose">
          Propose a deal:
          <button onClick={() => void answerDeal(props.c, props.id, "propose", "icm")}>by ICM</button>
          <button onClick={() => void answerDeal(props.c, props.id, "propose", "chips")}>by chip count</button>
        </span>
      )}
      {deal && <DealOffer c={props.c} id={props.id} name={props.name} deal={deal} />}
    </div>
  );
}
