// An open-face table: every seat's three rows face up as placed (a Fantasyland hand face down
// until the end, with its card count), whose turn it is and the clock; on the viewer's turn the
// cards to place, by click or drag (a finger too), into rows or the Pineapple discard, each row
// named by the engine and a foul flagged before confirming (`preview`), and hints; at the end,
// every row, the pairwise payments with each royalty and scoop named, the nets and who goes to
// Fantasyland.
import { useEffect, useState } from "preact/hooks";
import {
  assigned,
  emptyPlacing,
  kRows,
  kRowSize,
  openFaceReason,
  put,
  ready,
  targetOf,
  unput,
  withPlacing,
  type OpenFaceEndView,
  type OpenFaceView,
  type Placing,
  type Row,
  type Rows,
  type Target,
} from "../games/openface";
import { RequestError } from "../connection";
import type { Controller } from "../controller";
import type { OpenFacePreviewReply } from "../gen/protocol";
import { cardList, nameOf } from "../view";
import type { TableView } from "../tableview";
import { Card, CardBack, Hand } from "./cards";
import { DragCard, useCardDrag } from "./drag";
import { BotMark, FairnessLine, NetCell, NetsTable, TableSide, useNow } from "./shared";

const kRowNames: Record<Row, string> = { front: "Front", middle: "Middle", back: "Back" };

// One seat's rows: its cards as placed, slots for the rest; face down, backs.
function Board(props: { rows: Rows; faceDown?: boolean; fresh?: Rows; small?: boolean; words?: Partial<Record<Row, string>> }) {
  return (
    <div class={`of-board${props.faceDown ? " face-down" : ""}`}>
      {kRows.map((r) => (
        <div class="of-row" data-row={r}>
          <span class="of-row-cards">
            {props.faceDown
              ? Array.from({ length: kRowSize[r] }, () => <CardBack small={props.small} />)
              : [
                  ...props.rows[r].map((c) => <Card card={c} small={props.small} />),
                  ...(props.fresh?.[r] ?? []).map((c) => <Card card={c} small={props.small} selected />),
                  ...Array.from({ length: Math.max(0, kRowSize[r] - props.rows[r].length - (props.fresh?.[r].length ?? 0)) }, () => (
                    <span class={`card slot${props.small ? " small" : ""}`} aria-hidden="true" />
                  )),
                ]}
          </span>
          {props.words?.[r] ? <span class="row-words">{props.words[r]}</span> : null}
        </div>
      ))}
    </div>
  );
}

