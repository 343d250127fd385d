// The poker table's pure logic: bet sizes inside what `legal` allows, pre-actions, and where the
// seats sit around the oval. The server judges every action; this only offers what it allows.
import type { Legal } from "./gen/protocol";

export type Structure = "no-limit" | "pot-limit" | "fixed-limit";

// A bet or raise total, kept inside min_to..max_to.
export function clampTo(legal: Legal, to: number): number {
  if (!Number.isFinite(to)) return legal.min_to;
  return Math.min(legal.max_to, Math.max(legal.min_to, Math.round(to)));
}

export interface Preset {
  label: string;
  to: number;
}

// Preset totals for a bet or raise: min, ½ pot, ¾ pot, pot and all-in, where the structure lets
// the size vary. A pot-sized raise is a call followed by a bet of the pot after that call:
// to = the bet level now + (pot + the call). `pot` counts every chip in the middle and in front of
// the seats; `level` is the highest bet of the round (what a call matches).
export function presets(
  legal: Legal,
  structure: Structure,
  pot: number,
  level: number,
): Preset[] {
  if (!(legal.bet || legal.raise) || legal.min_to >= legal.max_to || structure === "fixed-limit")
    return [];
  const potAfterCall = pot + legal.call_amount;
  const out: Preset[] = [{ label: "Min", to: legal.min_to }];
  for (const [label, frac] of [
    ["½ pot", 0.5],
    ["¾ pot", 0.75],
    ["Pot", 1],
  ] as const) {
    const to = clampTo(legal, level + Math.floor(potAfterCall * frac));
    if (to > legal.min_to && to < legal.max_to) out.push({ label, to });
  }
  out.push({ label: structure === "pot-limit" ? "Max" : "All-in", to: legal.max_to });
  // Two presets with the same total say the same thing once.
  return out.filter((p, i) => out.findIndex((q) => q.to === p.to) === i);
}

// What a player may ask for before their turn, as on the big sites.
export type PreAction = "check_fold" | "check" | "call_any";

// The action a pre-action becomes when the turn comes, or null when it no longer applies (then
// the player chooses by hand).
export function fromPreAction(
  pre: PreAction,
  legal: Legal,
): { action: "fold" | "check" | "call" } | null {
  switch (pre) {
    case "check_fold":
      return legal.check ? { action: "check" } : legal.fold ? { action: "fold" } : null;
    case "check":
      return legal.check ? { action: "check" } : null;
    case "call_any":
      return legal.call ? { action: "call" } : legal.check ? { action: "check" } : null;
  }
}

// A pre-action chosen at bet level `chosenAt` still stands at level `now`: "check" is dropped
// once somebody bets (the situation changed); the others hold.
export function preActionHolds(pre: PreAction, chosenAt: number, now: number): boolean {
  return pre !== "check" || now === chosenAt;
}

// Where seat `seat` of `seats` sits on the oval, in percent of the table's box, turned so that
// `mine` (the viewer's seat, or 0 for a spectator) is at the bottom centre.
export function seatPlace(seat: number, seats: number, mine: number): { x: number; y: number } {
  const k = (((seat - mine) % seats) + seats) % seats;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / seats; // clockwise from the bottom
  return { x: 50 + 44 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

export function cardList(text: string | undefined): string[] {
  return text ? text.split(" ").filter((c) => c.length > 0) : [];
}
