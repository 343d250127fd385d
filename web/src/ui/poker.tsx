// A poker table: seats around the oval, cards, bets, the board and the pots, the clock, the action
// bar built from `legal`, pre-actions, the hand's end with its fairness check, chat and the
// seat's own controls (leave, sit out and in, top up).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Controller } from "../controller";
import type { Body, ReplyOf } from "../connection";
import type { Legal, PokerAct } from "../gen/protocol";
import { clampTo, fromPreAction, preActionHolds, presets, seatPlace, type PreAction, type Structure } from "../games/poker";
import { betLevel, oddsWords, potTotal } from "../games/poker";
import type { SeatView, TableView } from "../tableview";
import { potLines } from "../view";
import { Hand } from "./cards";
import { BotMark, Confirm, FairnessLine, TableSide, useNow } from "./shared";
import { TournamentBar } from "./tournaments";

// Games in which some cards are dealt face up: the player's own face-down cards are marked.
function upCards(view: TableView): boolean {
  return ["stud", "mexican", "razz", "stud-hilo"].includes(String(view.config["variant"]));
}

// A stud table's rule for a pair showing on fourth street, in words.
const kOpenPair: Record<string, string> = {
  big_bet: "; a pair showing on 4th street: the big bet",
  choice: "; a pair showing on 4th street: the first bettor picks the size",
  off: "",
};

// The stakes in words: blinds, ante, bring-in, bets.
// A poker table's stakes as players name them: fixed limit by its bets ("2/4"), the others by
// their blinds ("1/2"); an ante and a bring-in after; no-limit and pot-limit stud by its ante and
// bring-in alone.
export function stakesText(stakes: Record<string, number> | undefined, structure?: unknown): string {
  if (!stakes) return "";
  const parts = [];
  const blinds = Boolean(stakes["small_blind"] || stakes["big_blind"]);
  if (structure === "fixed-limit") parts.push(`${stakes["small_bet"]}/${stakes["big_bet"]}`);
  else if (blinds) parts.push(`${stakes["small_blind"]}/${stakes["big_blind"]}`);
  if (stakes["ante"]) parts.push(`ante ${stakes["ante"]}`);
  if (stakes["bring_in"]) parts.push(`bring-in ${stakes["bring_in"]}`);
  return parts.join(", ");
}

// One seat on the oval, at the table or in a replay.
type Opponent = ReplyOf<"opponent_stats">["opponents"][number];

// What the viewer saw of each opponent at the table (the overlay, docs/stats.md), by name: asked
// when the names at the seats change and after each hand; nothing where the server shows none
// (feltd --no-table-stats).
function useOpponents(c: Controller, names: string[], hand: number): Map<string, Opponent> {
  const [seen, setSeen] = useState(new Map<string, Opponent>());
  const key = names.join("\n");
  useEffect(() => {
    if (names.length === 0) return;
    let live = true;
    c.conn
      .request("opponent_stats", { names: names.slice(0, 10) as Body<"opponent_stats">["names"] })
      .then((r) => live && setSeen(new Map(r.opponents.map((o) => [o.name, o]))))
      .catch(() => live && setSeen(new Map()));
    return () => {
      live = false;
    };
  }, [key, hand]);
  return seen;
}

function share(t: { times: number; opportunities: number }): string {
  return t.opportunities ? String(Math.round((100 * t.times) / t.opportunities)) : "–";
}

