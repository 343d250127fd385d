// The odds (issue 49) in the browser: an all-in before the flop shows both hands at once, each
// seat's chance comes up at every street of the run-out as feltd tells it, and the history's
// replayer shows the same chances step by step with the hand's all-in EV.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, room, screenshots, twoAtTable, until, whoseTurn, lastLegal } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

const words = (x) => `${x.equity.toFixed(1)}%`;

test("an all-in's hands shown at once, their odds at each street, and again in the replayer", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  const table = await twoAtTable(ann, bob, { decision_s: 60, hand_delay_s: 5, showdown_delay_s: 5, runout_s: 2 });
  // The first to act goes all in; the other calls.
  const first = await whoseTurn([ann, bob]);
  let bar = first.page.locator(".action-bar");
  await bar.getByRole("button", { name: "All-in" }).click();
  await bar.getByRole("button", { name: /^Raise to/ }).click();
  const second = first === ann ? bob : ann;
  await until("the second's turn", () => lastLegal(second.rec)?.call && second.page.locator(".action-bar").isVisible());
  bar = second.page.locator(".action-bar");
  await bar.getByRole("button", { name: /^Call / }).click();
  // The hands come up at once, unnamed, and the odds follow, each street after its cards.
  const odds = await until("the first odds", () => bob.rec.received.find((m) => m.type === "table" && m.kind === "odds" && m.table === table));
  assert.equal(odds.street, 0);
  assert.equal(odds.seats.length, 2);
  assert.ok(Math.abs(odds.seats[0].equity + odds.seats[1].equity - 100) < 0.11, JSON.stringify(odds));
  const early = bob.rec.received.filter((m) => m.kind === "update" && m.table === table).flatMap((m) => m.events).filter((e) => e.kind === "show" && e.early);
  assert.equal(early.length, 2);
  for (const x of odds.seats) {
    const badge = bob.page.locator(`.seat[data-seat="${x.seat}"] .odds`);
    await badge.waitFor({ timeout: 3000 });
    assert.equal(await badge.innerText(), words(x));
    const shown = early.find((e) => e.seat === x.seat).cards.split(" ");
    for (const c of shown) await bob.page.locator(`.seat[data-seat="${x.seat}"] [data-card="${c}"]`).first().waitFor({ timeout: 3000 });
  }
  await bob.page.screenshot({ path: join(screenshots, "all-in-odds.png") });
  // The flop's odds replace them; the showdown clears them.
  const flop = await until("the flop's odds", () => bob.rec.received.find((m) => m.kind === "odds" && m.table === table && m.street === 1), 10_000);
  await until("the flop's badge", async () => (await bob.page.locator(`.seat[data-seat="${flop.seats[0].seat}"] .odds`).innerText().catch(() => "")) === words(flop.seats[0]));
  const end = await until("the hand's end", () => bob.rec.received.find((m) => m.kind === "hand_end" && m.table === table), 20_000);
  await until("no odds at the showdown", async () => (await bob.page.locator(".seat .odds").count()) === 0);
  // The history: the same chances at each street, and the all-in EV.
  await bob.page.getByRole("link", { name: "History" }).click();
  await bob.page.locator(`tr[data-hand="${end.hand_id}"]`).getByRole("button", { name: "Replay" }).click();
  const record = await until("the hand", () => bob.rec.received.find((m) => m.type === "hand" && m.ok && m.hand === end.hand_id));
  assert.ok(record.odds.length >= 3, JSON.stringify(record.odds));
  const ev = record.events.find((e) => e.kind === "all_in_ev");
  assert.ok(ev, "the all-in EV is kept with the hand");
  const pot = ev.seats.reduce((a, s) => a + s.won, 0);
  assert.ok(Math.abs(ev.seats.reduce((a, s) => a + s.expected, 0) - pot) < 0.02);
  // Step to the first odds: the badges as the record gives them.
  const steps = record.events.slice(0, record.odds[0].event + 1).filter((e) => e.kind !== "action").length;
  for (let i = 0; i < steps; ++i) await bob.page.getByRole("button", { name: "Next ▶" }).click();
  for (const x of record.odds[0].seats) assert.equal(await bob.page.locator(`.replay .seat[data-seat="${x.seat}"] .odds`).innerText(), words(x));
  const table_ = bob.page.getByRole("region", { name: "all-in EV" });
  assert.match(await table_.innerText(), /All-in EV/);
  await bob.page.screenshot({ path: join(screenshots, "replay-odds.png") });
  for (const p of [ann, bob]) assert.deepEqual(p.rec.bad, [], `${p.name}: frames or page errors`);
  for (const p of [ann, bob]) await p.context.close();
});
