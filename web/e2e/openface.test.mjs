// Open-face Chinese poker in the browser, against a real feltd started with --chosen-decks so that
// the deal is known: two people at a Pineapple table place every street by hand (clicks, a drag,
// the discard), one sees a foul flagged before confirming and takes it back, the other puts a
// pair of queens in front and goes to Fantasyland; the next hand deals them 14 cards at once, the
// other plays by hints, and the Fantasyland hand is set by the solver's hint. The end on screen is
// the server's; the history replays the hand.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { chooseDeck, guestPage, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--chosen-decks"], (s, b) => ([server, browser] = [s, b]));

// Seat 0 deals the first hand, so seat 1 places first: seat 1's cards street by street, seat 0's
// between them.
const kDeck = "Qs Qh As Ad Ac  2h 3h 4h 5c 6c  Ks Kh 2c  7h 8h 9h  Kd 3c 4d  Th Jh 2d  5h 6h 7s  3d 5d 6d  8s 9s Ts  7d 8d 9d";

async function createTable(p, fields) {
  await p.page.getByRole("button", { name: "New table" }).click();
  const form = p.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="game"]').selectOption("open-face");
  for (const [k, v] of Object.entries(fields)) {
    const select = form.locator(`select[name="${k}"]`);
    if (await select.count()) await select.selectOption(String(v));
    else await form.locator(`input[name="${k}"]`).fill(String(v));
  }
  await form.getByRole("button", { name: "Create table" }).click();
  const made = await until("the table", () => p.rec.received.find((m) => m.type === "create_table" && m.ok));
  return made.table;
}

async function sitDown(p, table) {
  await p.page.locator(`tr[data-table="${table}"]`).waitFor();
  await p.page.locator(`tr[data-table="${table}"]`).getByRole("button", { name: "Join" }).click();
  await p.page.getByRole("button", { name: "Sit down" }).click();
  await p.page.locator(".of-seats").waitFor();
}

const placer = (page) => page.locator(".of-placer").last();
const card = (page, c) => placer(page).locator(`.drag-card[data-card="${c}"]`).first();

// Clicks a target's name, then the cards: each goes there.
async function into(page, target, cards) {
  const slot = target === "discard" ? placer(page).locator(".discard-slot") : placer(page).locator(`.row-slot[data-row="${target}"]`);
  await slot.locator(".row-name").click();
  for (const c of cards) await card(page, c).click();
}