export function Seat(props: { view: TableView; seat: SeatView; now: number; picking?: Picking; seen?: Opponent }) {
  const { view, seat, now } = props;
  const hand = view.hand;
  const place = seatPlace(seat.seat, view.seats.length, view.mySeat ?? 0);
  const mine = seat.seat === view.mySeat;
  const acting = hand?.toAct === seat.seat;
  const status = seat.gone
    ? "left"
    : !seat.connected
    ? "disconnected"
    : seat.sittingOut
      ? "sitting out"
      : seat.inHand && seat.folded
        ? "folded"
        : seat.inHand && seat.stack === 0 && hand
          ? "all in"
          : "";
  const left = acting && hand && hand.deadline ? Math.max(0, hand.deadline - now) : 0;
  const net = handOver(view) ? view.lastEnd?.net[seat.seat] : undefined;
  const odds = hand?.odds?.seats.find((x) => x.seat === seat.seat);
  return (
    <div
      class={`seat${mine ? " mine" : ""}${acting ? " acting" : ""}${seat.folded ? " folded" : ""}`}
      style={{ left: `${place.x}%`, top: `${place.y}%` }}
      data-seat={seat.seat}
      aria-label={`seat ${seat.seat + 1}: ${seat.name}`}
    >
      <div class="seat-cards">
        {seat.inHand && (
          <Hand
            cards={seat.cards}
            count={seat.cardCount}
            small={!mine}
            up={mine && upCards(view) ? seat.up : undefined}
            selected={mine ? props.picking?.cards : undefined}
            onPick={mine && props.picking && choosable(view).length ? (card) => choosable(view).includes(card) && props.picking!.toggle(card) : undefined}
          />
        )}
      </div>
      <div class="plate">
        <div class="name">
          <BotMark name={seat.name} />
          {seat.name}
        </div>
        <div class="stack" data-stack={seat.stack}>
          {seat.stack}
        </div>
        {status && <div class="status">{status}</div>}
        {props.seen && props.seen.hands > 0 && (
          <div class="seen" title={`what you saw of ${seat.name}: ${props.seen.hands} hands together; VPIP ${share(props.seen.vpip)} %, PFR ${share(props.seen.pfr)} %`}>
            {props.seen.hands}h · {share(props.seen.vpip)}/{share(props.seen.pfr)}
          </div>
        )}
        {seat.shown && seat.made && <div class="made">{seat.made}</div>}
        {seat.shown && seat.low && <div class="made low">low: {seat.low}</div>}
        {odds && (
          <div class="odds" data-equity={odds.equity} title={`chance to win${hand?.odds?.againstRandom ? " against a random hand" : ""}; ties ${odds.ties.toFixed(1)}%`}>
            {oddsWords(odds)}
          </div>
        )}
        {!seat.shown && seat.lastAction && <div class="last-action">{seat.lastAction}</div>}
        {net !== undefined && net !== 0 && <div class={`net ${net > 0 ? "won" : "lost"}`}>{net > 0 ? `+${net}` : net}</div>}
        {acting && hand?.deadline ? (
          <div class={`clock${hand.bankMs ? " bank" : ""}`} role="timer" aria-label="time left">
            {Math.ceil(left / 1000)}s{hand.bankMs ? " (time bank)" : ""}
          </div>
        ) : null}
      </div>
      {hand && hand.button === seat.seat && <div class="dealer" title="dealer button">D</div>}
      {hand && seat.blind && (
        <div class="blind-mark" title={seat.blind === "SB" ? "small blind" : "big blind"}>
          {seat.blind}
        </div>
      )}
      {seat.bet > 0 && (
        // Pushed from the seat toward the middle of the table, where bets lie.
        <div class="bet" data-bet={seat.bet} style={{ left: `${50 + (50 - place.x) * 2}%`, top: `${50 + (50 - place.y) * 1.6}%` }}>
          {seat.bet}
        </div>
      )}
    </div>
  );
}

// What is wrong with an amount typed for a bet or raise, in words; null when it is a whole number
// from min_to on (past max_to, the page asks before going all in).
export function amountProblem(text: string, legal: Legal): string | null {
  const t = text.trim();
  if (t === "") return "Type an amount.";
  if (/^-\d+$/.test(t)) return "An amount cannot be negative.";
  if (!/^\d+$/.test(t)) return "Type the amount as a whole number of chips.";
  if (Number(t) < legal.min_to) return `The least you may ${legal.raise ? "raise to" : "bet"} is ${legal.min_to}.`;
  return null;
}

// The cards picked for a draw or a rollover: clicked at the player's own seat (the hand shown
// once), sent by the action bar. Kept by the table for the decision `seq`.
export interface Picking {
  cards: Set<string>;
  toggle: (card: string) => void;
  set: (cards: Set<string>) => void;
}

// The cards a draw or a rollover may pick: any for a draw, the face-down ones for a rollover.
export function choosable(view: TableView): string[] {
  const legal = view.legal;
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  if (!legal || !me || (legal.phase !== "drawing" && legal.phase !== "rollover")) return [];
  return me.cards.filter((card) => legal.phase === "drawing" || !me.up.includes(card));
}

