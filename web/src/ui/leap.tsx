// A leap rummy table: the players with their live scores, tokens and the clock; the stock; the
// melds grouped by leap with their owners, cards and points, every leaptoken's holder and the leaps
// open to the player; the player's hand, sortable; the turn's phase with what may be done, each
// meld or extension judged by the engine before it is sent (`preview`), conjoins shown with the
// points before and after; retiring with its cost; and the game's end with its fairness check.
import { useEffect, useState } from "preact/hooks";
import { RequestError } from "../connection";
import type { Controller } from "../controller";
import type { LeapMeldView, LeapPreviewReply } from "../gen/protocol";
import { alongLeap, leapCount, meldsByLeap, type LeapEnd, type LeapView } from "../games/leap";
import { cardList, nameOf as seatName } from "../view";
import type { TableView } from "../tableview";
import { Card, Hand } from "./cards";
import { BotMark, Confirm, FairnessLine, NetCell, NetsTable, TableSide, useNow } from "./shared";

function nameOf(view: TableView, seat: number | null | undefined): string {
  return seatName(view, seat, "nobody");
}

export function Melds(props: { g: Pick<LeapView, "melds" | "tokens" | "openLeaps" | "seat">; name: (seat: number | null) => string; me: number | null; target?: number | null; onPick?: (m: LeapMeldView) => void; leaps: number }) {
  const { g, name, me } = props;
  const groups = new Map(meldsByLeap(g.melds));
  const myTurn = me !== null && g.seat === me;
  return (
    <section class="leaps" aria-label="melds by leap">
      {Array.from({ length: props.leaps }, (_, i) => i + 1).map((k) => {
        const holder = g.tokens[k - 1] ?? null;
        const open = myTurn && g.openLeaps.includes(k);
        const melds = groups.get(k) ?? [];
        return (
          <div class={`leap-group${open ? " open" : ""}`} data-leap={k} data-holder={holder ?? ""}>
            <div class="leap-head">
              <b>Leap {k}</b>
              <span class="token">{holder === null ? "token free" : `token: ${name(holder)}`}</span>
              {open && <span class="open-mark">open to you</span>}
            </div>
            {melds.map((m) => {
              const mine = m.seat === me;
              const body = (
                <>
                  <span class="owner">{name(m.seat)}</span>
                  <Hand cards={cardList(m.cards)} count={cardList(m.cards).length} small />
                  <span class="points">
                    {m.points} point{m.points === 1 ? "" : "s"}
                  </span>
                </>
              );
              return mine && props.onPick ? (
                <button type="button" class={`meld mine${props.target === m.meld ? " target" : ""}`} data-meld={m.meld} aria-pressed={props.target === m.meld} onClick={() => props.onPick!(m)} title="Extend this meld">
                  {body}
                </button>
              ) : (
                <div class={`meld${mine ? " mine" : ""}`} data-meld={m.meld}>
                  {body}
                </div>
              );
            })}
          </div>
        );
      })}
    </section>
  );
}

type Placement = "auto" | "low" | "high";

