// Never stranded (issue 45): a server restart while players sit at a table. The table opens again
// with its id and settings; each player's page reconnects by itself, says what happened (the
// seat was cashed out, the chips are back in the balance) and offers to sit down again, which
// works. A table that no longer exists sends the page back to the lobby with a message rather
// than "Opening table…" for ever. Each check failed before its fix.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, room, screenshots, twoAtTable, until } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

test("after a server restart the table is back, the page says what happened, and the player sits down again", { timeout: 90_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  const table = await twoAtTable(ann, bob, { decision_s: 60 });
  await ann.page.locator(".felt").waitFor();
  await until("the first hand", () => ann.rec.received.find((m) => m.kind === "hand_start"));
  await server.restart();
  // The page comes back by itself and says what happened.
  const notice = ann.page.getByRole("status").filter({ hasText: "The server restarted" });
  await notice.waitFor({ timeout: 20_000 });
  const balance = ann.rec.received.findLast((m) => m.type === "resume" && m.ok).account.balance;
  assert.match(await notice.innerText(), new RegExp(`table ${table}: your chips from it are back in your balance \\(${balance}\\)\\. Sit down again`));
  // Still at the table (watching it), which is listed again with its id.
  await ann.page.getByRole("heading", { name: new RegExp(`^Table ${table}`) }).waitFor();
  await ann.page.screenshot({ path: join(screenshots, "after-restart.png") });
  await ann.page.locator(".seat-controls").getByRole("button", { name: "Sit down" }).click();
  await ann.page.locator(".seat-controls").getByRole("button", { name: "Sit down" }).click();
  await until("ann's seat again", () => ann.rec.received.findLast((m) => m.type === "join")?.ok === true);
  await ann.page.getByRole("button", { name: "Leave table" }).waitFor();
  // The notice stays until closed.
  await notice.getByRole("button", { name: "close the notice" }).click();
  await notice.waitFor({ state: "detached" });
  assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
  await ann.context.close();
  await bob.context.close();
});

test("a table that does not exist sends the page back to the lobby, saying so", { timeout: 30_000 }, async () => {
  const cy = await guestPage(browser, server, "cy");
  await cy.page.evaluate(() => (location.hash = "#/table/999"));
  await cy.page.getByRole("alert").filter({ hasText: "Table 999 has closed." }).waitFor({ timeout: 10_000 });
  await cy.page.getByRole("heading", { name: "Tables" }).waitFor();
  await cy.context.close();
});
