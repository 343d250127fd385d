// A tournament's entry period in the browser (issue 47), on a feltd whose tournament minute lasts
// a second: a player who loses their chips re-enters from the bar above the felt, and at the
// break after the rebuy period both take the add-on there; the pool holds every entry and add-on.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { callAsGuest, guestPage, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--tournament-minute-ms", "1000"], (s, b) => ([server, browser] = [s, b]));

const call = callAsGuest;
const view = async (page, id) => (await call(page, "tournament", { tournament: id })).tournament;

// Clicks the first of `names` the action bar offers, if it offers one now.
async function act(p, names) {
  const bar = p.page.locator(".action-bar");
  if (!(await bar.isVisible().catch(() => false))) return;
  for (const name of names) {
    const b = bar.getByRole("button", { name, exact: false }).first();
    if (await b.isVisible().catch(() => false)) return b.click().catch(() => {});
  }
}

test("the entry period in the browser: a re-entry after losing every chip, and the add-on at the break, from the bar above the felt", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  // Stacks of a big blind: every hand of level 1 is all in, so someone loses their chips. Level
  // 1 lasts 12 s here, the break after it 15 s.
  const created = await call(ann.page, "create_tournament", {
    format: "multi-table",
    seats: 2,
    buy_in: 100,
    starting_stack: 20,
    start_in_s: 3,
    late_registration_levels: 1,
    reentries: 1,
    rebuy_levels: 1,
    add_on_stack: 2000,
    hand_delay_ms: 0,
    decision_ms: 60000,
    levels: [{ small_blind: 10, big_blind: 20, minutes: 12 }, { break_minutes: 15 }, { small_blind: 1000, big_blind: 2000, minutes: 10 }],
  });
  assert.equal(created.ok, true, JSON.stringify(created));
  const id = created.tournament;
  assert.equal(created.config.add_on_stack, 2000);
  for (const p of [ann, bob]) {
    await p.page.goto(`${server.url}/#/tournament/${id}`);
    await p.page.getByRole("heading", { name: /late registration to level 1, 1 re-entry, rebuys for 1 level, add-on 2000/ }).waitFor();
    await p.page.getByRole("button", { name: /Register \(100 chips\)/ }).click();
  }
  for (const p of [ann, bob]) await until("the table", async () => /^#\/table\/\d+$/.test(await p.page.evaluate(() => location.hash)), 30_000);

  // Call and check until one of them is offered a re-entry; they take it.
  const reenter = (p) => p.page.getByLabel("tournament", { exact: true }).getByRole("button", { name: /^Re-enter/ });
  let loser = null;
  await until(
    "a re-entry offered",
    async () => {
      for (const p of [ann, bob]) if (await reenter(p).isVisible().catch(() => false)) loser = p;
      if (!loser) for (const p of [ann, bob]) await act(p, ["Call", "Check"]);
      return loser;
    },
    40_000,
  );
  await loser.page.screenshot({ path: join(screenshots, "tournament-reenter.png") });
  await reenter(loser).click();
  await loser.page.getByRole("status").filter({ hasText: /You are in again/ }).waitFor();
  assert.equal((await view(ann.page, id)).entrants, 3);

  // The break after level 1: the add-on, for both (nobody acts meanwhile: no more chips lost).
  for (const p of [ann, bob]) {
    const addOn = p.page.getByLabel("tournament", { exact: true }).getByRole("button", { name: "Take the add-on (2000 chips for 100)" });
    await addOn.waitFor({ timeout: 60_000 });
    await addOn.click();
    await p.page.getByRole("status").filter({ hasText: /Your add-on is in/ }).waitFor();
  }
  const v = await view(ann.page, id);
  assert.equal(v.pool, 500); // three entries and two add-ons
  // Then blinds of the structure's next levels end it: call it down.
  await until(
    "the end",
    async () => {
      for (const p of [ann, bob]) await act(p, ["Call", "Check"]);
      return (await view(ann.page, id)).status === "finished";
    },
    60_000,
  );
  for (const p of [ann, bob]) assert.deepEqual(p.rec.bad, []);
  await ann.context.close();
  await bob.context.close();
});