// The viewer's turn: the cards to place and where they go.
function Placer(props: { c: Controller; view: TableView; of: OpenFaceView; placed: Rows }) {
  const { c, view, of, placed } = props;
  const [p, setP] = useState<Placing>(emptyPlacing());
  const [chosen, setChosen] = useState<Target | null>(null);
  const [preview, setPreview] = useState<OpenFacePreviewReply | null>(null);
  const [refusal, setRefusal] = useState("");
  const [sending, setSending] = useState(false);
  const [hinted, setHinted] = useState<string>("");
  const due = of.discardsDue;
  const hintsOn = view.config["hints"] !== false;
  const fantasy = (of.fantasyland[view.mySeat ?? -1] ?? 0) > 0;
  const rows = withPlacing(placed, p);

  const change = (next: Placing) => {
    setP(next);
    setRefusal("");
  };
  // The engine names each row as it would be, and flags a foul the full rows hold.
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      c.conn
        .request("preview", { table: view.id, front: rows.front.join(" "), middle: rows.middle.join(" "), back: rows.back.join(" ") })
        .then((r) => live && "rows" in r && !("specials" in r) && setPreview(r as OpenFacePreviewReply))
        .catch(() => {});
    }, 100);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [rows.front.join(), rows.middle.join(), rows.back.join()]);

  const { handlers, ghost } = useCardDrag(
    (card, target) => change(target === "hand" ? unput(p, card) : put(p, placed, card, target as Target, due)),
    (card) => {
      if (assigned(p).has(card)) return change(unput(p, card));
      const to = targetOf(p, placed, chosen, due);
      if (to) change(put(p, placed, card, to, due));
    },
  );
  const send = async () => {
    setSending(true);
    try {
      const rows = { front: p.front.join(" "), middle: p.middle.join(" "), back: p.back.join(" "), discard: p.discard.join(" ") };
      await c.conn.request("act", { table: view.id, ...rows });
    } catch (e) {
      setRefusal(e instanceof RequestError ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };
  const hint = async () => {
    const r = await c.ask("hint", { table: view.id });
    if (!r || !r.placement) return;
    const h = r.placement;
    change({ front: cardList(h.front), middle: cardList(h.middle), back: cardList(h.back), discard: cardList(h.discard) });
    setHinted(r.fantasyland ? `The solver's placement: ${r.royalties ?? 0} in royalties${r.stays ? ", and it stays in Fantasyland" : ""}.` : "The bot's placement.");
  };
  const left = of.cards.filter((card) => !assigned(p).has(card));
  const foul = preview?.foul ?? null;
  return (
    <section class="of-placer" aria-label="your placement" data-hand={of.hand} data-street={of.street}>
      <p class="of-prompt">
        {fantasy
          ? `Fantasyland: set all ${of.cards.length} cards at once, ${due} to discard.`
          : due > 0
            ? `Place ${of.cards.length - due} of your ${of.cards.length} cards and discard ${due}.`
            : `Place your ${of.cards.length} card${of.cards.length === 1 ? "" : "s"}.`}
      </p>
      {kRows.map((r) => {
        const judged = preview?.rows[r];
        const full = rows[r].length === kRowSize[r];
        return (
          <div class={`row-slot${chosen === r ? " chosen" : ""}${full ? " full" : ""}`} data-drop={r} data-row={r} aria-label={`${r} row`}>
            <button type="button" class="row-name" onClick={() => setChosen(chosen === r ? null : r)} aria-pressed={chosen === r} title="Cards you click go to this row">
              {kRowNames[r]} ({rows[r].length}/{kRowSize[r]})
            </button>
            <span class="row-cards">
              {placed[r].map((card) => (
                <Card card={card} />
              ))}
              {p[r].map((card) => (
                <DragCard card={card} handlers={handlers(card)} chosen />
              ))}
              {Array.from({ length: kRowSize[r] - rows[r].length }, () => (
                <span class="card slot" aria-hidden="true" />
              ))}
            </span>
            <span class="row-words" data-words={judged?.words ?? ""}>
              {judged?.words ?? ""}
              {judged && judged.royalty > 0 ? ` (royalty ${judged.royalty})` : ""}
            </span>
          </div>
        );
      })}
      {due > 0 && (
        <div class={`row-slot discard-slot${chosen === "discard" ? " chosen" : ""}`} data-drop="discard" aria-label="discards">
          <button type="button" class="row-name" onClick={() => setChosen(chosen === "discard" ? null : "discard")} aria-pressed={chosen === "discard"}>
            Discard ({p.discard.length}/{due})
          </button>
          <span class="row-cards">
            {p.discard.map((card) => (
              <DragCard card={card} handlers={handlers(card)} chosen />
            ))}
            {Array.from({ length: due - p.discard.length }, () => (
              <span class="card slot" aria-hidden="true" />
            ))}
          </span>
          <span class="row-words">face down; nobody else sees it</span>
        </div>
      )}
      {foul && (
        <p class="foul" role="alert" data-code={foul.code}>
          Foul: {foul.message.replace(/^[a-z_]+: /, "")}. A fouled hand loses every row to each player and collects no royalties.
        </p>
      )}
      {refusal && (
        <p class="refusal" role="alert">
          Refused: {refusal}
        </p>
      )}
      <div class="my-cards" data-drop="hand" aria-label="cards to place">
        {left.map((card) => (
          <DragCard card={card} handlers={handlers(card)} />
        ))}
        {left.length === 0 && <span class="all-placed">Every card has its place.</span>}
      </div>
      {hinted && <p class="hinted">{hinted}</p>}
      <div class="arrange-buttons">
        <button type="button" onClick={() => change(emptyPlacing())} disabled={assigned(p).size === 0}>
          Take back
        </button>
        {hintsOn && (
          <button type="button" onClick={() => void hint()}>
            Hint
          </button>
        )}
        <button type="button" class={`primary${foul ? " risky" : ""}`} disabled={!ready(p, of.cards, due) || sending} onClick={() => void send()}>
          {foul ? "Confirm (fouls)" : "Confirm"}
        </button>
      </div>
      {ghost && (
        <span class="drag-ghost" style={{ left: `${ghost.x}px`, top: `${ghost.y}px` }} aria-hidden="true">
          <Card card={ghost.card} />
        </span>
      )}
    </section>
  );
}

// The end: every seat's rows with their hands, fouls and royalties; each payment with its reason;
// what each pair paid; nets and stacks; who goes to Fantasyland; the fairness check.
export function OpenFaceResult(props: { name: (seat: number) => string; end: OpenFaceEndView; last?: boolean }) {
  const { name, end } = props;
  const chips = (n: number) => `${n} chip${n === 1 ? "" : "s"}`;
  return (
    <section class={`reveal of-end${props.last ? " last" : ""}`} aria-label={props.last ? "the last hand's end" : "the hand's end"}>
      <h3>{props.last ? `The last hand (${end.hand})` : `Hand ${end.hand}: the rows`}</h3>
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
          {end.rows.map((r) => (
            <tr data-seat={r.seat} data-fouled={String(r.fouled)}>
              <td>
                {name(r.seat)}
                {r.fouled && <div class="foul-mark">fouled</div>}
                {r.fantasyland > 0 && <div class="sub">in Fantasyland ({r.fantasyland} cards)</div>}
                {r.by_server > 0 && <div class="sub">{r.by_server} placed by the server</div>}
              </td>
              {kRows.map((row) => (
                <td>
                  <Hand cards={cardList(r[row])} count={kRowSize[row]} small />
                  <div class="row-words">
                    {r.words[row]}
                    {r.royalties[row] > 0 ? ` · royalty ${r.royalties[row]}` : ""}
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Points, pair by pair</h4>
      <ol class="payments">
        {end.payments.map((p) => (
          <li data-from={p.from} data-to={p.to} data-reason={p.reason}>
            {name(p.from)} owes {name(p.to)} {p.units} point{p.units === 1 ? "" : "s"} ({chips(p.chips)}): {openFaceReason(p.reason, end.rows.find((r) => r.seat === p.to)?.words)}
          </li>
        ))}
        {end.payments.length === 0 && <li>No points change hands.</li>}
      </ol>
      {end.settled.length > 0 && (
        <>
          <h4>Settled, each pair on its net</h4>
          <ol class="settled">
            {end.settled.map((s) => (
              <li data-from={s.from} data-to={s.to} data-chips={s.chips}>
                {name(s.from)} pays {name(s.to)} {chips(s.chips)}
                {s.chips < s.units * (end.payments[0] ? end.payments[0].chips / end.payments[0].units : 1) ? ": a stack's backing ran out" : ""}
              </li>
            ))}
          </ol>
        </>
      )}
      <NetsTable
        seats={end.rows.map((r) => r.seat)}
        name={name}
        columns={[
          { head: "Points", cell: (seat) => <td>{end.points[seat]}</td> },
          { head: "Net", cell: (seat) => <NetCell net={end.net[seat]!} /> },
          { head: "Stack now", cell: (seat) => <td>{end.stacks[seat]}</td> },
        ]}
        data={(seat) => ({ "data-net": end.net[seat], "data-stack": end.stacks[seat] })}
      />
      {end.fantasyland.map((f) => (
        <p class="of-fantasy-next" data-seat={f.seat}>
          {name(f.seat)} plays the next hand in Fantasyland with {f.cards} cards.
        </p>
      ))}
      <FairnessLine verdict={end.verdict} />
    </section>
  );
}

function HowToPlay(props: { pineapple: boolean }) {
  return (
    <details class="how-to">
      <summary>How to play</summary>
      <p>
        Build three poker hands face up, a few cards at a time: the <b>back</b> (5 cards), the <b>middle</b> (5) and the <b>front</b> (3). You get 5 cards and
        place them all, then{" "}
        {props.pineapple ? (
          <>
            four times 3 cards: place 2 and <b>discard</b> 1, face down.
          </>
        ) : (
          <>one card at a time.</>
        )}{" "}
        Placed cards never move. When all 13 are set, the back must rank at least as high as the middle, and the middle at least as high as the front, or the
        hand <b>fouls</b>: it loses every row and collects nothing.
      </p>
      <p>
        Each pair of players compares rows: a point a row won, 3 more for all three (a scoop). Strong rows earn <b>royalties</b> from every other player
        (a pair of sixes or better in front, trips or better in the middle, a straight or better in the back). A pair of queens or better in front, unfouled,
        sends you to <b>Fantasyland</b>: next hand you get all your cards at once and set them last, hidden until the end.
      </p>
    </details>
  );
}

export function OpenFaceTable(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const of = view.openFace;
  const running = of !== null && !of.end;
  const now = useNow(running && !!of?.deadline);
  const me = view.mySeat;
  const cfg = view.config;
  const pineapple = cfg["variant"] !== "classic";
  const left = running && of!.deadline ? Math.max(0, of!.deadline - now) : 0;
  const myTurn = running && me !== null && of!.toAct === me && of!.cards.length > 0;
  const name = (seat: number) => nameOf(view, seat);
  return (
    <div class="table-screen open-face">
      <h2>
        Table {view.id}{" "}
        <span class="sub">
          Open-face Chinese poker, {pineapple ? "Pineapple" : "classic"}, {String(cfg["unit"])} chip{cfg["unit"] === 1 ? "" : "s"} a point
          {cfg["progressive"] ? ", progressive Fantasyland" : ""}
          {cfg["stay"] === "strict" ? ", strict stay" : ""}
          {cfg["chip_limit"] ? ", chip limit" : ""}
        </span>
      </h2>
      {view.closed && <p class="notice info">This table has closed.</p>}
      <HowToPlay pineapple={pineapple} />
      <div class="of-seats" aria-label="players">
        {view.seats.map((s) => {
          if (!s) return null;
          const dealt = of?.seats.includes(s.seat) ?? false;
          const fl = of?.fantasyland[s.seat] ?? 0;
          const faceDown = of?.faceDown.includes(s.seat) && s.seat !== me;
          return (
            <div class={`of-seat${s.seat === me ? " mine" : ""}${running && of!.toAct === s.seat ? " to-act" : ""}`} data-seat={s.seat} aria-label={`seat ${s.seat + 1}: ${s.name}`}>
              <div class="name">
                <BotMark name={s.name} />
                {s.name}
                {of?.dealer === s.seat && <span class="dealer-mark" title="dealer"> D</span>}
              </div>
              <div class="stack" data-stack={s.stack}>
                {s.stack}
              </div>
              {fl > 0 && (
                <div class="of-fantasy" data-cards={fl}>
                  Fantasyland · {fl} cards
                </div>
              )}
              <div class="status">
                {!s.connected ? "disconnected" : s.sittingOut ? "sitting out" : running && of!.toAct === s.seat ? "placing…" : ""}
              </div>
              {dealt && of && <Board rows={of.boards[s.seat] ?? { front: [], middle: [], back: [] }} faceDown={!!faceDown && running} small />}
            </div>
          );
        })}
      </div>
      {running && of!.toAct !== null && (
        <div class="deal-clock" role="timer" aria-label="time left">
          Hand {of!.hand}: {name(of!.toAct)} to place, {Math.ceil(left / 1000)}s
        </div>
      )}
      {running && me !== null && of!.discards.length > 0 && (
        <p class="of-discards" aria-label="your discards">
          Your discards: {of!.discards.map((d) => <Card card={d} small />)}
        </p>
      )}
      {myTurn && <Placer key={`${of!.handId}.${of!.street}`} c={c} view={view} of={of!} placed={of!.boards[me!] ?? { front: [], middle: [], back: [] }} />}
      {running && me !== null && !myTurn && (of!.fantasyland[me] ?? 0) > 0 && (
        <div class="waiting of-fantasy-wait">
          <p>You are in Fantasyland: you set your {of!.cards.length} cards once the others have finished.</p>
          <Hand cards={of!.cards} count={of!.cards.length} small />
        </div>
      )}
      {of?.end && <OpenFaceResult name={name} end={of.end} />}
      {running && of!.last && <OpenFaceResult name={name} end={of!.last} last />}
      {!of && <p class="waiting">Waiting for two players to deal.</p>}
      <TableSide c={c} view={view} balance={props.balance} noun="hand" />
    </div>
  );
}