function ActionBar(props: { c: Controller; view: TableView; legal: Legal; picking: Picking }) {
  const { c, view, legal } = props;
  const structure = (view.config["structure"] as Structure) ?? "no-limit";
  const pot = potTotal(view);
  const level = betLevel(view);
  const sizes = presets(legal, structure, pot, level);
  // Fresh for each decision: the table mounts a new bar for each (key: legalSeq).
  const [to, setTo] = useState(legal.min_to);
  const picked = props.picking.cards;
  const setPicked = props.picking.set;
  // Five-card draw's hint: the server's best exchange, picked for the player to accept or change.
  const [advice, setAdvice] = useState<string | null>(null);
  const hintsOn = view.config["variant"] === "draw" && view.config["hints"] !== false;
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  // One action a decision: a second click (a double-click, a key held down) sends nothing more,
  // and the buttons are off until the table answers; a refusal gives the decision back.
  const sent = useRef(false);
  const [waiting, setWaiting] = useState(false);
  // On a small screen the bar stays at the window's foot on the player's turn: the page scrolls
  // just enough that it does not cover the player's own cards and stack.
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const mine = document.querySelector(".felt .seat.mine");
    if (!mine || !bar.current) return;
    const covered = mine.getBoundingClientRect().bottom - bar.current.getBoundingClientRect().top;
    if (covered > 0) window.scrollBy(0, covered + 8);
  }, []);
  const act = (body: { action: PokerAct["action"]; amount?: number; cards?: string }) => {
    if (sent.current) return;
    sent.current = true;
    setWaiting(true);
    void c.ask("act", { table: view.id, ...body }).then((r) => {
      if (r) return;
      sent.current = false;
      setWaiting(false);
    });
  };
  const betting = legal.phase === "betting";
  const canSize = (legal.bet || legal.raise) && betting;
  const sized = canSize ? clampTo(legal, to) : 0;
  const betWord = legal.raise ? "Raise to" : legal.bring_in ? "Complete to" : "Bet";
  // What the player typed in the amount box (null: it follows the slider and presets), what is
  // wrong with it, and whether it is past the stack (then the page asks before going all in).
  const [typed, setTyped] = useState<string | null>(null);
  const problem = typed === null ? null : amountProblem(typed, legal);
  const pastStack = typed !== null && problem === null && Number(typed.trim()) > legal.max_to;
  const choose = (amount: number) => {
    setTyped(null);
    setTo(amount);
  };
  const bet = () => {
    if (problem || pastStack) return;
    act({ action: legal.raise ? "raise" : "bet", amount: sized });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
      if (!betting) return;
      if (e.key === "f" && legal.fold) act({ action: "fold" });
      else if (e.key === "c" && legal.check) act({ action: "check" });
      else if (e.key === "c" && legal.call) act({ action: "call" });
      else if (e.key === "r" && canSize) act({ action: legal.raise ? "raise" : "bet", amount: sized });
      else return;
      e.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  if (legal.phase === "drawing" || legal.phase === "rollover") {
    const drawing = legal.phase === "drawing";
    const need = drawing ? [legal.min_discard, legal.max_discard] : [legal.rollover, legal.rollover];
    const n = picked.size;
    // Shrinking draw: exactly two, or none to stand pat.
    const standPat = drawing && legal.stand_pat === true;
    const ok = (n >= need[0]! && n <= need[1]!) || (standPat && n === 0);
    return (
      <div class="action-bar" role="group" aria-label="your action" ref={bar}>
        <div class="pick-hint">
          {drawing
            ? `Click the cards at your seat to throw away (${need[0] === need[1] ? need[0] : `${need[0]} to ${need[1]}`}${standPat ? ", or none to stand pat" : ""})`
            : `Click ${legal.rollover} card${legal.rollover === 1 ? "" : "s"} at your seat to turn face up`}
          {n > 0 && `: ${n} picked`}
        </div>
        {drawing && hintsOn && (
          <button
            type="button"
            onClick={() =>
              void c.ask("hint", { table: view.id, count: 1 }).then((r) => {
                const best = r?.exchanges?.[0];
                if (!best) return;
                setPicked(new Set(best.discard ? best.discard.split(" ") : []));
                const share = Math.round(best.expected * 100);
                setAdvice(`${best.count === 0 ? "Stand pat" : `Throw ${best.discard}`}: the hand you end with beats ${share}% of all hands, on average`);
              })
            }
          >
            Hint
          </button>
        )}
        <button type="button" class="primary" disabled={!ok || waiting} onClick={() => act({ action: legal.phase === "drawing" ? "discard" : "rollover", cards: [...picked].join(" ") })}>
          {drawing ? (n === 0 ? "Stand pat" : `Discard ${n}`) : "Turn up"}
        </button>
        {advice && (
          <div class="draw-advice" role="status">
            {advice}
          </div>
        )}
      </div>
    );
  }
  return (
    <div class="action-bar" role="group" aria-label="your action" ref={bar}>
      {legal.fold && (
        <button type="button" class="fold" disabled={waiting} onClick={() => act({ action: "fold" })} aria-keyshortcuts="f">
          Fold
        </button>
      )}
      {legal.check && (
        <button type="button" disabled={waiting} onClick={() => act({ action: "check" })} aria-keyshortcuts="c">
          Check
        </button>
      )}
      {legal.call && (
        <button type="button" disabled={waiting} onClick={() => act({ action: "call" })} aria-keyshortcuts="c">
          Call {legal.call_amount}
        </button>
      )}
      {legal.bring_in && (
        <button type="button" disabled={waiting} onClick={() => act({ action: "bring_in" })}>
          Bring in {legal.bring_in_amount}
        </button>
      )}
      {canSize && legal.two_sizes && (
        // A pair showing on fourth street, the casino custom: the small or the big bet.
        <div class="sizing two-sizes">
          {[legal.min_to, legal.max_to].map((amount) => (
            <button type="button" class="primary" disabled={waiting} onClick={() => act({ action: legal.raise ? "raise" : "bet", amount })}>
              {betWord} {amount}
            </button>
          ))}
        </div>
      )}
      {canSize && !legal.two_sizes && (
        <div class="sizing">
          {sizes.length > 0 && (
            <div class="presets">
              {sizes.map((p) => (
                <button type="button" class={p.to === sized && typed === null ? "on" : ""} onClick={() => choose(p.to)}>
                  {p.label}
                </button>
              ))}
            </div>
          )}
          {legal.min_to < legal.max_to && (
            <input
              type="range"
              aria-label="bet size"
              min={legal.min_to}
              max={legal.max_to}
              step={1}
              value={sized}
              onInput={(e) => choose(Number((e.target as HTMLInputElement).value))}
            />
          )}
          {legal.min_to < legal.max_to && (
            // Text, not a number box: the player's typing is kept as typed, and judged in words.
            <input
              type="text"
              inputMode="numeric"
              class="amount"
              aria-label="bet amount"
              aria-invalid={problem !== null}
              value={typed ?? String(sized)}
              onInput={(e) => {
                const text = (e.target as HTMLInputElement).value;
                setTyped(text);
                if (amountProblem(text, legal) === null) setTo(Number(text.trim()));
              }}
              onKeyDown={(e) => e.key === "Enter" && bet()}
            />
          )}
          <button type="button" class="primary" disabled={waiting || problem !== null || pastStack} onClick={bet} aria-keyshortcuts="r">
            {betWord} {sized}
          </button>
          {problem && (
            <span class="amount-why" role="alert">
              {problem}
            </span>
          )}
        </div>
      )}
      {canSize && pastStack && (
        <Confirm
          question={`${typed!.trim()} is more than you have: ${legal.raise ? "raise" : "bet"} all in, ${legal.max_to}?`}
          yes={`All in, ${legal.max_to}`}
          onYes={() => act({ action: legal.raise ? "raise" : "bet", amount: legal.max_to })}
          onNo={() => choose(legal.min_to)}
        />
      )}
    </div>
  );
}

