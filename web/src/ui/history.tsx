// The history: my hands page by page with their results, my totals with a chart of my chips over
// my hands, and one hand replayed step by step on a picture of the table, with its PHH download.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { HandReply, PlayerHand, PlayerTournament, TotalsReply } from "../gen/protocol";
import type { ChineseArrangement, ChinesePairSettled, ChinesePayment } from "../gen/protocol";
import { replayViews } from "../games/poker";
import { Hand } from "./cards";
import { leapCount, leapReplay } from "../games/leap";
import { Reveal } from "./chinese";
import { OpenFaceResult } from "./openface";
import { openFaceReplay, kRows as kOfRows, type OpenFaceEndView } from "../games/openface";
import type { OpenFaceEnd } from "../gen/protocol";
import { Melds } from "./leap";
import { Results as EndResults, Seat } from "./poker";
import { ordinal } from "../tournament";

function Chart(props: { hands: PlayerHand[] }) {
  // Oldest first: the running total of nets.
  const points = useMemo(() => {
    let total = 0;
    return [0, ...[...props.hands].reverse().map((h) => (total += h.net))];
  }, [props.hands]);
  if (points.length < 3) return null; // the start and at least two hands
  const lo = Math.min(0, ...points), hi = Math.max(0, ...points);
  // The plot inside margins for the axes: chips won up the left, hands along the bottom.
  const w = 600, h = 180, left = 56, bottom = 34, top = 8, right = 10;
  const pw = w - left - right, ph = h - top - bottom, span = hi - lo || 1;
  const x = (i: number) => left + (i / (points.length - 1)) * pw;
  const y = (v: number) => top + ph - ((v - lo) / span) * ph;
  const xy = points.map((p, i) => `${x(i)},${y(p)}`);
  const n = points.length - 1;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`chips won over the last ${n} hands: ${points[n]}`}>
        <line x1={left} x2={left} y1={top} y2={top + ph} class="axis" />
        <line x1={left} x2={left + pw} y1={top + ph} y2={top + ph} class="axis" />
        <line x1={left} x2={left + pw} y1={y(0)} y2={y(0)} class="zero" />
        {[hi, 0, lo].filter((v, i, a) => a.indexOf(v) === i).map((v) => (
          <text x={left - 6} y={y(v) + 4} text-anchor="end" class="tick">
            {v}
          </text>
        ))}
        <text x={left} y={h - 16} text-anchor="middle" class="tick">
          1
        </text>
        <text x={left + pw} y={h - 16} text-anchor="end" class="tick">
          {n}
        </text>
        <text x={left + pw / 2} y={h - 4} text-anchor="middle" class="axis-label">
          hands, oldest first
        </text>
        <text x={12} y={top + ph / 2} text-anchor="middle" transform={`rotate(-90 12 ${top + ph / 2})`} class="axis-label">
          chips won
        </text>
        <polyline points={xy.join(" ")} class="line" />
      </svg>
      <figcaption>
        Chips won over these {points.length - 1} hands: {points[points.length - 1]} (from {lo} at worst to {hi} at best)
      </figcaption>
    </figure>
  );
}

// Where a hand was played, as a person says it: "no-limit holdem, table 7, hand 2", "Chinese
// poker (classic), table 3, deal 1", "leap rummy, table 4, game 2".
export function handWhere(h: PlayerHand): string {
  const what =
    h.game === "chinese"
      ? `Chinese poker${h.profile ? ` (${h.profile})` : ""}`
      : h.game === "open-face"
        ? "open-face Chinese poker"
        : h.game === "leap"
        ? "leap rummy"
        : [h.structure, h.variant].filter(Boolean).join(" ") || "poker";
  const noun = h.game === "chinese" ? "deal" : h.game === "leap" ? "game" : "hand";
  const tournament = h.tournament !== undefined ? `tournament ${h.tournament} (level ${h.level ?? "?"}), ` : "";
  return `${what}, ${tournament}table ${h.table}, ${noun} ${h.number}`;
}

// A hand's row's way into the replayer.
export function ReplayButton(props: { c: Controller; hand: number }) {
  return (
    <button type="button" onClick={() => props.c.go({ name: "hand", id: props.hand })}>
      Replay
    </button>
  );
}

