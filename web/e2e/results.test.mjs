// Results a player can read (issue 45): three players and a short stack all in, so that the hand
// ends with a main pot and a side pot. Each pot is named with its own winners (a split as split),
// shown hands are named with their kicker, the last action and the blinds show at the seats, the
// results stay on screen into the next hand as "the last hand" until closed, and a player who
// busts stays on screen, marked, until the next hand. Checked against the hand's own win and
// show events, whatever the cards.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, room, screenshots, sleep, until } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

const lastLegal = (rec) => rec.received.findLast((m) => m.type === "table" && m.kind === "update" && m.turn?.legal)?.turn.legal;
const name = (p) => p.rec.received.find((m) => ["guest", "login", "register"].includes(m.type) && m.ok).account.name;

test("a side pot, the last hand kept on screen, the seats' last actions and blinds", { timeout: 120_000 }, async () => {
  const people = [];
  for (const n of ["ann", "bob", "cy"]) people.push(await guestPage(browser, server, n));
  const [ann, bob, cy] = people;
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption("holdem");
  await form.locator('select[name="structure"]').selectOption("no-limit");
  const settings = { seats: 3, min_buy_in: 20, max_buy_in: 400, decision_s: 60, hand_delay_s: 3, showdown_delay_s: 3, runout_s: 0.3 };
  // hand_delay_s: the first hand waits for the third player to sit down.
  for (const [k, v] of Object.entries(settings)) await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  const table = (await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok))).table;
  for (const [p, buyIn] of [[ann, 20], [bob, 200], [cy, 200]]) {
    await p.page.locator(`tr[data-table="${table}"]`).getByRole("button", { name: "Join" }).click();
    await p.page.getByLabel("buy-in", { exact: true }).fill(String(buyIn));
    await p.page.getByRole("button", { name: "Sit down" }).click();
    await until(`${p.name}'s seat`, () => p.rec.received.find((m) => m.type === "join" && m.ok));
  }
  // Ann goes all in; Bob bets the least he may after the flop, and Cy calls: a side pot.
  let checkedSeats = false;
  const ended = () => bob.rec.received.some((m) => m.kind === "hand_end");
  const deadline = Date.now() + 60_000;
  while (!ended()) {
    assert.ok(Date.now() < deadline, "the hand did not end");
    for (const p of people) {
      const bar = p.page.locator(".action-bar");
      if (!(await bar.isVisible().catch(() => false))) continue;
      const legal = lastLegal(p.rec);
      if (!checkedSeats) {
        // The blinds are marked, and what each seat did shows by it.
        checkedSeats = true;
        const marks = await p.page.locator(".blind-mark").allInnerTexts();
        assert.deepEqual(marks.sort(), ["BB", "SB"]);
        await p.page.screenshot({ path: join(screenshots, "seat-marks.png") });
      }
      if (p === ann) {
        await bar.getByRole("button", { name: "All-in" }).click();
        await bar.getByRole("button", { name: /^Raise to/ }).click();
      } else if (p === bob && legal.bet) {
        await bar.getByRole("button", { name: /^Bet/ }).click();
      } else {
        await bar.getByRole("button", { name: legal.check ? "Check" : /^Call / }).click();
      }
      await bar.waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
      // Ann's raise never ends the betting round: it shows at her seat.
      if (p === ann) {
        const seat = ann.rec.received.find((m) => m.type === "join" && m.ok).seat;
        await bob.page.locator(`.seat[data-seat="${seat}"] .last-action`).filter({ hasText: "raise to 20, all in" }).waitFor({ timeout: 5000 });
      }
    }
    await sleep(50);
  }
  // The pots and their winners, from the hand's own events.
  const events = bob.rec.received.filter((m) => m.kind === "update").flatMap((m) => m.events);
  const wins = events.filter((e) => e.kind === "win");
  const shows = events.filter((e) => e.kind === "show" && !e.early); // named at the showdown
  const pots = [...new Set(wins.map((w) => w.pot))];
  assert.ok(pots.length >= 2, `a main pot and a side pot: ${JSON.stringify(events)}`);
  const seatName = Object.fromEntries(people.map((p) => [p.rec.received.find((m) => m.type === "join" && m.ok).seat, name(p)]));
  const results = bob.page.getByRole("status", { name: "results" });
  await results.waitFor();
  for (const pot of pots) {
    const winners = wins.filter((w) => w.pot === pot);
    const label = pot === 0 ? "Main pot" : `Side pot ${pot}`;
    const line = results.locator(".pot-line").filter({ hasText: label });
    const text = await line.innerText();
    for (const w of winners) assert.ok(text.includes(seatName[w.seat]) && text.includes(String(w.amount)), `${label}: ${text} names ${seatName[w.seat]} and ${w.amount}`);
    if (winners.length > 1) assert.match(text, /split/);
  }
  // Shown hands named with their kicker where one decides, as the server said.
  for (const s of shows) {
    assert.ok(s.made, "a show names the hand in words");
    const made = await bob.page.locator(`.seat[data-seat="${s.seat}"] .made`).innerText();
    assert.equal(made, s.made);
  }
  await bob.page.screenshot({ path: join(screenshots, "side-pot-results.png") });
  // Ann busted unless she won the main pot: then she stays on screen, marked "left", until the
  // next hand starts.
  const annSeat = ann.rec.received.find((m) => m.type === "join" && m.ok).seat;
  const busted = !wins.some((w) => w.seat === annSeat);
  if (busted) {
    await until("ann's cash-out", () => bob.rec.received.find((m) => m.kind === "left" && m.seat === annSeat));
    assert.equal(await bob.page.locator(`.seat[data-seat="${annSeat}"] .status`).innerText(), "LEFT");
  }
  // The next hand: the results stay as "the last hand" until Bob closes them.
  await until("the next hand", () => bob.rec.received.filter((m) => m.kind === "hand_start").length === 2, 20_000);
  const last = bob.page.getByRole("status", { name: "the last hand" });
  await last.waitFor({ timeout: 5000 });
  assert.match(await last.innerText(), /Last hand \(1\)/);
  if (busted) assert.equal(await bob.page.locator(`.seat[data-seat="${annSeat}"]`).count(), 0);
  await bob.page.screenshot({ path: join(screenshots, "last-hand.png") });
  await last.getByRole("button", { name: "close the results" }).click();
  await last.waitFor({ state: "detached", timeout: 2000 });
  for (const p of people) assert.deepEqual(p.rec.bad, [], `${p.name}: frames or page errors`);
  for (const p of people) await p.context.close();
});
