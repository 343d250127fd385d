// A Chinese poker table: the seats and who has set their rows, the clock, the player's 13 cards
// and three rows to fill by clicking or dragging (mouse or touch), each row judged by the engine
// as it fills (`preview`), hints, special hands and surrender where the table has them, and the
// reveal: every seat's rows side by side, every payment with its reason, nets and new stacks, and
// the fairness check.
import { useEffect, useState } from "preact/hooks";
import {
  complete,
  kRows,
  kRowSize,
  loadSplit,
  place,
  reasonWords,
  saveSplit,
  sortCards,
  splitFrom,
  take,
  targetRow,
  unplaced,
  emptySplit,
  type ChineseEnd,
  type ChineseView,
  type Row,
  type Split,
} from "../games/chinese";
import { RequestError } from "../connection";
import type { Controller } from "../controller";
import type { ChineseHint, ChinesePreviewReply } from "../gen/protocol";
import { cardList, nameOf } from "../view";
import type { TableView } from "../tableview";
import { Card, Hand } from "./cards";
import { DragCard, useCardDrag } from "./drag";
import { BotMark, Confirm, FairnessLine, NetCell, NetsTable, TableSide, useNow } from "./shared";

const kRowNames: Record<Row, string> = { front: "Front", middle: "Middle", back: "Back" };

