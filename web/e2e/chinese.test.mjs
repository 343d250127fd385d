// Chinese poker in the browser, against a real feltd started with --chosen-decks so that the deal
// is known: two people at a classic table, one arranging by hand (clicks and a drag, a reload in
// the middle, a foul refused and shown, then a legal split), the other laying the engine's hint;
// the reveal's payments and nets on screen are the server's deal_end. Then a scoop table with a
// surrender. Then the deal in the history, with the server's replay verdict.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { chooseDeck, failures, guestPage, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--chosen-decks"], (s, b) => ([server, browser] = [s, b]));

// A plain hand (a pair of aces, no special hand) and another, dealt one card at a time.
const kPlain = "As Ah Kd Qc Js 9h 8d 7c 5s 4h 3d 2c 6s".split(" ");
const kOther = "Ks Kh Qd Jh Th 9s 8s 6d 5c 4s 3h 2d Tc".split(" ");


async function createTable(p, game, fields, switches = {}) {
  await p.page.getByRole("button", { name: "New table" }).click();
  const form = p.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="game"]').selectOption(game);
  for (const [k, v] of Object.entries(fields)) {
    const select = form.locator(`select[name="${k}"]`);
    if (await select.count()) await select.selectOption(String(v));
    else await form.locator(`input[name="${k}"]`).fill(String(v));
  }
  for (const [k, on] of Object.entries(switches)) await form.locator(`input[name="${k}"]`).setChecked(on);
  const before = p.rec.received.filter((m) => m.type === "create_table" && m.ok).length;
  await form.getByRole("button", { name: "Create table" }).click();
  const made = await until("the table", () => p.rec.received.filter((m) => m.type === "create_table" && m.ok)[before]);
  return made.table;
}

async function sitDown(p, table) {
  const row = p.page.locator(`tr[data-table="${table}"]`);
  await row.getByRole("button", { name: "Join" }).click();
  await p.page.getByRole("button", { name: "Sit down" }).click();
  await p.page.locator(".chinese-seats").waitFor();
}

const myCards = (page) => page.locator(".my-cards .drag-card").evaluateAll((els) => els.map((e) => e.dataset.card));
const rowCards = (page, row) => page.locator(`.row-slot[data-row="${row}"] .row-cards .drag-card`).evaluateAll((els) => els.map((e) => e.dataset.card));
const card = (page, c) => page.locator(`.arranger [data-card="${c}"]`).first();

async function clickInto(page, row, cards) {
  await page.locator(`.row-slot[data-row="${row}"] .row-name`).click();
  for (const c of cards) await card(page, c).click();
}

