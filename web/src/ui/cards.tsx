// Cards as people read them: rank and suit symbol, red and black (or four colours), and backs for
// the cards a viewer may not see.
const kSuits: Record<string, { symbol: string; name: string }> = {
  s: { symbol: "♠", name: "spades" },
  h: { symbol: "♥", name: "hearts" },
  d: { symbol: "♦", name: "diamonds" },
  c: { symbol: "♣", name: "clubs" },
};
const kRanks: Record<string, string> = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const kRankNames: Record<string, string> = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", "9": "nine", "8": "eight", "7": "seven",
  "6": "six", "5": "five", "4": "four", "3": "three", "2": "two",
};

export function cardName(card: string): string {
  if (card === "Xx") return "joker";
  const suit = kSuits[card[1] ?? ""];
  return `${kRankNames[card[0] ?? ""] ?? card[0]} of ${suit?.name ?? card[1]}`;
}

export function Card(props: { card: string; selected?: boolean; onClick?: () => void; small?: boolean; hole?: boolean }) {
  const { card } = props;
  const suit = kSuits[card[1] ?? ""];
  const rank = card === "Xx" ? "★" : (kRanks[card[0] ?? ""] ?? card[0]);
  const cls = `card suit-${card[1] ?? "x"}${props.selected ? " selected" : ""}${props.small ? " small" : ""}${props.hole ? " hole" : ""}`;
  const face = (
    <>
      <span class="rank">{rank}</span>
      <span class="pip">{suit?.symbol ?? "🃏"}</span>
    </>
  );
  return props.onClick ? (
    <button type="button" class={cls} aria-label={cardName(card)} aria-pressed={props.selected} onClick={props.onClick} data-card={card}>
      {face}
    </button>
  ) : (
    <span class={cls} role="img" aria-label={`${cardName(card)}${props.hole ? ", face down" : ""}`} data-card={card}>
      {face}
    </span>
  );
}

export function CardBack(props: { small?: boolean }) {
  return <span class={`card back${props.small ? " small" : ""}`} role="img" aria-label="face-down card" />;
}

// A seat's hand: backs for the cards the viewer may not see (dealt first, in stud), then the
// cards it may. With `up`, the viewer's own cards that others cannot see are marked as hole cards.
export function Hand(props: {
  cards: string[];
  count: number;
  small?: boolean;
  up?: string[];
  selected?: Set<string>;
  onPick?: (card: string) => void;
}) {
  const backs = Math.max(0, props.count - props.cards.length);
  return (
    <span class="hand">
      {Array.from({ length: backs }, () => (
        <CardBack small={props.small} />
      ))}
      {props.cards.map((c) => (
        <Card
          card={c}
          small={props.small}
          hole={props.up !== undefined && !props.up.includes(c)}
          selected={props.selected?.has(c)}
          onClick={props.onPick ? () => props.onPick!(c) : undefined}
        />
      ))}
    </span>
  );
}