function storage(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

function words(s: string): string {
  return s.replaceAll("_", " ");
}

function Arranger(props: { c: Controller; view: TableView; ch: ChineseView }) {
  const { c, view, ch } = props;
  const [split, setSplit] = useState<Split>(() => loadSplit(storage() ?? { getItem: () => null }, view.id, ch.handId, ch.cards) ?? emptySplit());
  const [chosen, setChosen] = useState<Row | null>(null);
  const [order, setOrder] = useState<string[]>(ch.cards);
  const [preview, setPreview] = useState<ChinesePreviewReply | null>(null);
  const [hints, setHints] = useState<ChineseHint[] | null>(null);
  const [refusal, setRefusal] = useState<string>("");
  const [sending, setSending] = useState(false);
  const [surrendering, setSurrendering] = useState(false);
  const hintsOn = view.config["hints"] !== false;
  const surrenderOn = view.config["surrender"] === true;

  const change = (next: Split) => {
    setSplit(next);
    setRefusal("");
    const st = storage();
    if (st) saveSplit(st, view.id, ch.handId, next);
  };

  // The engine judges the full rows as they are now (and lists the special hands).
  useEffect(() => {
    const body: { table: number; front?: string; middle?: string; back?: string } = { table: view.id };
    for (const r of kRows) if (split[r].length === kRowSize[r]) body[r] = split[r].join(" ");
    let live = true;
    const t = setTimeout(() => {
      c.conn
        .request("preview", body)
        .then((p) => live && "specials" in p && setPreview(p))
        .catch(() => {});
    }, 120);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [split.front.join(), split.middle.join(), split.back.join()]);

  const { handlers, ghost } = useCardDrag(
    (card, target) => change(target === "hand" ? take(split, card) : place(split, card, target as Row)),
    (card) => {
      if (split.front.includes(card) || split.middle.includes(card) || split.back.includes(card)) return change(take(split, card));
      const row = targetRow(split, chosen);
      if (row) change(place(split, card, row));
    },
  );

  const submit = async (body: { action: "split" | "surrender"; front?: string; middle?: string; back?: string; declare?: string | null }) => {
    setSending(true);
    try {
      await c.conn.request("act", { table: view.id, ...body });
    } catch (e) {
      setRefusal(e instanceof RequestError ? e.message : String(e)); // shown beside the rows
    } finally {
      setSending(false);
    }
  };
  const splitBody = (s: Split) => ({ front: s.front.join(" "), middle: s.middle.join(" "), back: s.back.join(" ") });
  const hand = unplaced(order, split);
  const foul = preview?.foul ?? null;

  return (
    <section class="arranger" aria-label="your rows">
      {kRows.map((r) => {
        const judged = preview?.rows[r];
        const full = split[r].length === kRowSize[r];
        return (
          <div class={`row-slot${chosen === r ? " chosen" : ""}${full ? " full" : ""}`} data-drop={r} data-row={r} aria-label={`${r} row`}>
            <button type="button" class="row-name" onClick={() => setChosen(chosen === r ? null : r)} aria-pressed={chosen === r} title="Cards you click go to this row">
              {kRowNames[r]} ({split[r].length}/{kRowSize[r]})
            </button>
            <span class="row-cards">
              {split[r].map((card) => (
                <DragCard card={card} handlers={handlers(card)} />
              ))}
              {Array.from({ length: kRowSize[r] - split[r].length }, () => (
                <span class="card slot" aria-hidden="true" />
              ))}
            </span>
            <span class="row-words" data-words={full && judged ? judged.words : ""}>
              {full && judged ? judged.words : ""}
            </span>
          </div>
        );
      })}
      {foul && (
        <p class="foul" role="alert" data-code={foul.code}>
          Foul: {foul.message.replace(/^[a-z_]+: /, "")}
        </p>
      )}
      {refusal && (
        <p class="refusal" role="alert">
          Refused: {refusal}
        </p>
      )}
      <div class="my-cards" data-drop="hand" aria-label="cards to place">
        {hand.map((card) => (
          <DragCard card={card} handlers={handlers(card)} />
        ))}
        {hand.length === 0 && <span class="all-placed">All 13 cards are placed.</span>}
      </div>
      <div class="arrange-buttons">
        <button type="button" onClick={() => setOrder(sortCards(ch.cards, "rank"))}>
          Sort by rank
        </button>
        <button type="button" onClick={() => setOrder(sortCards(ch.cards, "suit"))}>
          Sort by suit
        </button>
        <button type="button" onClick={() => change(emptySplit())} disabled={hand.length === 13}>
          Clear rows
        </button>
        {hintsOn && (
          <button type="button" onClick={() => void c.ask("hint", { table: view.id, count: 3 }).then((r) => r && setHints(r.arrangements ?? []))}>
            Hints
          </button>
        )}
        {surrenderOn && (
          <button type="button" class="fold" disabled={sending} onClick={() => setSurrendering(true)}>
            Surrender
          </button>
        )}
        <button type="button" class="primary" disabled={!complete(split) || sending} onClick={() => void submit({ action: "split", ...splitBody(split) })}>
          Set my rows
        </button>
      </div>
      {surrendering && (
        <Confirm
          question="Surrender this deal? You pay the surrender and settle nothing else."
          yes="Surrender"
          no="Keep playing"
          onYes={() => {
            setSurrendering(false);
            void submit({ action: "surrender" });
          }}
          onNo={() => setSurrendering(false)}
        />
      )}
      {hints && (
        <div class="hints" aria-label="hints">
          {hints.map((h, i) => (
            <div class="hint" data-hint={i}>
              <span class="expect">{h.expected_units >= 0 ? "+" : ""}{h.expected_units.toFixed(2)} units</span>
              <Hand cards={cardList(h.front)} count={3} small />
              <Hand cards={cardList(h.middle)} count={5} small />
              <Hand cards={cardList(h.back)} count={5} small />
              {h.declare && <span class="declare">declares {words(h.declare)}</span>}
              <button type="button" onClick={() => change(splitFrom(h))}>
                Use
              </button>
            </div>
          ))}
        </div>
      )}
      {(preview?.specials ?? []).map((s) => (
        <div class="special" data-special={s.declare}>
          Your cards hold a special hand: <b>{words(s.declare)}</b> ({s.units} units from each player without one).
          <button type="button" class="primary" disabled={sending} onClick={() => void submit({ action: "split", front: s.front, middle: s.middle, back: s.back, declare: s.declare })}>
            Declare {words(s.declare)}
          </button>
        </div>
      ))}
      {ghost && (
        <span class="drag-ghost" style={{ left: `${ghost.x}px`, top: `${ghost.y}px` }} aria-hidden="true">
          <Card card={ghost.card} />
        </span>
      )}
    </section>
  );
}

// The reveal: each seat's rows side by side, every payment with its reason, nets and stacks, and
// the fairness check (at the table; the history shows the server's replay verdict instead).
export function Reveal(props: { name: (seat: number) => string; end: ChineseEnd; last?: boolean }) {
  const { name, end } = props;
  // Under the rules of edition 2 each payment is owed, and each pair pays its net once per pass
  // (`settled`); a deal of edition 1 has no `settled`, and each payment was paid as listed.
  const netted = (end.settled?.length ?? 0) > 0;
  const unit = end.payments.length > 0 ? end.payments[0]!.chips / end.payments[0]!.units : 1;
  const owedChips = (s: { units: number }) => s.units * unit;
  const chips = (n: number) => `${n} chip${n === 1 ? "" : "s"}`;
  return (
    <section class={`reveal${props.last ? " last" : ""}`} aria-label={props.last ? "the last deal's reveal" : "the reveal"}>
      <h3>{props.last ? `The last deal (${end.hand})` : `Deal ${end.hand}: the reveal`}</h3>
      <table class="rows-table">
        <thead>
          <tr>
            <th>Player</th>
            {kRows.map((r) => (
              <th>{kRowNames[r]}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {end.arrangements.map((a) => (
            <tr data-seat={a.seat}>
              <td>
                {name(a.seat)}
                {a.by === "server" && <div class="sub">arranged by the server</div>}
                {a.declare && <div class="declare">declared {words(a.declare)}</div>}
              </td>
              {a.surrender ? (
                <td colSpan={3}>surrendered</td>
              ) : (
                kRows.map((r) => (
                  <td>
                    <Hand cards={cardList(a[r])} count={kRowSize[r]} small />
                    <div class="row-words">{a.words?.[r] ?? ""}</div>
                  </td>
                ))
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Payments</h4>
      <ol class="payments">
        {end.payments.map((p) => (
          <li data-from={p.from} data-to={p.to} data-chips={p.chips} data-reason={p.reason}>
            {name(p.from)} {netted ? "owes" : "pays"} {name(p.to)} {chips(p.chips)} ({p.units} unit{p.units === 1 ? "" : "s"}): {reasonWords(p.reason)}
          </li>
        ))}
        {end.payments.length === 0 && <li>No payments: every row was tied.</li>}
      </ol>
      {netted && (
        <>
          <h4>Settled, each pair on its net</h4>
          <ol class="settled">
            {end.settled.map((s) => (
              <li data-from={s.from} data-to={s.to} data-chips={s.chips} data-pass={s.pass}>
                {name(s.from)} pays {name(s.to)} {chips(s.chips)}
                {s.pass === "special" ? " for special hands" : ""}
                {s.chips < owedChips(s) ? ` of the ${chips(owedChips(s))} owed: a stack's backing ran out` : ""}
              </li>
            ))}
          </ol>
        </>
      )}
      <NetsTable
        seats={end.arrangements.map((a) => a.seat)}
        name={name}
        columns={[
          { head: "Net", cell: (seat) => <NetCell net={end.net[seat]!} /> },
          { head: "Rake", cell: (seat) => <td>{end.rake[seat]}</td> },
          { head: "Stack now", cell: (seat) => <td>{end.stacks[seat]}</td> },
        ]}
        data={(seat) => ({ "data-net": end.net[seat], "data-stack": end.stacks[seat] })}
      />
      <FairnessLine verdict={end.verdict} />
    </section>
  );
}

// The game in a few lines, for someone who has never played (the full rules: docs/chinese.md).
function HowToPlay() {
  return (
    <details class="how-to">
      <summary>How to play</summary>
      <p>
        You are dealt 13 cards. Set them in three rows: the <b>back</b> (5 cards), the <b>middle</b> (5) and the <b>front</b> (3), each a poker hand. The back must
        rank at least as high as the middle, and the middle at least as high as the front (the front's three cards make only high card, a pair or three of a
        kind); a split that breaks this is a <b>foul</b>, and the table refuses it. The page names each row's hand as you fill it and flags a foul before you send.
      </p>
      <p>
        When everyone has set their rows, each row is compared with the same row of every other player: the better row wins a unit from the other. The
        table's profile may pay more for strong rows (royalties), for winning all three (a scoop), or for a special hand such as six pairs, which you can
        declare instead of playing your rows. Each unit is worth the table's chips per unit. The reveal lists every payment and why.
      </p>
    </details>
  );
}

export function ChineseTable(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const ch = view.chinese;
  const now = useNow(!!ch?.deadline && !ch.end);
  const me = view.mySeat;
  const dealtIn = ch !== null && me !== null && ch.seats.includes(me) && ch.cards.length === 13;
  const submitted = ch !== null && me !== null && ch.submitted.includes(me);
  const left = ch?.deadline && !ch.end ? Math.max(0, ch.deadline - now) : 0;
  const cfg = view.config;
  return (
    <div class="table-screen chinese">
      <h2>
        Table {view.id}{" "}
        <span class="sub">
          Chinese poker, {String(cfg["profile"])}, {String(cfg["unit"])} chip{cfg["unit"] === 1 ? "" : "s"} a unit
          {cfg["chip_limit"] ? ", chip limit" : ""}
          {cfg["aces"] ? ", aces bet" : ""}
          {cfg["banker"] ? ", banker" : ""}
        </span>
      </h2>
      {view.closed && <p class="notice info">This table has closed.</p>}
      <HowToPlay />
      <div class="chinese-seats" aria-label="players">
        {view.seats.map((s) => {
          if (!s) return null;
          const inDeal = ch?.seats.includes(s.seat) && !ch.end;
          const done = ch?.submitted.includes(s.seat);
          return (
            <div class={`cp-seat${s.seat === me ? " mine" : ""}`} data-seat={s.seat} aria-label={`seat ${s.seat + 1}: ${s.name}`}>
              <div class="name">
                <BotMark name={s.name} />
                {s.name}
                {ch?.dealer === s.seat && <span class="dealer-mark" title="dealer"> D</span>}
              </div>
              <div class="stack" data-stack={s.stack}>
                {s.stack}
              </div>
              <div class="status" data-submitted={inDeal ? String(!!done) : ""}>
                {!s.connected ? "disconnected" : s.sittingOut ? "sitting out" : inDeal ? (done ? "rows set ✓" : "arranging…") : ""}
              </div>
            </div>
          );
        })}
      </div>
      {ch && !ch.end && (
        <div class="deal-clock" role="timer" aria-label="time left">
          Deal {ch.hand}: {Math.ceil(left / 1000)}s to set the rows
        </div>
      )}
      {dealtIn && !submitted && !ch!.end && <Arranger key={ch!.handId} c={c} view={view} ch={ch!} />}
      {dealtIn && submitted && !ch!.end && <p class="waiting">Your rows are set. Waiting for the others…</p>}
      {ch?.end && <Reveal name={(seat) => nameOf(view, seat)} end={ch.end} />}
      {ch && !ch.end && ch.last && <Reveal name={(seat) => nameOf(view, seat)} end={ch.last} last />}
      {!ch && <p class="waiting">Waiting for two players to deal.</p>}
      <TableSide c={c} view={view} balance={props.balance} noun="hand" />
    </div>
  );
}