// Drags a card onto a row with the mouse (pointer events, as a finger's would be).
async function drag(page, c, row) {
  const from = await card(page, c).boundingBox();
  const to = await page.locator(`.row-slot[data-row="${row}"]`).boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width * 0.8, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

// The reveal on screen: payments and nets, as the page shows them.
async function revealOnScreen(page) {
  const payments = await page.locator(".reveal .payments li[data-reason]").evaluateAll((els) =>
    els.map((e) => ({ from: Number(e.dataset.from), to: Number(e.dataset.to), chips: Number(e.dataset.chips), reason: e.dataset.reason, text: e.textContent })),
  );
  const nets = await page.locator(".reveal .nets tr[data-seat]").evaluateAll((els) =>
    els.map((e) => ({ seat: Number(e.dataset.seat), net: Number(e.dataset.net), stack: Number(e.dataset.stack) })),
  );
  const settled = await page.locator(".reveal .settled li[data-pass]").evaluateAll((els) =>
    els.map((e) => ({ from: Number(e.dataset.from), to: Number(e.dataset.to), chips: Number(e.dataset.chips), pass: e.dataset.pass })),
  );
  return { payments, nets, settled };
}

function checkReveal(shown, end) {
  assert.deepEqual(
    shown.payments.map(({ from, to, chips, reason }) => ({ from, to, chips, reason })),
    end.payments.map(({ from, to, chips, reason }) => ({ from, to, chips, reason })),
  );
  for (const p of shown.payments) assert.ok(p.text.includes(String(p.chips)), p.text);
  assert.deepEqual(shown.settled, end.settled.map(({ from, to, chips, pass }) => ({ from, to, chips, pass })));
  assert.deepEqual(
    shown.nets,
    end.arrangements.map((a) => ({ seat: a.seat, net: end.net[a.seat], stack: end.stacks[a.seat] })),
  );
}

test("two people play a Chinese poker deal: rows by hand with a foul refused, a hint, the reveal, the history", { timeout: 180_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  try {
    const table = await createTable(ann, "chinese", { profile: "classic", seats: 2, hand_delay_s: 4, decision_s: 600 });
    const deck = kPlain.flatMap((c, i) => [c, kOther[i]]).join(" ");
    assert.equal(await chooseDeck(ann.page, table, deck), 26);
    await bob.page.locator(`tr[data-table="${table}"]`).waitFor();
    await sitDown(ann, table);
    await sitDown(bob, table);
    await ann.page.locator(".arranger").waitFor();
    await bob.page.locator(".arranger").waitFor();
    // Whoever was dealt first holds the plain hand and arranges it by hand.
    const annHas = (await myCards(ann.page)).sort();
    const [me, other] = annHas.join() === [...kPlain].sort().join() ? [ann, bob] : [bob, ann];
    assert.deepEqual((await myCards(me.page)).sort(), [...kPlain].sort());
    assert.deepEqual((await myCards(other.page)).sort(), [...kOther].sort());

    // A foul: the pair of aces in front, queen high in the middle. The front goes in by clicks,
    // then the page is reloaded: the half-made rows come back.
    await clickInto(me.page, "front", ["As", "Ah", "Kd"]);
    assert.deepEqual(await rowCards(me.page, "front"), ["As", "Ah", "Kd"]);
    await me.page.locator('.row-slot[data-row="front"] .row-words', { hasText: "a pair of aces" }).waitFor();
    await me.page.reload();
    await me.page.locator(".arranger").waitFor();
    assert.deepEqual(await rowCards(me.page, "front"), ["As", "Ah", "Kd"]);
    await clickInto(me.page, "middle", ["Qc", "Js", "9h", "8d", "7c"]);
    // The rest by dragging two, then clicking (a click goes to the first row with room).
    await drag(me.page, "5s", "back");
    await drag(me.page, "4h", "back");
    assert.deepEqual(await rowCards(me.page, "back"), ["5s", "4h"]);
    for (const c of ["3d", "2c", "6s"]) await card(me.page, c).click();
    assert.equal((await myCards(me.page)).length, 0);
    await me.page.locator('.row-slot[data-row="back"] .row-words', { hasText: "straight, six high" }).waitFor();
    const foul = me.page.locator(".foul");
    await foul.waitFor();
    assert.match(await foul.textContent(), /the front \(a pair of aces\) ranks above the middle \(queen high\)/);
    await me.page.screenshot({ path: join(screenshots, "chinese-arranging.png") });
    // Submitted anyway: the server refuses it, and the page says why.
    await me.page.getByRole("button", { name: "Set my rows" }).click();
    await me.page.locator(".refusal", { hasText: "front_above_middle" }).waitFor();
    assert.ok(me.rec.received.some((m) => m.type === "error" && m.code === "front_above_middle"));

    // Now a legal split: aces and more at the back, the middle next, the small cards in front.
    await me.page.getByRole("button", { name: "Clear rows" }).click();
    await clickInto(me.page, "back", ["As", "Ah", "Kd", "Qc", "Js"]);
    await clickInto(me.page, "middle", ["9h", "8d", "7c", "5s", "4h"]);
    await clickInto(me.page, "front", ["3d", "2c", "6s"]);
    await me.page.locator('.row-slot[data-row="back"] .row-words', { hasText: "a pair of aces" }).waitFor();
    await me.page.locator('.row-slot[data-row="middle"] .row-words', { hasText: "nine high" }).waitFor();
    assert.equal(await me.page.locator(".foul").count(), 0);
    await me.page.getByRole("button", { name: "Set my rows" }).click();
    await me.page.locator(".waiting", { hasText: "Your rows are set" }).waitFor();
    // The other sees that this seat is in, but not its rows.
    await other.page.locator('.cp-seat .status[data-submitted="true"]').waitFor();

    // The other takes the engine's best hint.
    await other.page.getByRole("button", { name: "Hints" }).click();
    await other.page.locator(".hint").first().waitFor();
    await other.page.locator(".hint").first().getByRole("button", { name: "Use" }).click();
    assert.equal((await myCards(other.page)).length, 0);
    await other.page.getByRole("button", { name: "Set my rows" }).click();

    // The reveal: on both screens, the server's payments and nets.
    for (const p of [me, other]) await p.page.locator(".reveal").waitFor();
    const end = await until("deal_end", () => ann.rec.received.find((m) => m.type === "table" && m.kind === "deal_end"));
    const hint = other.rec.received.find((m) => m.type === "hint");
    const theirs = end.arrangements.find((a) => a.seat !== end.arrangements.find((x) => x.front.includes("3d")).seat);
    assert.equal(theirs.back, hint.arrangements[0].back);
    for (const p of [me, other]) checkReveal(await revealOnScreen(p.page), end);
    for (const p of [me, other]) await p.page.locator(".reveal .fairness.ok").waitFor();
    await me.page.screenshot({ path: join(screenshots, "chinese-reveal.png") });

    // The history: the deal with its arrangements, payments and the server's verdict.
    await me.page.getByRole("link", { name: "History" }).click();
    await me.page.locator(`tr[data-hand="${end.hand_id}"]`).getByRole("button", { name: "Replay" }).click();
    await me.page.locator(".replay .reveal").waitFor();
    const record = await until("the record", () => me.rec.received.find((m) => m.type === "hand" && m.ok));
    await me.page.locator(".verdict", { hasText: "matches" }).waitFor();
    const shown = await revealOnScreen(me.page.locator(".replay"));
    assert.deepEqual(
      shown.payments.map((p) => p.chips),
      record.events.filter((e) => e.kind === "payment").map((e) => e.chips),
    );
    for (const p of [ann, bob]) assert.deepEqual(p.rec.bad.slice(0, 3), []);
  } catch (e) {
    for (const p of [ann, bob]) await p.page.screenshot({ path: join(failures, `chinese-${p.name}.png`) });
    throw e;
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});

test("a scoop table: one surrenders, the other takes a hint; the reveal shows the surrender", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  try {
    const table = await createTable(ann, "chinese", { profile: "scoop", seats: 2, hand_delay_s: 4 }, { surrender: true });
    await bob.page.locator(`tr[data-table="${table}"]`).waitFor();
    await sitDown(ann, table);
    await sitDown(bob, table);
    await ann.page.locator(".arranger").waitFor();
    // Asked in the page's own dialog, never the browser's.
    ann.page.once("dialog", () => assert.fail("a browser dialog"));
    await ann.page.getByRole("button", { name: "Surrender" }).click();
    await ann.page.getByRole("alertdialog", { name: /^Surrender this deal\?/ }).getByRole("button", { name: "Surrender" }).click();
    await ann.page.locator(".waiting", { hasText: "Your rows are set" }).waitFor();
    await bob.page.getByRole("button", { name: "Hints" }).click();
    await bob.page.locator(".hint").first().getByRole("button", { name: "Use" }).click();
    await bob.page.getByRole("button", { name: "Set my rows" }).click();
    await ann.page.locator(".reveal").waitFor();
    const end = await until("deal_end", () => ann.rec.received.find((m) => m.type === "table" && m.kind === "deal_end"));
    assert.equal(end.payments.length, 1);
    assert.equal(end.payments[0].reason, "surrender");
    checkReveal(await revealOnScreen(ann.page), end);
    await ann.page.locator(".rows-table td", { hasText: "surrendered" }).waitFor();
    for (const p of [ann, bob]) assert.deepEqual(p.rec.bad.slice(0, 3), []);
  } catch (e) {
    for (const p of [ann, bob]) await p.page.screenshot({ path: join(failures, `scoop-${p.name}.png`) });
    throw e;
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
