// Tournaments in words, as the screens show them: places, levels, the clock to the next level and
// break, and where the player stands. Pure, so that it is tested without a browser.

// A level as the server gives it (`level` in `tournament` and its pushes).
export interface LevelInfo {
  level?: number;
  small_blind?: number;
  big_blind?: number;
  ante?: number;
  big_blind_ante?: number;
  small_bet?: number;
  big_bet?: number;
  bring_in?: number;
  minutes?: number;
  hands?: number;
}

// A standing as the server gives it.
export interface Standing {
  name: string;
  place: number | null;
  prize: number;
  tied: boolean;
  stack?: number;
  table?: number;
  busted?: boolean; // out of chips in the entry period, not placed yet
  entry?: number; // a re-entry: the account's second, third...
}

// A deal on the table, as the server gives it (`deal` in the `tournament` push and view).
export interface DealInfo {
  method: "icm" | "chips";
  proposed_by: string;
  accepted: string[];
  terms?: { name: string; stack: number; prize: number }[];
  ms_left?: number;
}

// The deal in a sentence: who proposed what, and who must still answer.
export function dealWords(d: DealInfo): string {
  const how = d.method === "icm" ? "by ICM" : "by chip count";
  if (!d.terms) return `${d.proposed_by} proposes a deal ${how}: its terms come when the hand ends.`;
  const waiting = d.terms.map((t) => t.name).filter((n) => !d.accepted.includes(n));
  return `${d.proposed_by} proposes a deal ${how}. ${waiting.length ? `Waiting for ${waiting.join(", ")}.` : "Everyone agreed."}`;
}

// 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st…
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

// "blinds 25/50, ante 5" (or stud's "ante 5, bring-in 10, bets 50/100").
export function levelWords(l: LevelInfo): string {
  const parts: string[] = [];
  if (l.big_blind) parts.push(`blinds ${l.small_blind ?? 0}/${l.big_blind}`);
  if (l.ante) parts.push(`ante ${l.ante}`);
  if (l.big_blind_ante) parts.push(`big-blind ante ${l.big_blind_ante}`);
  if (l.bring_in) parts.push(`bring-in ${l.bring_in}`);
  if (l.small_bet && l.big_bet) parts.push(`bets ${l.small_bet}/${l.big_bet}`);
  return parts.join(", ");
}

// Minutes and seconds: "4:05"; an hour or more, "1:04:05".
export function clockWords(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (x: number) => String(x).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// How long until the next break, from the structure (`config.levels`: levels and
// {break_minutes}), the level now and the time left in it; null when no break comes, or the
// levels count hands.
export function breakInMs(levels: unknown[], level: number, levelMsLeft: number): number | null {
  let seen = 0; // levels passed, breaks apart
  let ms = levelMsLeft;
  let after = false; // past the current level
  for (const entry of levels) {
    const e = entry as Record<string, number>;
    if (e["break_minutes"] !== undefined) {
      if (after) return ms;
      continue;
    }
    seen += 1;
    if (seen === level) after = true;
    else if (after) {
      if (!e["minutes"]) return null;
      ms += e["minutes"] * 60_000;
    }
  }
  return null;
}

// Where the player stands among those still in, by stack (1: the biggest), and how many are in.
export function standingOf(standings: Standing[], name: string): { rank: number; of: number; stack: number } | null {
  // (Out of chips in the entry period, waiting for its close: not in play.)
  const inPlay = standings.filter((s) => s.place === null && s.stack !== undefined && !s.busted);
  const me = inPlay.filter((s) => s.name === name).pop(); // a re-entry: the last entry
  if (!me) return null;
  const rank = 1 + inPlay.filter((s) => (s.stack ?? 0) > (me.stack ?? 0)).length;
  return { rank, of: inPlay.length, stack: me.stack ?? 0 };
}

// The standings in the order a tournament's page shows them: those still in by stack, largest
// first, then those out by place.
export function standingsOrder(standings: Standing[]): Standing[] {
  const inPlay = standings.filter((s) => s.place === null).sort((a, b) => (b.stack ?? 0) - (a.stack ?? 0));
  const out = standings.filter((s) => s.place !== null).sort((a, b) => (a.place ?? 0) - (b.place ?? 0));
  return [...inPlay, ...out];
}

// A player's finish in words: "You won tournament 4: first place, prize 420." or "You finished
// 3rd (tied) in tournament 4, prize 90."
export function finishWords(tournament: number, place: number, prize: number, tied: boolean): string {
  if (place === 1 && !tied) return `You won tournament ${tournament}: first place${prize > 0 ? `, prize ${prize}` : ""}.`;
  return `You finished ${ordinal(place)}${tied ? " (tied)" : ""} in tournament ${tournament}${prize > 0 ? `, prize ${prize}` : ""}.`;
}

// What a player may buy now in a tournament's entry period, from its view (`tournament`): a late
// registration (no entry yet), a re-entry (their last entry out of chips, re-entries left), a
// rebuy (their stack at most the limit) or the add-on (with chips). The server has the last word:
// these only say which buttons to show.
export function purchases(view: Record<string, unknown>, name: string): { register: boolean; reenter: boolean; rebuy: boolean; addOn: boolean } {
  const standings = (view["standings"] as Standing[] | undefined) ?? [];
  const config = (view["config"] as Record<string, number> | undefined) ?? {};
  const mine = standings.filter((s) => s.name === name);
  const me = mine[mine.length - 1];
  const stillIn = me !== undefined && me.place === null;
  return {
    register: view["late_registration_open"] === true && me === undefined,
    reenter: view["reentry_open"] === true && stillIn && me.busted === true && mine.length <= (config["reentries"] ?? 0),
    // Out of chips, only while they keep their seat (a table in their standing).
    rebuy: view["rebuys_open"] === true && stillIn && (me.stack ?? 0) <= (config["rebuy_stack_limit"] ?? 0) && (!me.busted || me.table !== undefined),
    addOn: view["add_on_open"] === true && stillIn && (me.stack ?? 0) > 0,
  };
}
