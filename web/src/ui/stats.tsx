// A player's statistics page (docs/stats.md): the figures hand trackers give, over the hands the
// filters select, a profit graph split into showdown and non-showdown winnings with the all-in
// EV line, and for tournaments the results. Everything comes from the `stats` request, which
// adds up rows counted at each hand's end.
import { useEffect, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { ChineseStats, HandSearchReply, HandSearchRequest, LeapStats, Stats, StatsReply, StatsRequest, StatsTally } from "../gen/protocol";
import { ReplayButton } from "./history";
import { kVariants } from "./lobby";

type Filter = Omit<StatsRequest, "type" | "id">;
type Day = StatsReply["days"][number];

const kProfiles = ["classic", "basic", "extras-a", "extras-b", "asian", "asian-colour", "banker", "scoop"];
const kPositions: [string, string][] = [
  ["big_blind", "big blind"],
  ["small_blind", "small blind"],
  ["button", "button"],
  ["cutoff", "cutoff"],
  ["2", "2 before the button"],
  ["3", "3 before the button"],
  ["4", "4 before the button"],
];

// Each poker statistic with its label and what it is, in the order trackers show them.
const kPokerStats: [keyof Stats, string, string][] = [
  ["vpip", "VPIP", "put money in voluntarily before the flop"],
  ["pfr", "PFR", "raised before the flop"],
  ["three_bet", "3-bet", "re-raised facing one raise"],
  ["fold_to_three_bet", "Fold to 3-bet", "the first raiser folded to a re-raise"],
  ["four_bet", "4-bet", "the first raiser raised again"],
  ["steal", "Steal", "open-raised from the cutoff, button or small blind"],
  ["fold_to_steal", "Fold to steal", "a blind folded to a steal"],
  ["cbet_flop", "C-bet flop", "the last preflop raiser bet the flop first"],
  ["cbet_turn", "C-bet turn", ""],
  ["cbet_river", "C-bet river", ""],
  ["fold_to_cbet_flop", "Fold to c-bet flop", ""],
  ["fold_to_cbet_turn", "Fold to c-bet turn", ""],
  ["fold_to_cbet_river", "Fold to c-bet river", ""],
  ["check_raise", "Check-raise", "checked, then raised a bet (every street)"],
  ["afq", "AFq", "bet or raised on a street seen, after the flop"],
  ["wtsd", "WTSD", "went to showdown, having seen the flop"],
  ["wsd", "W$SD", "won at showdown"],
  ["wwsf", "WWSF", "won anything, having seen the flop"],
];

function percent(t: StatsTally | undefined): string {
  if (!t || t.opportunities === 0) return "–";
  return `${((100 * t.times) / t.opportunities).toFixed(1)} %`;
}

function TallyRow(props: { label: string; tip: string; t: StatsTally | undefined; ratio?: boolean }) {
  const { t } = props;
  if (!t) return null;
  const value = props.ratio ? (t.opportunities ? (t.times / t.opportunities).toFixed(2) : "–") : percent(t);
  return (
    <tr title={props.tip}>
      <th scope="row">{props.label}</th>
      <td class="value">{value}</td>
      <td class="count">
        {t.times} / {t.opportunities}
      </td>
    </tr>
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

// The running totals of the days, hands along the bottom: the net, its showdown and non-showdown
// parts, and the all-in EV line.
export function ProfitGraph(props: { days: Day[]; ev: boolean }) {
  const { days } = props;
  if (days.length === 0) return null;
  let last = { hands: 0, net: 0, sd: 0, ev: 0 };
  const pts = [last];
  for (const d of days) {
    last = { hands: last.hands + d.hands, net: last.net + d.net, sd: last.sd + d.showdown_net, ev: last.ev + d.ev_net };
    pts.push(last);
  }
  const lines: [string, string, (p: (typeof pts)[number]) => number][] = [
    ["net", "net won", (p) => p.net],
    ["showdown", "at showdown", (p) => p.sd],
    ["non-showdown", "without showdown", (p) => p.net - p.sd],
  ];
  if (props.ev) lines.push(["ev", "all-in EV", (p) => p.ev]);
  const values = pts.flatMap((p) => lines.map(([, , f]) => f(p)));
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  const w = 640, h = 220, left = 60, bottom = 34, top = 10, right = 12;
  const pw = w - left - right, ph = h - top - bottom, span = hi - lo || 1;
  const total = last.hands || 1;
  const x = (n: number) => left + (n / total) * pw;
  const y = (v: number) => top + ph - ((v - lo) / span) * ph;
  return (
    <figure class="chart profit">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`profit over ${last.hands} hands: ${last.net}`}>
        <line x1={left} x2={left} y1={top} y2={top + ph} class="axis" />
        <line x1={left} x2={left + pw} y1={top + ph} y2={top + ph} class="axis" />
        <line x1={left} x2={left + pw} y1={y(0)} y2={y(0)} class="zero" />
        {[hi, 0, lo]
          .filter((v, i, a) => a.indexOf(v) === i)
          .map((v) => (
            <text x={left - 6} y={y(v) + 4} text-anchor="end" class="tick">
              {Math.round(v)}
            </text>
          ))}
        <text x={left} y={h - 16} text-anchor="middle" class="tick">
          0
        </text>
        <text x={left + pw} y={h - 16} text-anchor="end" class="tick">
          {last.hands}
        </text>
        <text x={left + pw / 2} y={h - 4} text-anchor="middle" class="axis-label">
          hands, day by day
        </text>
        {lines.map(([cls, , f]) => (
          <polyline class={`line ${cls}`} points={pts.map((p) => `${x(p.hands)},${y(f(p))}`).join(" ")} />
        ))}
      </svg>
      <figcaption>
        {lines.map(([cls, label, f]) => (
          <span class={`key ${cls}`}>
            <i /> {label} {signed(Math.round(f(last) * 100) / 100)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function PokerFigures(props: { s: Stats }) {
  const { s } = props;
  return (
    <>
      <p class="summary">
        <b>{s.hands}</b> hands, net <b class={s.net > 0 ? "won" : s.net < 0 ? "lost" : ""}>{signed(s.net)}</b>,{" "}
        <b>{s.bb_per_100.toFixed(2)}</b> bb/100 (± {s.bb_per_100_margin.toFixed(2)} at 95 %); at showdown {signed(s.showdown_net)}, without {signed(s.non_showdown_net)}; all-in EV {signed(s.ev_net)}; rake {s.rake}
      </p>
      <table class="stats" aria-label="statistics">
        <tbody>
          {kPokerStats.map(([key, label, tip]) => (
            <TallyRow label={label} tip={tip} t={s[key] as StatsTally | undefined} />
          ))}
          <TallyRow label="AF" tip="bets and raises over calls, after the flop" t={s.af} ratio />
        </tbody>
      </table>
    </>
  );
}

function ChineseFigures(props: { s: ChineseStats }) {
  const { s } = props;
  return (
    <>
      <p class="summary">
        <b>{s.hands}</b> deals, net <b class={s.net > 0 ? "won" : s.net < 0 ? "lost" : ""}>{signed(s.net)}</b>, {signed(s.units)} units ({s.units_per_deal.toFixed(2)} a deal); rake {s.rake}
      </p>
      <table class="stats" aria-label="statistics">
        <tbody>
          <TallyRow label="Scoops" tip="opponents beaten on all three rows" t={s.scoops} />
          <TallyRow label="Specials" tip="special hands declared" t={s.specials} />
          <TallyRow label="Surrenders" tip="deals surrendered (the scoop profile)" t={s.surrenders} />
        </tbody>
      </table>
    </>
  );
}

function LeapFigures(props: { s: LeapStats }) {
  const { s } = props;
  return (
    <>
      <p class="summary">
        <b>{s.hands}</b> games, net <b class={s.net > 0 ? "won" : s.net < 0 ? "lost" : ""}>{signed(s.net)}</b>; average score {s.average_score.toFixed(2)}, {s.melds_per_game.toFixed(2)} melds a game
      </p>
      <table class="stats" aria-label="statistics">
        <tbody>
          <TallyRow label="Wins" tip="the highest score (ties: each)" t={s.wins} />
        </tbody>
      </table>
    </>
  );
}

function Tournaments(props: { t: NonNullable<StatsReply["tournaments"]> }) {
  const { t } = props;
  return (
    <table class="stats" aria-label="tournament results">
      <tbody>
        <tr>
          <th scope="row">Entries</th>
          <td class="value">{t.entries}</td>
          <td class="count" />
        </tr>
        <tr>
          <th scope="row">In the money</th>
          <td class="value">{t.entries ? `${(100 * t.itm).toFixed(1)} %` : "–"}</td>
          <td class="count">
            {t.cashes} / {t.entries}
          </td>
        </tr>
        <tr>
          <th scope="row">ROI</th>
          <td class="value">{t.paid ? `${(100 * t.roi).toFixed(1)} %` : "–"}</td>
          <td class="count">
            won {t.won} for {t.paid}
          </td>
        </tr>
        <tr>
          <th scope="row">Average place</th>
          <td class="value">{t.entries ? t.average_place.toFixed(2) : "–"}</td>
          <td class="count" />
        </tr>
      </tbody>
    </table>
  );
}

function Select(props: { label: string; value: string; options: [string, string][]; set: (v: string) => void }) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.set((e.target as HTMLSelectElement).value)}>
        {props.options.map(([v, text]) => (
          <option value={v}>{text}</option>
        ))}
      </select>
    </label>
  );
}

type Search = Omit<HandSearchRequest, "type" | "id">;
type Hit = HandSearchReply["hands"][number];

function positionName(p: number): string {
  return p === -2 ? "big blind" : p === -1 ? "small blind" : p === 0 ? "button" : p === 1 ? "cutoff" : `${p} before the button`;
}

// Search over one's poker hands: each hit opens in the replayer.
function FindHands(props: { c: Controller }) {
  const { c } = props;
  const [search, setSearch] = useState<Search>({});
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const run = async (before?: number) => {
    const r = await c.ask("hand_search", before ? { ...search, before } : search);
    if (!r) return;
    setHits((h) => (before && h ? [...h, ...r.hands] : r.hands));
    setNext(r.next);
  };
  const set = (key: keyof Search, value: string | number | boolean | undefined) =>
    setSearch((f) => {
      const next: Search = { ...f, [key]: value };
      if (value === "" || value === undefined) delete next[key];
      return next;
    });
  const yesNo = (key: "showdown" | "all_in") => (v: string) => set(key, v === "" ? undefined : v === "yes");
  return (
    <section class="find-hands">
      <h3>Find hands</h3>
      <form
        class="filters"
        aria-label="find hands"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label>
          Hand
          <input type="text" size={8} placeholder="AKs, QQ, pairs" value={search.hand ?? ""} onInput={(e) => set("hand", (e.target as HTMLInputElement).value.trim())} />
        </label>
        <Select label="Position" value={search.position === undefined ? "" : String(search.position)} options={[["", "any"], ...kPositions]} set={(v) => set("position", v === "" ? undefined : /^\d$/.test(v) ? Number(v) : v)} />
        <Select label="Result" value={search.result ?? ""} options={[["", "any"], ["won", "won"], ["lost", "lost"]]} set={(v) => set("result", v)} />
        <label>
          Pot at least
          <input type="number" min={0} value={search.min_pot ?? ""} placeholder="any" onInput={(e) => set("min_pot", (e.target as HTMLInputElement).value ? Number((e.target as HTMLInputElement).value) : undefined)} />
        </label>
        <Select label="Showdown" value={search.showdown === undefined ? "" : search.showdown ? "yes" : "no"} options={[["", "any"], ["yes", "yes"], ["no", "no"]]} set={yesNo("showdown")} />
        <Select label="All in" value={search.all_in === undefined ? "" : search.all_in ? "yes" : "no"} options={[["", "any"], ["yes", "yes"], ["no", "no"]]} set={yesNo("all_in")} />
        <label>
          Table
          <input type="number" min={1} value={search.table ?? ""} placeholder="any" onInput={(e) => set("table", (e.target as HTMLInputElement).value ? Number((e.target as HTMLInputElement).value) : undefined)} />
        </label>
        <label>
          From
          <input type="date" value={search.from ?? ""} onChange={(e) => set("from", (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          To
          <input type="date" value={search.to ?? ""} onChange={(e) => set("to", (e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Find</button>
      </form>
      {hits && (
        <table class="hands" aria-label="hands found">
          <thead>
            <tr>
              <th>Hand</th>
              <th>Cards</th>
              <th>Position</th>
              <th>Pot</th>
              <th>Result</th>
              <th>Date</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {hits.map((h) => (
              <tr data-hand={h.hand}>
                <td>
                  table {h.table}, hand {h.number}
                </td>
                <td>{h.hole ?? "–"}</td>
                <td>{positionName(h.position)}</td>
                <td>{h.pot}</td>
                <td class={h.net > 0 ? "won" : h.net < 0 ? "lost" : ""}>
                  {signed(h.net)}
                  {h.showdown ? ", showdown" : ""}
                  {h.all_in ? ", all in" : ""}
                </td>
                <td>{new Date(h.ended_at).toLocaleString()}</td>
                <td>
                  <ReplayButton c={c} hand={h.hand} />
                </td>
              </tr>
            ))}
            {hits.length === 0 && (
              <tr>
                <td colSpan={7} class="empty">
                  No hand matches.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {next !== null && (
        <button type="button" onClick={() => void run(next)}>
          More hands
        </button>
      )}
    </section>
  );
}

export function StatsPage(props: { c: Controller }) {
  const { c } = props;
  const [filter, setFilter] = useState<Filter>({});
  const [reply, setReply] = useState<StatsReply | null>(null);
  useEffect(() => {
    let live = true;
    void c.ask("stats", filter).then((r) => live && r && setReply(r));
    return () => {
      live = false;
    };
  }, [JSON.stringify(filter)]);
  const set = (key: keyof Filter, value: string | number | undefined) =>
    setFilter((f) => {
      const next: Filter = { ...f, [key]: value };
      if (value === "" || value === undefined) delete next[key];
      if (key === "game") delete next.variant; // each game names its own
      return next;
    });
  const game = filter.game ?? "poker";
  const variants: [string, string][] = [["", "any"], ...(game === "poker" ? kVariants : game === "chinese" ? kProfiles : []).map((v): [string, string] => [v, v])];
  const s = reply?.stats;
  return (
    <div class="stats-page">
      <h2>My statistics</h2>
      <form class="filters" aria-label="filters" onSubmit={(e) => e.preventDefault()}>
        <Select label="Game" value={game} options={[["poker", "poker"], ["chinese", "Chinese poker"], ["leap", "leap rummy"]]} set={(v) => set("game", v === "poker" ? undefined : v)} />
        {game !== "leap" && <Select label={game === "chinese" ? "Profile" : "Variant"} value={filter.variant ?? ""} options={variants} set={(v) => set("variant", v)} />}
        {game === "poker" && (
          <>
            <Select label="Structure" value={filter.structure ?? ""} options={[["", "any"], ["no-limit", "no-limit"], ["pot-limit", "pot-limit"], ["fixed-limit", "fixed-limit"]]} set={(v) => set("structure", v)} />
            <Select label="Position" value={filter.position === undefined ? "" : String(filter.position)} options={[["", "any"], ...kPositions]} set={(v) => set("position", v === "" ? undefined : /^\d$/.test(v) ? Number(v) : v)} />
          </>
        )}
        <label>
          {game === "poker" ? "Big blind" : game === "chinese" ? "Unit" : "Chips a point"}
          <input type="number" min={1} value={filter.stakes ?? ""} placeholder="any" onChange={(e) => set("stakes", (e.target as HTMLInputElement).value ? Number((e.target as HTMLInputElement).value) : undefined)} />
        </label>
        <Select label="Players" value={filter.table_size === undefined ? "" : String(filter.table_size)} options={[["", "any"], ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n): [string, string] => [String(n), String(n)])]} set={(v) => set("table_size", v ? Number(v) : undefined)} />
        <label>
          From
          <input type="date" value={filter.from ?? ""} onChange={(e) => set("from", (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          To
          <input type="date" value={filter.to ?? ""} onChange={(e) => set("to", (e.target as HTMLInputElement).value)} />
        </label>
        {game === "poker" && <Select label="Kind" value={filter.kind ?? "cash"} options={[["cash", "cash"], ["tournament", "tournament"]]} set={(v) => set("kind", v === "cash" ? undefined : v)} />}
      </form>
      {!reply || !s ? (
        <p class="empty">Counting…</p>
      ) : (
        <>
          {reply.filter.game === "chinese" ? <ChineseFigures s={s as ChineseStats} /> : reply.filter.game === "leap" ? <LeapFigures s={s as LeapStats} /> : <PokerFigures s={s as Stats} />}
          {s.hands === 0 ? <p class="empty">No hands in this selection.</p> : <ProfitGraph days={reply.days} ev={reply.filter.game === "poker"} />}
          {reply.tournaments && (
            <>
              <h3>Tournament results</h3>
              <Tournaments t={reply.tournaments} />
              <p class="note">
                Each tournament's place and prize:{" "}
                <a href="#/history" onClick={(e) => (e.preventDefault(), c.go({ name: "history" }))}>
                  History
                </a>
                .
              </p>
            </>
          )}
        </>
      )}
      <FindHands c={c} />
    </div>
  );
}
