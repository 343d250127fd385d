// The screen as players expect it (issue 45): at 1280×800 the hand log and the chat sit beside
// the table, under headings, above the fold; at a phone's 390×844 every table in the lobby can be
// joined (its Join button within the width) and, on the player's turn, the action bar with its
// Raise button is in view without scrolling. Each check failed before its fix.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, room, screenshots, twoAtTable, until, whoseTurn } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

const box = (locator) => locator.evaluate((e) => e.getBoundingClientRect().toJSON());

test("at 1280×800 the log and the chat are beside the table, under headings, above the fold", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "ann", { width: 1280, height: 800 });
  const bob = await guestPage(browser, server, "bob", { width: 1280, height: 800 });
  await twoAtTable(ann, bob, { decision_s: 60 });
  await ann.page.locator(".felt").waitFor();
  await until("a line in the log", async () => (await ann.page.locator('section[aria-label="hand log"] .lines div').count()) > 1);
  const felt = await box(ann.page.locator(".felt"));
  for (const [name, heading] of [["hand log", "Hand log"], ["chat", "Chat"]]) {
    const section = ann.page.locator(`section[aria-label="${name}"]`);
    await section.getByRole("heading", { name: heading }).waitFor();
    const b = await box(section);
    assert.ok(b.left >= felt.right, `the ${name} is beside the table: ${JSON.stringify(b)} against ${JSON.stringify(felt)}`);
    assert.ok(b.top < 800 && b.top >= 0, `the ${name} starts above the fold: ${b.top}`);
  }
  await ann.page.screenshot({ path: join(screenshots, "table-wide.png") });
  await ann.context.close();
  await bob.context.close();
});

test("at 390×844 every table in the lobby can be joined, and on one's turn the action bar is in view", { timeout: 60_000 }, async () => {
  const phone = { width: 390, height: 844 };
  const ann = await guestPage(browser, server, "cy", phone);
  const bob = await guestPage(browser, server, "dee", phone);
  await twoAtTable(ann, bob, { decision_s: 60 });
  // Another table, so that the lobby has a free one to look at.
  const cy = await guestPage(browser, server, "eli", phone);
  await cy.page.getByRole("button", { name: "New table" }).click();
  await cy.page.getByRole("form", { name: "create a table" }).getByRole("button", { name: "Create table" }).click();
  await until("cy's table", () => cy.rec.received.find((m) => m.type === "create_table" && m.ok));
  await cy.page.getByRole("link", { name: "Lobby" }).click();
  const joins = cy.page.getByRole("button", { name: "Join" });
  await until("two tables listed", async () => (await joins.count()) >= 1);
  for (const b of await joins.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON())))
    assert.ok(b.left >= 0 && b.right <= phone.width, `a Join button off the screen: ${JSON.stringify(b)}`);
  const width = await cy.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `the lobby is ${width} px wide`);
  await cy.page.screenshot({ path: join(screenshots, "lobby-phone.png") });
  // On the player's turn: the action bar and its biggest button within the window.
  const who = await whoseTurn([ann, bob]);
  const raise = who.page.locator(".action-bar").getByRole("button", { name: /^Raise to/ });
  const r = await box(raise);
  assert.ok(r.top >= 0 && r.bottom <= phone.height, `the Raise button is out of view: ${JSON.stringify(r)}`);
  // ... and it covers neither the player's cards nor their stack.
  const bar = await box(who.page.locator(".action-bar"));
  for (const part of [".seat.mine .stack", ".seat.mine [data-card]"]) {
    const b = await box(who.page.locator(part).first());
    assert.ok(b.top >= 0 && b.bottom <= bar.top, `${part} is under the action bar: ${JSON.stringify(b)}, the bar from ${bar.top}`);
  }
  await who.page.screenshot({ path: join(screenshots, "turn-phone.png") });
  for (const p of [ann, bob, cy]) await p.context.close();
});

test("cards are dealt in with a short movement, and none when the player asks for reduced motion", { timeout: 60_000 }, async () => {
  const moving = await guestPage(browser, server, "fox", { width: 1280, height: 800 }, "no-preference");
  const still = await guestPage(browser, server, "gil", { width: 1280, height: 800 }, "reduce");
  await twoAtTable(moving, still, { decision_s: 60 });
  for (const [p, want] of [[moving, "deal-in"], [still, "none"]]) {
    const card = p.page.locator(".seat.mine span.card").first();
    await card.waitFor();
    assert.equal(await card.evaluate((e) => getComputedStyle(e).animationName), want, p.name);
  }
  await moving.context.close();
  await still.context.close();
});
