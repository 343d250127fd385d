// A host alone asks the create form for bots and plays against them at once: the table's bots
// sit when the host does (the form sits the host down), show as bots at their seats, and play
// hands with the host through the page.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, playPassively, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--bot-think-min-ms", "100", "--bot-think-max-ms", "300"], (s, b) => ([server, browser] = [s, b]));

test("a host alone creates a table with two bots and plays against them at once", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption("holdem");
  await form.locator('select[name="bots"]').selectOption("2");
  await form.locator('select[name="bot_level"]').selectOption("fair");
  for (const [k, v] of Object.entries({ seats: 4, hand_delay_s: 0.5 })) await form.locator(`input[name="${k}"]`).fill(String(v));
  // The pauses that default from the pause between hands follow it in seconds (they showed
  // milliseconds read as seconds: 0.002 s for 2 s).
  assert.equal(await form.locator('input[name="showdown_delay_s"]').inputValue(), "2");
  assert.equal(await form.locator('input[name="runout_s"]').inputValue(), "0.5");
  await form.screenshot({ path: join(screenshots, "create-bots.png") });
  await form.getByRole("button", { name: "Create table" }).click();
  const created = await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok));
  assert.deepEqual(created.config.bots, { seats: 2, level: "fair", leave_for_people: true });
  // Seated by the form, with no second step.
  const seat = (await until("Ann's seat", () => ann.rec.received.find((m) => m.type === "join" && m.ok))).seat;
  // Two bots sit down, marked as bots on the page.
  const marks = ann.page.locator(".felt .seat .bot-mark");
  await until("two bots at the table", async () => (await marks.count()) === 2);
  const names = await ann.page.$$eval(".felt .seat .name", (els) => els.map((e) => e.textContent));
  assert.equal(names.filter((n) => /^bot/.test(n) && /bot-[0-9a-f]{8}/.test(n)).length, 2);
  // Ann plays two hands against them, passively.
  const ends = await playPassively(ann, 2, 60_000);
  // The bots acted themselves: the server's clock never played for anyone.
  const updates = ann.rec.received.filter((m) => m.type === "table" && m.kind === "update");
  const botActions = updates.flatMap((m) => m.events ?? []).filter((e) => ["check", "call", "bet", "raise", "fold"].includes(e.kind) && e.seat !== seat && e.by !== "server");
  assert.ok(botActions.length > 0);
  assert.equal(updates.flatMap((m) => m.events ?? []).filter((e) => e.by === "server").length, 0);
  await ann.page.screenshot({ path: join(screenshots, "bots.png") });
  assert.deepEqual(ann.rec.bad, []);
});

test("a host asks a Chinese poker table for a bot and plays deals against it at once", { timeout: 120_000 }, async () => {
  const bo = await guestPage(browser, server, "bo");
  await bo.page.getByRole("button", { name: "New table" }).click();
  const form = bo.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="game"]').selectOption("chinese");
  await form.locator('select[name="bots"]').selectOption("1");
  await form.locator('select[name="bot_level"]').selectOption("strong");
  // The clock arranges for the host: a second a deal.
  for (const [k, v] of Object.entries({ seats: 2, decision_s: 1, hand_delay_s: 0.5 })) await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  const created = await until("the table", () => bo.rec.received.find((m) => m.type === "create_table" && m.ok));
  assert.deepEqual(created.config.bots, { seats: 1, level: "strong", leave_for_people: true });
  const seat = (await until("Bo's seat", () => bo.rec.received.find((m) => m.type === "join" && m.ok))).seat;
  await until("the bot at its seat", async () => (await bo.page.locator(".cp-seat .bot-mark").count()) === 1);
  const end = await until("a deal's end", () => bo.rec.received.find((m) => m.type === "table" && m.kind === "deal_end"), 30_000);
  const bot = end.arrangements.find((a) => a.seat !== seat);
  assert.equal(bot.by, "player"); // the bot split its own cards
  assert.notEqual(bot.front, "");
  assert.deepEqual(bo.rec.bad, []);
});

test("a host asks a leap rummy table for bots and they play the game with the host", { timeout: 120_000 }, async () => {
  const cy = await guestPage(browser, server, "cy");
  await cy.page.getByRole("button", { name: "New table" }).click();
  const form = cy.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="game"]').selectOption("leap");
  await form.locator('select[name="bots"]').selectOption("2");
  // The clock plays the host's turns: half a second each.
  for (const [k, v] of Object.entries({ seats: 4, turn_s: 0.5, hand_delay_s: 0.5 })) await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  const created = await until("the table", () => cy.rec.received.find((m) => m.type === "create_table" && m.ok));
  assert.deepEqual(created.config.bots, { seats: 2, level: "fair", leave_for_people: true });
  const seat = (await until("Cy's seat", () => cy.rec.received.find((m) => m.type === "join" && m.ok))).seat;
  await until("two bots at the table", async () => (await cy.page.locator(".lp-seat .bot-mark").count()) === 2);
  // The bots draw and discard on their turns.
  await until("a bot's discard", () => cy.rec.received.find((m) => m.type === "table" && m.kind === "discarded" && m.seat !== seat), 30_000);
  await cy.page.screenshot({ path: join(screenshots, "bots-leap.png") });
  assert.deepEqual(cy.rec.bad, []);
});