function Play(props: { c: Controller; view: TableView; g: LeapView }) {
  const { c, view, g } = props;
  const me = view.mySeat!;
  const [picked, setPicked] = useState<string[]>([]);
  const [target, setTarget] = useState<number | null>(null);
  const [place, setPlace] = useState<Placement>("auto");
  const [leap, setLeap] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<LeapPreviewReply | null>(null);
  const [joined, setJoined] = useState<LeapPreviewReply | null>(null);
  const [refusal, setRefusal] = useState("");
  const [sortLeap, setSortLeap] = useState<number | null>(null);
  const myTurn = g.seat === me;
  const melding = myTurn && g.phase === "melding";
  const ranks = Number(view.config["ranks"] ?? 13);
  const order = sortLeap === null ? g.cards : alongLeap(g.cards, sortLeap, ranks);

  const body = (join?: number) => {
    if (target === null) return { action: "meld" as const, cards: picked.join(" "), ...(leap ? { leap } : {}) };
    const cards = picked.join(" ");
    const ext = place === "low" ? { meld: target, low: cards } : place === "high" ? { meld: target, high: cards } : { meld: target, cards };
    return { action: "extend" as const, extensions: [{ ...ext, ...(join ? { join } : {}) }] };
  };

  // The engine's verdict on the selection, as a meld or as an extension of the chosen meld.
  useEffect(() => {
    setVerdict(null);
    setJoined(null);
    if (!picked.length || !melding) return;
    let live = true;
    const t = setTimeout(async () => {
      const p = await c.conn.request("preview", { table: view.id, ...body() }).catch(() => null);
      if (!live || !p || !("valid" in p)) return;
      setVerdict(p);
      if (p.valid && p.could_join.length) {
        const j = await c.conn.request("preview", { table: view.id, ...body(p.could_join[0]) }).catch(() => null);
        if (live && j && "valid" in j) setJoined(j);
      }
    }, 120);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [picked.join(), target, place, leap, melding, g.turn]);

  const send = async (action: Record<string, unknown>) => {
    setRefusal("");
    try {
      await c.conn.request("act", { table: view.id, ...(action as { action: "pursue" }) });
      setPicked([]);
      setTarget(null);
      setLeap(null);
      return true;
    } catch (e) {
      setRefusal(e instanceof RequestError ? e.message : String(e));
      return false;
    }
  };
  // The question before retiring, in the page's dialog; null: not asked.
  const [retiring, setRetiring] = useState<string | null>(null);
  const retire = async () => {
    const p = await c.conn.request("preview", { table: view.id, action: "retire" }).catch(() => null);
    const cost = p && "valid" in p ? `Your score would go from ${p.points_before} to ${p.points_after}: the ${g.cards.length} card${g.cards.length === 1 ? "" : "s"} in your hand cost ${p.points_before - p.points_after}.` : "";
    setRetiring(`Retire for the rest of the game? ${cost}`);
  };
  const clickCard = (card: string) => {
    // Once the turn's meld is made, a click discards: nothing else is left to do.
    if (melding && !g.mayMeld) return void send({ action: "discard", card });
    const i = picked.indexOf(card);
    setPicked(i >= 0 ? picked.filter((_, j) => j !== i) : [...picked, card]);
  };
  const leapsRun = verdict?.leaps ?? [];
  const openRun = leapsRun.filter((k) => g.openLeaps.includes(k));

  return (
    <section class="leap-play" aria-label="your hand">
      <div class="phase" role="status">
        {!myTurn
          ? `${nameOf(view, g.seat)}'s turn`
          : g.phase === "turn"
            ? "Your turn: pursue (draw two cards) or retire."
            : g.mayMeld
              ? "You have drawn: meld or extend once if you can, then discard a card."
              : "Click a card to discard it."}
      </div>
      <div class="my-hand" aria-label="your cards">
        {order.map((card) => (
          <Card card={card} selected={picked.includes(card)} onClick={myTurn && g.phase === "melding" ? () => clickCard(card) : undefined} />
        ))}
      </div>
      <div class="arrange-buttons">
        <button type="button" onClick={() => setSortLeap(null)} aria-pressed={sortLeap === null}>
          As dealt
        </button>
        {Array.from({ length: leapCount(ranks) }, (_, i) => i + 1).map((k) => (
          <button type="button" onClick={() => setSortLeap(k)} aria-pressed={sortLeap === k} title={`By suit, then in order along leap ${k}`}>
            Along leap {k}
          </button>
        ))}
      </div>
      {myTurn && g.phase === "turn" && (
        <div class="arrange-buttons">
          <button type="button" class="primary" onClick={() => void send({ action: "pursue" })}>
            Pursue (draw two)
          </button>
          <button type="button" class="fold" onClick={() => void retire()}>
            Retire…
          </button>
        </div>
      )}
      {myTurn && g.phase === "turn" && retiring && (
        <Confirm
          question={retiring}
          yes="Retire"
          no="Play on"
          onYes={() => {
            setRetiring(null);
            void send({ action: "retire" });
          }}
          onNo={() => setRetiring(null)}
        />
      )}
      {melding && g.mayMeld && (
        <>
          <Melds g={g} name={(s) => nameOf(view, s)} me={me} target={target} onPick={(m) => setTarget(target === m.meld ? null : m.meld)} leaps={g.tokens.length || leapCount(ranks)} />
          {target !== null && (
            <div class="arrange-buttons" role="group" aria-label="where the cards go">
              {(["auto", "low", "high"] as Placement[]).map((p) => (
                <button type="button" aria-pressed={place === p} onClick={() => setPlace(p)}>
                  {p === "auto" ? "Either end" : p === "low" ? "Place low" : "Place high"}
                </button>
              ))}
            </div>
          )}
          {verdict && (
            <div class={`verdict-line ${verdict.valid ? "ok" : "bad"}`} role="status">
              {verdict.valid
                ? `${target === null ? `Meld in leap ${verdict.leap}` : `Extend meld #${target}`}: points ${verdict.points_before} → ${verdict.points_after}`
                : `The engine would refuse it: ${verdict.refusal?.message ?? ""}`}
            </div>
          )}
          {target === null && openRun.length > 1 && (
            <div class="arrange-buttons" role="group" aria-label="choose the leap">
              {openRun.map((k) => (
                <button type="button" aria-pressed={(leap ?? verdict?.leap) === k} onClick={() => setLeap(k)}>
                  Leap {k}
                </button>
              ))}
            </div>
          )}
          {joined?.valid && (
            <div class="conjoin" role="status">
              This runs into your meld #{joined.joined[0]}: joined, the two become one meld of {cardList(joined.melds[0]?.cards).length} cards (points {joined.points_before} → {joined.points_after}).
              <button type="button" class="primary" onClick={() => void send({ ...body(joined.joined[0]) })}>
                Extend and join
              </button>
            </div>
          )}
          <div class="arrange-buttons">
            <button type="button" class="primary" disabled={!picked.length} onClick={() => void send(body())}>
              {target === null ? "Meld" : "Extend"}
            </button>
            <button type="button" disabled={picked.length !== 1} onClick={() => void send({ action: "discard", card: picked[0] })}>
              Discard {picked.length === 1 ? picked[0] : ""}
            </button>
          </div>
        </>
      )}
      {refusal && (
        <p class="refusal" role="alert">
          Refused: {refusal}
        </p>
      )}
    </section>
  );
}

export function LeapEndPanel(props: { name: (seat: number) => string; end: LeapEnd; chips: boolean; last?: boolean }) {
  const { end, name } = props;
  return (
    <section class={`reveal leap-end${props.last ? " last" : ""}`} aria-label={props.last ? "the last game's end" : "the game's end"}>
      <h3>{props.last ? `The last game (${end.hand}): final scores` : `Game ${end.hand}: final scores`}</h3>
      <NetsTable
        seats={end.scores.flatMap((score, seat) => (score === null ? [] : [seat]))}
        name={name}
        columns={[
          { head: "Score", cell: (seat) => <td>{end.scores[seat]}</td> },
          ...(props.chips
            ? [
                { head: "Chips", cell: (seat: number) => <NetCell net={end.net[seat]!} /> },
                { head: "Stack now", cell: (seat: number) => <td>{end.stacks[seat]}</td> },
              ]
            : []),
        ]}
        data={(seat) => ({ "data-score": end.scores[seat] ?? undefined, "data-net": end.net[seat] })}
      />
      <FairnessLine verdict={end.verdict} />
    </section>
  );
}

// The game in a few lines, for someone who has never played (the full rules: docs/leap-rummy.md).
function HowToPlay() {
  return (
    <details class="how-to">
      <summary>How to play</summary>
      <p>
        The ranks stand in a circle (A 2 3 … K, then A again). A <b>leap</b> of k walks round it k ranks at a time: leap 2 runs A 3 5 7 9 J K 2 4 6 8 10 Q. A{" "}
        <b>meld</b> is three or more cards of one suit that follow each other along one leap, and scores more the longer it is: 3 cards 1 point, 4 cards 3, 5
        cards 6, n cards (n−1)(n−2)/2.
      </p>
      <p>
        On your turn, <b>pursue</b> (draw two cards) or <b>retire</b> for good. After drawing you may lay one new meld or add cards to either end of your own
        melds, then discard a card to the bottom of the stock. Your first meld takes its leap's <b>token</b>: from then on you meld only in that leap, and
        nobody else may. When an extension runs into another of your melds, the two join into one, worth more than the two apart.
      </p>
      <p>The game ends when everyone has retired. Your score is your melds' points less the cards left in your hand (A 1 … J 11, Q 12, K 13).</p>
    </details>
  );
}

export function LeapTable(props: { c: Controller; view: TableView; balance: number }) {
  const { c, view } = props;
  const g = view.leap;
  const now = useNow(!!g?.deadline && !g.end);
  const me = view.mySeat;
  const cfg = view.config;
  const perPoint = Number(cfg["chips_per_point"] ?? 0);
  const ranks = Number(cfg["ranks"] ?? 13);
  const left = g?.deadline && !g.end ? Math.max(0, g.deadline - now) : 0;
  const inGame = g !== null && me !== null && g.players.includes(me) && !g.end;
  return (
    <div class="table-screen leap">
      <h2>
        Table {view.id}{" "}
        <span class="sub">
          Leap rummy, {ranks} ranks, {String(cfg["suits"]).replaceAll("_", " ")}, {String(cfg["leap_rule"])}, {perPoint ? `${perPoint} chip${perPoint === 1 ? "" : "s"} a point` : "for points"}
        </span>
      </h2>
      {view.closed && <p class="notice info">This table has closed.</p>}
      <HowToPlay />
      <div class="leap-seats" aria-label="players">
        {view.seats.map((s) => {
          if (!s) return null;
          const playing = g?.players.includes(s.seat);
          const acting = playing && g?.seat === s.seat && !g.end;
          const token = g?.tokens.findIndex((h) => h === s.seat) ?? -1;
          return (
            <div class={`lp-seat${s.seat === me ? " mine" : ""}${acting ? " acting" : ""}`} data-seat={s.seat} aria-label={`seat ${s.seat + 1}: ${s.name}`}>
              <div class="name">
                <BotMark name={s.name} />
                {s.name}
                {g?.dealer === s.seat && <span class="dealer-mark" title="dealer"> D</span>}
              </div>
              {perPoint > 0 && (
                <div class="stack" data-stack={s.stack}>
                  {s.stack}
                </div>
              )}
              {playing && g && (
                <div class="status">
                  score <b data-score={g.scores[s.seat] ?? 0}>{g.scores[s.seat] ?? 0}</b> · {g.handSizes[s.seat] ?? 0} cards
                  {token >= 0 && ` · leap ${token + 1}`}
                  {g.retired[s.seat] && " · retired"}
                </div>
              )}
              {acting && (
                <div class={`clock${g!.bankMs ? " bank" : ""}`} role="timer" aria-label="time left">
                  {Math.ceil(left / 1000)}s{g!.bankMs ? " (time bank)" : ""}
                </div>
              )}
              {!s.connected && <div class="status">disconnected</div>}
            </div>
          );
        })}
      </div>
      {g && !g.end && (
        <div class="stock" aria-label="stock">
          Stock: <b data-stock={g.stock}>{g.stock}</b> card{g.stock === 1 ? "" : "s"} · turn {g.turn}
        </div>
      )}
      {g && !g.end && !(inGame && g.seat === me && g.phase === "melding" && g.mayMeld) && (
        <Melds g={g} name={(s) => nameOf(view, s)} me={me} leaps={g.tokens.length || leapCount(ranks)} />
      )}
      {inGame && <Play key={g!.handId} c={c} view={view} g={g!} />}
      {g?.end && <LeapEndPanel name={(s) => nameOf(view, s)} end={g.end} chips={perPoint > 0} />}
      {g && !g.end && g.last && <LeapEndPanel name={(s) => nameOf(view, s)} end={g.last} chips={perPoint > 0} last />}
      {g?.end && <Melds g={{ ...g, openLeaps: [] }} name={(s) => nameOf(view, s)} me={me} leaps={g.tokens.length || leapCount(ranks)} />}
      {!g && <p class="waiting">Waiting for two players to deal.</p>}
      <TableSide c={c} view={view} balance={props.balance} noun="game" />
    </div>
  );
}