// Pre-actions: chosen before the turn, done when it comes, dropped when a bet changes things.
function PreActions(props: { c: Controller; view: TableView }) {
  const { c, view } = props;
  const [pre, setPre] = useState<{ kind: PreAction; level: number; hand: number } | null>(null);
  const level = betLevel(view);
  const hand = view.hand?.number ?? -1;
  const live = pre && pre.hand === hand && preActionHolds(pre.kind, pre.level, level) ? pre : null;
  useEffect(() => {
    if (pre && !live) setPre(null);
    if (live && view.legal) {
      const action = fromPreAction(live.kind, view.legal);
      setPre(null);
      if (action) void c.ask("act", { table: view.id, ...action });
    }
  }, [view.legal, live?.kind, level, hand]);
  const me = view.mySeat !== null ? view.seats[view.mySeat] : null;
  const over = view.lastEnd !== null && view.lastEnd.hand === view.hand?.number;
  if (!view.hand || over || !me?.inHand || me.folded || view.legal || me.stack === 0) return null;
  const choice = (kind: PreAction, label: string) => (
    <label class="pre">
      <input type="checkbox" checked={live?.kind === kind} onChange={(e) => setPre((e.target as HTMLInputElement).checked ? { kind, level, hand } : null)} />
      {label}
    </label>
  );
  return (
    <div class="pre-actions" role="group" aria-label="act in advance">
      {choice("check_fold", "Check/Fold")}
      {choice("check", "Check")}
      {choice("call_any", "Call any")}
    </div>
  );
}

// The running hand is the one whose results are on screen.
function handOver(view: TableView): boolean {
  return view.lastEnd !== null && view.lastEnd.hand === view.hand?.number;
}