// Drags a card onto a row with the mouse (pointer events, as a finger's would be).
async function drag(page, c, row) {
  const from = await card(page, c).boundingBox();
  const to = await placer(page).locator(`.row-slot[data-row="${row}"]`).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width * 0.85, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

async function confirm(p) {
  const placed = p.rec.received.filter((m) => m.type === "act" && m.ok).length;
  await placer(p.page).getByRole("button", { name: "Confirm", exact: true }).click();
  await until("the placement accepted", () => p.rec.received.filter((m) => m.type === "act" && m.ok).length > placed);
}

// The street's cards on screen once it is this player's turn.
async function myTurn(p, street) {
  await until(`${p.name}'s turn on street ${street}`, () =>
    p.rec.received.some((m) => m.kind === "open_face_turn" && m.seat === p.seat && m.street === street && m.hand === p.hand),
  );
  await p.page.locator(`.of-placer[data-hand="${p.hand}"][data-street="${street}"]`).waitFor();
}

async function hinted(p) {
  await placer(p.page).getByRole("button", { name: "Hint" }).click();
  await until("the hint laid", async () => (await placer(p.page).locator(".my-cards .drag-card").count()) === 0);
  await confirm(p);
}

test("two people play open-face Pineapple: by hand to Fantasyland, a foul flagged, the Fantasyland hand by the solver's hint, the end and the history", { timeout: 240_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  try {
    const table = await createTable(ann, { variant: "pineapple", seats: 2, hand_delay_s: 3, decision_s: 600 });
    assert.equal(await chooseDeck(ann.page, table, kDeck), 34);
    await sitDown(ann, table);
    await sitDown(bob, table);
    Object.assign(ann, { seat: 0, hand: 1 });
    Object.assign(bob, { seat: 1, hand: 1 });

    // Street 0. Bob: the queens in front, the aces in the back; the front named by the engine.
    await myTurn(bob, 0);
    await into(bob.page, "front", ["Qs", "Qh"]);
    await into(bob.page, "back", ["As", "Ad", "Ac"]);
    await placer(bob.page).locator('.row-slot[data-row="front"] .row-words', { hasText: "a pair of queens" }).waitFor();
    await confirm(bob);
    // Ann: a straight in the back, by drag and clicks.
    await myTurn(ann, 0);
    await drag(ann.page, "2h", "back");
    await into(ann.page, "back", ["3h", "4h", "5c", "6c"]);
    await placer(ann.page).locator('.row-slot[data-row="back"] .row-words', { hasText: "straight, six high" }).waitFor();
    await confirm(ann);
    // Each sees the other's rows face up.
    await ann.page.locator('.of-seat[data-seat="1"] .of-row[data-row="front"] [data-card="Qs"]').waitFor();

    const bobPlan = [
      [["middle", ["Ks", "Kh"]], ["discard", ["2c"]]],
      [["middle", ["Kd"]], ["front", ["3c"]], ["discard", ["4d"]]],
      [["middle", ["5h"]], ["back", ["6h"]], ["discard", ["7s"]]],
      [["middle", ["8s"]], ["back", ["9s"]], ["discard", ["Ts"]]],
    ];
    const annPlan = [
      [["middle", ["7h", "8h"]], ["discard", ["9h"]]],
      [["middle", ["Th", "Jh"]], ["discard", ["2d"]]],
      [["front", ["3d", "5d"]], ["discard", ["6d"]]],
    ];
    for (let street = 1; street <= 4; ++street) {
      await myTurn(bob, street);
      for (const [target, cards] of bobPlan[street - 1]) await into(bob.page, target, cards);
      await confirm(bob);
      await myTurn(ann, street);
      if (street < 4) {
        for (const [target, cards] of annPlan[street - 1]) await into(ann.page, target, cards);
        await confirm(ann);
        continue;
      }
      // The last street: the nine in the middle makes a straight above the back's: a foul,
      // flagged before confirming. Taken back, the seven goes there instead.
      await into(ann.page, "middle", ["9d"]);
      await into(ann.page, "front", ["8d"]);
      await into(ann.page, "discard", ["7d"]);
      const foul = placer(ann.page).locator(".foul");
      await foul.waitFor();
      assert.match(await foul.textContent(), /the middle \(straight, jack high\) ranks above the back \(straight, six high\)/);
      await placer(ann.page).getByRole("button", { name: "Confirm (fouls)" }).waitFor();
      await ann.page.screenshot({ path: join(screenshots, "open-face-foul.png"), fullPage: true });
      await placer(ann.page).getByRole("button", { name: "Take back" }).click();
      await into(ann.page, "middle", ["7d"]);
      await into(ann.page, "front", ["8d"]);
      await into(ann.page, "discard", ["9d"]);
      await foul.waitFor({ state: "detached" });
      await confirm(ann);
    }
    const end1 = await until("hand 1's end", () => bob.rec.received.find((m) => m.kind === "open_face_end" && m.hand === 1));
    assert.deepEqual(end1.fantasyland, [{ seat: 1, cards: 14 }]);
    await bob.page.locator('.of-end .of-fantasy-next[data-seat="1"]').waitFor();
    const shown = await bob.page.locator(".of-end .payments li[data-reason]").evaluateAll((els) =>
      els.map((e) => ({ from: Number(e.dataset.from), to: Number(e.dataset.to), reason: e.dataset.reason, text: e.textContent })),
    );
    assert.deepEqual(
      shown.map(({ from, to, reason }) => ({ from, to, reason })),
      end1.payments.map(({ from, to, reason }) => ({ from, to, reason })),
    );
    assert.ok(shown.some((p) => p.text.includes("royalty: a pair of queens in the front")), JSON.stringify(shown));
    const nets = await bob.page.locator(".of-end .nets tr[data-seat]").evaluateAll((els) => els.map((e) => ({ seat: Number(e.dataset.seat), net: Number(e.dataset.net) })));
    assert.deepEqual(nets, end1.rows.map((r) => ({ seat: r.seat, net: end1.net[r.seat] })));
    await bob.page.screenshot({ path: join(screenshots, "open-face-end.png") });

    // Hand 2: bob in Fantasyland with 14 cards, shown to bob alone, face down to ann.
    ann.hand = bob.hand = 2;
    await bob.page.locator(".of-fantasy-wait").waitFor();
    assert.equal(await bob.page.locator(".of-fantasy-wait .card").count(), 14);
    await ann.page.locator('.of-seat[data-seat="1"] .of-fantasy', { hasText: "Fantasyland · 14 cards" }).waitFor();
    for (let street = 0; street <= 4; ++street) {
      await myTurn(ann, street);
      await hinted(ann);
    }
    await until("bob's Fantasyland turn", () => bob.rec.received.some((m) => m.kind === "open_face_turn" && m.seat === 1 && m.hand === 2 && m.fantasyland));
    await placer(bob.page).waitFor();
    await placer(bob.page).getByRole("button", { name: "Hint" }).click();
    await placer(bob.page).locator(".hinted", { hasText: "The solver's placement" }).waitFor();
    await until("the hint laid", async () => (await placer(bob.page).locator(".my-cards .drag-card").count()) === 0);
    await placer(bob.page).locator('.row-slot[data-row="back"] .row-words:not([data-words=""])').waitFor();
    await bob.page.evaluate(() => window.scrollTo(0, 0));
    await bob.page.screenshot({ path: join(screenshots, "open-face-fantasyland.png"), fullPage: true });
    // While bob places, ann sees bob's rows face down.
    assert.equal(await ann.page.locator('.of-seat[data-seat="1"] .of-board.face-down').count(), 1);
    await confirm(bob);
    const end2 = await until("hand 2's end", () => ann.rec.received.find((m) => m.kind === "open_face_end" && m.hand === 2));
    // No message to ann showed bob's Fantasyland cards or a discard of bob's before the end.
    for (const m of ann.rec.received) {
      if (m.hand !== 2 || m.kind === "open_face_end") continue;
      if (m.seat === 1) assert.ok(!("cards" in m) && !("discard" in m) && !("front" in m && m.face_down), JSON.stringify(m));
      if (m.kind === "open_face_deal") assert.ok(!("cards" in m));
    }
    await ann.page.locator(`.of-end .rows-table tr[data-seat="1"]`).waitFor();

    // The history: the hand, replayed by the server.
    await ann.page.goto(`${server.url}/#/hand/${end2.hand_id}`);
    await ann.page.locator(".replay .verdict", { hasText: "matches the result" }).waitFor();
    for (const p of [ann, bob]) assert.deepEqual(p.rec.bad.slice(0, 3), []);
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