export function History(props: { c: Controller; name: string }) {
  const { c } = props;
  const [hands, setHands] = useState<PlayerHand[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [totals, setTotals] = useState<TotalsReply | null>(null);
  const [tournaments, setTournaments] = useState<PlayerTournament[]>([]);
  const more = async (before?: number) => {
    const r = await c.ask("my_hands", before ? { limit: 20, before } : { limit: 20 });
    if (!r) return;
    setHands((h) => (before ? [...h, ...r.hands] : r.hands));
    setNext(r.next);
  };
  useEffect(() => {
    void more();
    void c.ask("totals", {}).then(setTotals);
    void c.ask("my_tournaments", {}).then((r) => r && setTournaments(r.tournaments));
  }, []);
  return (
    <div class="history">
      <h2>My hands</h2>
      {totals && (
        <p class="totals">
          {totals.hands} hands, net <b>{totals.net}</b>, won {totals.won}; biggest win {totals.biggest_win}, biggest loss {totals.biggest_loss}
        </p>
      )}
      <Chart hands={hands} />
      <table class="hands" aria-label="my hands">
        <thead>
          <tr>
            <th>Hand</th>
            <th>Table</th>
            <th>Date</th>
            <th>Result</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {hands.map((h) => (
            <tr data-hand={h.hand}>
              <td>{h.hand}</td>
              <td>{handWhere(h)}</td>
              <td>{h.ended_at ? new Date(h.ended_at).toLocaleString() : h.status}</td>
              <td class={h.net > 0 ? "won" : h.net < 0 ? "lost" : ""}>{h.net > 0 ? `+${h.net}` : h.net}</td>
              <td>
                <ReplayButton c={c} hand={h.hand} />
              </td>
            </tr>
          ))}
          {hands.length === 0 && (
            <tr>
              <td colSpan={5} class="empty">
                No hands yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {next !== null && (
        <button type="button" onClick={() => void more(next)}>
          Older hands
        </button>
      )}
      <h2>My tournaments</h2>
      <table class="hands" aria-label="my tournaments">
        <thead>
          <tr>
            <th>#</th>
            <th>Game</th>
            <th>Ended</th>
            <th>Place</th>
            <th>Prize</th>
            <th>Net</th>
          </tr>
        </thead>
        <tbody>
          {tournaments.map((t) => (
            <tr data-tournament={t.tournament}>
              <td>{t.tournament}</td>
              <td>{`${t.format ?? ""}, ${[t.structure, t.variant].filter(Boolean).join(" ")}`}</td>
              <td>{t.ended_at ? new Date(t.ended_at).toLocaleString() : t.status}</td>
              <td>{t.place !== null ? `${ordinal(t.place)} of ${t.entrants}${t.tied ? " (tied)" : ""}` : t.status === "cancelled" ? "cancelled" : ""}</td>
              <td>{t.prize || ""}</td>
              <td class={t.net > 0 ? "won" : t.net < 0 ? "lost" : ""}>{t.net > 0 ? `+${t.net}` : t.net}</td>
            </tr>
          ))}
          {tournaments.length === 0 && (
            <tr>
              <td colSpan={6} class="empty">
                No tournaments yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

// Each seat's stack before and after, and its net.
function Results(props: { record: HandReply }) {
  return (
    <table class="results" aria-label="result">
      <tbody>
        {props.record.seats.map((s) => (
          <tr>
            <td>{s.name}</td>
            <td>
              {s.stack_start} → {s.stack_end}
            </td>
            <td class={s.net > 0 ? "won" : s.net < 0 ? "lost" : ""}>{s.net > 0 ? `+${s.net}` : s.net}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Stepping through a replay: start, previous, play or pause (when given), next, end.
function StepControls(props: {
  step: number;
  last: number;
  setStep: (n: number) => void;
  playing?: boolean;
  setPlaying?: (on: boolean) => void;
  children?: ComponentChildren;
}) {
  const { step, last, setStep } = props;
  return (
    <div class="replay-controls" role="group" aria-label="replay">
      <button type="button" onClick={() => setStep(0)} disabled={step === 0}>
        « Start
      </button>
      <button type="button" onClick={() => setStep(Math.max(0, step - 1))} disabled={step === 0}>
        ◀ Previous
      </button>
      {props.setPlaying && (
        <button type="button" onClick={() => props.setPlaying!(!props.playing)}>
          {props.playing ? "Pause" : "▶ Play"}
        </button>
      )}
      <button type="button" onClick={() => setStep(Math.min(last, step + 1))} disabled={step >= last}>
        Next ▶
      </button>
      <button type="button" onClick={() => setStep(last)} disabled={step >= last}>
        End »
      </button>
      <span class="step" aria-live="polite">
        Step {step} of {last}
      </span>
      {props.children}
    </div>
  );
}

// The server's verdict on replaying the record through the engine.
function Verdict(props: { record: HandReply }) {
  const r = props.record.replay;
  if (!r) return null;
  return (
    <p class={`verdict ${r["matches"] ? "won" : "lost"}`}>
      {r["matches"] ? "Replayed by the server: matches the result ✓" : `Replayed by the server: does not match (${String(r["reason"])})`}
    </p>
  );
}

// A Chinese poker deal from the history: the arrangements, the payments, nets and stacks.
function ChineseRecord(props: { record: HandReply }) {
  const { record } = props;
  const names = new Map(record.seats.map((s) => [s.seat, s.name]));
  const totals = record.events.find((e) => e.kind === "deal_end") as { net?: number[]; rake?: number[] } | undefined;
  const stacks: number[] = [];
  for (const s of record.seats) stacks[s.seat] = s.stack_end;
  const end = {
    hand: record.number,
    handId: record.hand,
    arrangements: record.events.filter((e) => e.kind === "reveal") as unknown as ChineseArrangement[],
    payments: record.events.filter((e) => e.kind === "payment") as unknown as ChinesePayment[],
    settled: record.events.filter((e) => e.kind === "settled") as unknown as ChinesePairSettled[],
    net: totals?.net ?? [],
    rake: totals?.rake ?? [],
    stacks,
    verdict: null,
  };
  return (
    <div class="replay">
      <h2>
        Deal {record.hand} <span class="sub">Chinese poker, {String(record.config["profile"])}, table {record.table}, deal {record.number}</span>
      </h2>
      <Reveal name={(seat) => names.get(seat) ?? `seat ${seat + 1}`} end={end} />
      <Verdict record={record} />
    </div>
  );
}

// An open-face hand from the history: the rows after each placement, then every row, payment and
// net.
function OpenFaceRecord(props: { record: HandReply }) {
  const { record } = props;
  const names = new Map(record.seats.map((s) => [s.seat, s.name]));
  const name = (seat: number) => names.get(seat) ?? `seat ${seat + 1}`;
  const steps = useMemo(() => openFaceReplay(record.events as never, name), [record]);
  const [step, setStep] = useState(0);
  const e = record.events.find((x) => x.kind === "open_face_end") as unknown as OpenFaceEnd | undefined;
  const stacks: number[] = [];
  for (const s of record.seats) stacks[s.seat] = s.stack_end;
  const end: OpenFaceEndView | null = e
    ? { hand: record.number, handId: record.hand, rows: e.rows, payments: e.payments, settled: e.settled, points: e.points, net: e.net, rake: e.rake, stacks, fantasyland: e.fantasyland, verdict: null }
    : null;
  const last = steps.length; // the end after the last placement
  const at = steps[Math.min(step, steps.length - 1)]!;
  return (
    <div class="replay">
      <h2>
        Hand {record.hand} <span class="sub">open-face {String(record.config["variant"])}, table {record.table}, hand {record.number}</span>
      </h2>
      {step < last ? (
        <>
          <p class="replay-line">{at.line}</p>
          <div class="of-seats">
            {record.seats.map((s) => (
              <div class={`of-seat${at.seat === s.seat ? " to-act" : ""}`} data-seat={s.seat}>
                <div class="name">{s.name}</div>
                <div class="of-board">
                  {kOfRows.map((r) => (
                    <div class="of-row" data-row={r}>
                      <Hand cards={at.boards[s.seat]?.[r] ?? []} count={at.boards[s.seat]?.[r].length ?? 0} small />
                    </div>
                  ))}
                </div>
              </div>
            ))}
          </div>
        </>
      ) : (
        end && <OpenFaceResult name={name} end={end} />
      )}
      <StepControls step={step} last={last} setStep={setStep} />
      <Verdict record={record} />
    </div>
  );
}

// A leap rummy game from the history: the melds and tokens after each action, step by step.
function LeapRecord(props: { record: HandReply }) {
  const { record } = props;
  const views = useMemo(() => leapReplay(record as never), [record]);
  const [step, setStep] = useState(0);
  const last = views.length - 1;
  const g = views[Math.min(step, last)]!;
  const names = new Map(record.seats.map((s) => [s.seat, s.name]));
  const name = (seat: number | null) => (seat === null ? "nobody" : (names.get(seat) ?? `seat ${seat + 1}`));
  const ranks = Number(record.config["ranks"] ?? 13);
  return (
    <div class="replay">
      <h2>
        Game {record.hand} <span class="sub">leap rummy, table {record.table}, game {record.number}</span>
      </h2>
      <div class="leap-seats">
        {g.players.map((seat) => (
          <div class={`lp-seat${g.seat === seat ? " acting" : ""}`} data-seat={seat}>
            <div class="name">{name(seat)}</div>
            <div class="status">
              score <b data-score={g.scores[seat] ?? 0}>{g.scores[seat] ?? 0}</b> · {g.handSizes[seat] ?? 0} cards{g.retired[seat] ? " · retired" : ""}
            </div>
          </div>
        ))}
      </div>
      <Melds g={{ ...g, openLeaps: [] }} name={name} me={record.your_seat} leaps={g.tokens.length || leapCount(ranks)} />
      <StepControls step={step} last={last} setStep={setStep} />
      <Verdict record={record} />
      <Results record={record} />
    </div>
  );
}

export function Replay(props: { c: Controller; id: number }) {
  const { c, id } = props;
  const [record, setRecord] = useState<HandReply | null>(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    void c.ask("hand", { hand: id }).then(setRecord);
  }, [id]);
  const views = useMemo(() => (record ? replayViews(record as never) : []), [record]);
  const last = Math.max(0, views.length - 1);
  useEffect(() => {
    if (!playing) return;
    if (step >= last) return setPlaying(false);
    const t = setTimeout(() => setStep(step + 1), 700);
    return () => clearTimeout(t);
  }, [playing, step, last]);
  if (!record) return <p>Loading hand {id}…</p>;
  if (record.config["game"] === "chinese") return <ChineseRecord record={record} />;
  if (record.config["game"] === "leap") return <LeapRecord record={record} />;
  if (record.config["game"] === "open-face") return <OpenFaceRecord record={record} />;
  const view = views[Math.min(step, last)]!;
  const download = async () => {
    const r = await c.ask("hand_phh", { hand: id });
    if (!r) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.phh], { type: "application/toml" }));
    a.download = `felt-hand-${id}.phh`;
    a.click();
  };
  return (
    <div class="replay">
      <h2>
        Hand {id} <span class="sub">{handWhere({ ...record.config, table: record.table, number: record.number } as PlayerHand)}</span>
      </h2>
      <div class="felt small-felt" aria-label="replayed table">
        <div class="middle">
          <div class="board">
            <Hand cards={view.hand?.board ?? []} count={view.hand?.board.length ?? 0} />
          </div>
          {view.lastEnd && <EndResults view={view} last={false} />}
        </div>
        {view.seats.map((s) => (s ? <Seat view={view} seat={s} now={0} /> : null))}
      </div>
      {view.hand?.odds?.againstRandom && (
        <p class="odds-note" role="note">
          No other hand was shown: the odds are your hand's against a random hand.
        </p>
      )}
      <StepControls step={step} last={last} setStep={setStep} playing={playing} setPlaying={setPlaying}>
        <button type="button" onClick={() => void download()}>
          Download PHH
        </button>
      </StepControls>
      <section class="log" aria-label="replay log">
        {view.log.slice(-10).map((l) => (
          <div>{l}</div>
        ))}
      </section>
      <Verdict record={record} />
      <AllInEv record={record} />
      {record.best_draw && <BestDraw draw={record.best_draw} />}
      <Results record={record} />
    </div>
  );
}

// An all-in's EV, as the hand's record keeps it: each player's share of the pots by their chance
// when the hands were shown, beside what they won.
function AllInEv(props: { record: HandReply }) {
  const ev = props.record.events.find((e) => e.kind === "all_in_ev") as
    | { street: number; seats: { seat: number; equity: number; expected: number; won: number }[] }
    | undefined;
  if (!ev) return null;
  const names = (props.record.config["names"] as (string | null)[] | undefined) ?? [];
  return (
    <section class="all-in-ev" aria-label="all-in EV">
      <h3>All-in EV</h3>
      <table>
        <thead>
          <tr>
            <th>Player</th>
            <th>Chance</th>
            <th>Expected</th>
            <th>Won</th>
          </tr>
        </thead>
        <tbody>
          {ev.seats.map((s) => (
            <tr data-seat={s.seat}>
              <td>{names[s.seat] ?? `seat ${s.seat + 1}`}</td>
              <td>{s.equity.toFixed(1)}%</td>
              <td>{s.expected.toFixed(2)}</td>
              <td>{s.won}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

// Five-card draw: the asker's own draw beside the best one the cards that came allowed.
function BestDraw(props: { draw: NonNullable<HandReply["best_draw"]> }) {
  const { draw } = props;
  const same = draw.best.discard === draw.made.discard;
  const words = (x: { count: number; discard: string }, verb: string) => (x.count === 0 ? "stand pat" : `${verb} ${x.discard}`);
  const named = (x: { hand: string; category: string }) => `${x.hand} (${x.category.replaceAll("_", " ")})`;
  return (
    <section class="best-draw" aria-label="your draw">
      <h3>Your draw</h3>
      <p>
        You held {draw.held}; you chose to {words(draw.made, "throw")} and made {named(draw.made)}.
      </p>
      <p>{same ? "With the cards that came, that was the best exchange." : `With the cards that came (${draw.came}), the best was to ${words(draw.best, "throw")}: ${named(draw.best)}.`}</p>
    </section>
  );
}