// The hand's results: in the middle of the table once it ends, then, once the next hand has
// begun, as "the last hand" above the table, until the player closes them or the next hand ends.
// A replay's end shows them with nothing to close.
export function Results(props: { view: TableView; onClose?: () => void; last: boolean }) {
  const end = props.view.lastEnd!;
  return (
    <div class={props.last ? "last-hand" : "end-banner"} role="status" aria-label={props.last ? "the last hand" : "results"}>
      {props.last && <span class="label">Last hand ({end.hand}):</span>}
      {potLines(props.view, end).map((line) => (
        <div class="pot-line">{line}</div>
      ))}
      <FairnessLine verdict={end.verdict} />
      {props.onClose && (
        <button type="button" class="close" aria-label="close the results" title="close" onClick={props.onClose}>
          ×
        </button>
      )}
    </div>
  );
}

export function PokerTable(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const now = useNow(!!view.hand?.deadline);
  // The cards picked for the decision under way (a draw, a rollover); none for a new decision.
  const [pick, setPick] = useState<{ seq: number; cards: Set<string> }>({ seq: -1, cards: new Set() });
  const cards = pick.seq === view.legalSeq ? pick.cards : new Set<string>();
  const picking: Picking = {
    cards,
    set: (next) => setPick({ seq: view.legalSeq, cards: next }),
    toggle: (card) => {
      const next = new Set(cards);
      if (!next.delete(card)) next.add(card);
      setPick({ seq: view.legalSeq, cards: next });
    },
  };
  // The hand whose results the player closed.
  const [closed, setClosed] = useState(-1);
  const results = view.lastEnd && view.lastEnd.hand !== closed ? view.lastEnd : null;
  const over = handOver(view);
  const pots = view.hand?.pots ?? [];
  const tournament = typeof view.config["tournament"] === "number" ? view.config["tournament"] : null;
  const game = view.hand?.game ?? "";
  const opponents = view.seats.filter((x): x is SeatView => !!x && x.seat !== view.mySeat && !x.gone).map((x) => x.name);
  const seen = useOpponents(c, opponents, view.lastEnd?.hand ?? 0);
  const title = useMemo(() => {
    const cfg = view.config;
    // A tournament's stakes are its level's (the bar below), not the table's.
    // A mixed tournament's hand: this hand's game.
    if (tournament !== null && game) return `${game}, tournament ${tournament}`;
    if (tournament !== null) return `${cfg["structure"] ?? ""} ${cfg["variant"] ?? ""}, tournament ${tournament}`;
    return `${cfg["structure"] ?? ""} ${cfg["variant"] ?? ""}, ${stakesText(cfg["stakes"] as Record<string, number> | undefined, cfg["structure"])}${kOpenPair[String(cfg["open_pair"])] ?? ""}${cfg["big_bet_from"] === "seventh" ? "; the big bet on 7th street only" : ""}`;
  }, [view.config, game]);
  return (
    <div class="table-screen">
      <h2>
        Table {view.id} <span class="sub">{title}</span>
      </h2>
      {view.closed && <p class="notice info">This table has closed.</p>}
      {tournament !== null && !view.closed && <TournamentBar c={c} id={tournament} name={c.store.get().account?.name ?? ""} />}
      {results && !over && <Results view={view} last onClose={() => setClosed(results.hand)} />}
      <div class="felt" aria-label="poker table">
        <div class="middle">
          <div class="board" aria-label="board">
            <Hand cards={view.hand?.board ?? []} count={view.hand?.board.length ?? 0} />
          </div>
          {view.hand && !over && betLevel(view) > 0 && (
            <div class="pot-total" data-total={potTotal(view)}>
              Total pot {potTotal(view)}
            </div>
          )}
          {pots.length > 0 && (
            <div class="pots" aria-label="pots">
              {pots.map((p, i) => (
                <span class="pot" data-pot={p.amount}>
                  {i === 0 ? "Pot" : `Side pot ${i}`}: {p.amount}
                </span>
              ))}
            </div>
          )}
          {results && over && <Results view={view} last={false} onClose={() => setClosed(results.hand)} />}
        </div>
        {view.seats.map((s) => (s ? <Seat view={view} seat={s} now={now} picking={picking} seen={s.seat === view.mySeat ? undefined : seen.get(s.name)} /> : null))}
      </div>
      {view.legal ? <ActionBar key={view.legalSeq} c={c} view={view} legal={view.legal} picking={picking} /> : <PreActions c={c} view={view} />}
      <TableSide c={c} view={view} balance={props.balance} noun="hand" />
    </div>
  );
}
