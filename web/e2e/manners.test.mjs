// The table as players expect it (issue 45), item by item as they land: the page's icon and no
// failed request; a wrong password's message gone once signed in; a double-clicked action sent
// once; a reload during one's turn that keeps the clock, the log and the verification; a buy-in
// that says what is wrong with it; two tabs with one balance; a raise past the stack asked; the
// title, the tone and the live region on one's turn; leaving mid-hand asked. Each check failed
// before its fix.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { guestPage, room, screenshots, twoAtTable, until, whoseTurn } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

test("the page has its icon, and loading it and signing in fails no request", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const failed = [];
  page.on("response", (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  page.on("requestfailed", (r) => failed.push(`failed ${r.url()}`));
  await page.goto(server.url);
  await page.getByRole("button", { name: "Play as a guest" }).click();
  await page.getByRole("heading", { name: "Tables" }).waitFor();
  const href = await page.locator('link[rel="icon"]').getAttribute("href", { timeout: 2000 });
  const icon = await page.request.get(new URL(href, server.url).href);
  assert.equal(icon.status(), 200);
  assert.equal(icon.headers()["content-type"], "image/svg+xml");
  assert.deepEqual(failed, []);
  await context.close();
});

test("a wrong password's message is gone once the player signs in", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  const form = page.getByRole("form", { name: "sign in" });
  const fill = async (password) => {
    await form.locator('input[name="name"]').fill("dora");
    await form.locator('input[name="password"]').fill(password);
  };
  await fill("a long password");
  await form.getByRole("button", { name: "Register" }).click();
  await page.getByRole("heading", { name: "Tables" }).waitFor();
  await page.getByRole("button", { name: "Log out" }).click();
  await fill("not the password");
  await form.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("alert").filter({ hasText: "wrong name or password" }).waitFor();
  await fill("a long password");
  await form.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Tables" }).waitFor();
  // At once, not when the notice's five seconds are up.
  assert.equal(await page.getByRole("alert").count(), 0);
  await context.close();
});

test("a double-clicked action is sent once, and nothing is refused", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  await twoAtTable(ann, bob, { decision_s: 60 });
  // Whoever is to act first double-clicks Call (or Check).
  const who = await whoseTurn([ann, bob]);
  const bar = who.page.locator(".action-bar");
  const button = bar.getByRole("button", { name: /^(Call \d+|Check)$/ });
  const acts = () => who.rec.sent.filter((m) => m.type === "act").length;
  const before = acts();
  await button.dblclick();
  await until("the action's reply", () => who.rec.received.find((m) => m.type === "act"));
  await bar.waitFor({ state: "hidden", timeout: 10_000 });
  assert.equal(acts() - before, 1, "acts sent for one decision");
  const refused = who.rec.received.filter((m) => m.type === "error");
  assert.deepEqual(refused, [], "refusals");
  assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
  await ann.context.close();
  await bob.context.close();
});

test("a reload during one's turn keeps the clock, the hand's log and the deal's verification", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "cleo");
  const bob = await guestPage(browser, server, "dave");
  await twoAtTable(ann, bob, { decision_s: 60 });
  const who = await whoseTurn([ann, bob]);
  await who.page.reload();
  const clock = who.page.getByRole("timer", { name: "time left" });
  await clock.waitFor({ timeout: 10_000 });
  const seconds = Number((await clock.innerText()).match(/^(\d+)s/)[1]);
  assert.ok(seconds > 45 && seconds <= 60, `the clock reads ${seconds} s`);
  const log = who.page.locator(`section[aria-label="hand log"]`);
  await log.getByText(/Hand 1 begins/).waitFor({ timeout: 5000 });
  await log.getByText(/posts 2/).waitFor({ timeout: 5000 });
  await who.page.screenshot({ path: join(screenshots, "resumed-turn.png") });
  await who.page.locator(".action-bar").getByRole("button", { name: "Fold" }).click();
  await log.getByText("Hand 1 ends (deal verified)").waitFor({ timeout: 10_000 });
  assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
  await ann.context.close();
  await bob.context.close();
});

test("the buy-in says what is wrong with it: too small, past the balance, or a balance below the minimum", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "eve");
  const create = async (settings) => {
    await ann.page.getByRole("link", { name: "Lobby" }).click();
    await ann.page.getByRole("button", { name: "New table" }).click();
    const form = ann.page.getByRole("form", { name: "create a table" });
    for (const [k, v] of Object.entries({ seats: 2, ...settings })) await form.locator(`input[name="${k}"]`).fill(String(v));
    const before = ann.rec.received.filter((m) => m.type === "create_table").length;
    await form.getByRole("button", { name: "Create table" }).click();
    return (await until("the table", () => ann.rec.received.filter((m) => m.type === "create_table")[before])).table;
  };
  const balance = ann.rec.received.find((m) => m.type === "guest" && m.ok).account.balance;
  const rich = await create({ min_buy_in: balance * 2, max_buy_in: balance * 4 });
  await ann.page.getByRole("link", { name: "Lobby" }).click();
  await ann.page.locator(`tr[data-table="${rich}"]`).getByRole("button", { name: "Join" }).click();
  await ann.page.getByRole("alert").filter({ hasText: `Your balance, ${balance}, is below this table's minimum buy-in of ${balance * 2}.` }).waitFor({ timeout: 5000 });
  assert.equal(await ann.page.getByRole("button", { name: "Sit down" }).count(), 0);
  await ann.page.getByRole("button", { name: "Cancel" }).click();
  const plain = await create({ min_buy_in: 80, max_buy_in: balance * 2 });
  await ann.page.getByRole("link", { name: "Lobby" }).click();
  await ann.page.locator(`tr[data-table="${plain}"]`).getByRole("button", { name: "Join" }).click();
  const amount = ann.page.getByLabel("buy-in", { exact: true });
  const sit = ann.page.getByRole("button", { name: "Sit down" });
  for (const [typed, why] of [["5", "The buy-in is at least 80."], [String(balance + 1), `Your balance is ${balance}.`]]) {
    await amount.fill(typed);
    await ann.page.getByRole("alert").filter({ hasText: why }).waitFor({ timeout: 2000 });
    assert.equal(await sit.isDisabled(), true, `${typed}: Sit down is off`);
    if (typed === "5") await ann.page.screenshot({ path: join(screenshots, "join-form.png") });
  }
  await amount.fill("100");
  assert.equal(await sit.isDisabled(), false);
  assert.equal(await ann.page.locator(".join-form .why").count(), 0);
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("two tabs of one account show the same balance: a buy-in in one moves the other's at once", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "fay");
  const other = await ann.context.newPage(); // the same browser: signed in with the same token
  await other.goto(server.url);
  await other.getByRole("heading", { name: "Tables" }).waitFor();
  const balance = ann.rec.received.find((m) => m.type === "guest" && m.ok).account.balance;
  const shown = (page) => page.locator("header .balance").innerText();
  assert.equal(await shown(other), `${balance} chips`);
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('input[name="seats"]').fill("2");
  await form.getByRole("button", { name: "Create table" }).click();
  const table = (await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok))).table;
  await ann.page.locator(`tr[data-table="${table}"]`).getByRole("button", { name: "Join" }).click();
  await ann.page.getByLabel("buy-in", { exact: true }).fill("100");
  await ann.page.getByRole("button", { name: "Sit down" }).click();
  await until("the other tab's balance", async () => (await shown(other)) === `${balance - 100} chips`, 5000);
  await until("this tab's balance", async () => (await shown(ann.page)) === `${balance - 100} chips`, 5000);
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("a raise amount past the stack asks before going all in; a negative or non-numeric one says why", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "gus");
  const bob = await guestPage(browser, server, "hal");
  await twoAtTable(ann, bob, { decision_s: 60 });
  const who = await whoseTurn([ann, bob]);
  const bar = who.page.locator(".action-bar");
  const box = bar.getByLabel("bet amount");
  const acts = () => who.rec.sent.filter((m) => m.type === "act").length;
  const before = acts();
  for (const [typed, why] of [["-5", "An amount cannot be negative."], ["lots", "Type the amount as a whole number of chips."]]) {
    await box.fill(typed);
    await bar.getByRole("alert").filter({ hasText: why }).waitFor({ timeout: 2000 });
    assert.equal(await bar.getByRole("button", { name: /^Raise to/ }).isDisabled(), true);
    await box.press("Enter");
  }
  await box.fill("99999999");
  await box.press("Enter");
  const ask = who.page.getByRole("alertdialog", { name: /^99999999 is more than you have: raise all in, \d+\?$/ });
  await ask.waitFor({ timeout: 2000 });
  await who.page.screenshot({ path: join(screenshots, "all-in-asked.png") });
  assert.equal(acts(), before, "nothing sent before the answer");
  await ask.getByRole("button", { name: /^All in, \d+$/ }).click();
  await until("the all-in", () => who.rec.sent.filter((m) => m.type === "act").length === before + 1);
  const sent = who.rec.sent.filter((m) => m.type === "act").at(-1);
  assert.equal(sent.action, "raise");
  await until("its reply", () => who.rec.received.findLast((m) => m.type === "act")?.ok === true);
  assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
  await ann.context.close();
  await bob.context.close();
});

test("one's turn with the tab hidden changes the title; the tone plays when turned on; a live region says it; leaving mid-hand asks first", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "ida");
  const bob = await guestPage(browser, server, "jon");
  // Count the tones each page plays, and let a test hide the tab.
  for (const p of [ann, bob])
    await p.page.evaluate(() => {
      window.__tones = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        createOscillator() {
          const o = super.createOscillator();
          const start = o.start.bind(o);
          o.start = (...a) => (++window.__tones, start(...a));
          return o;
        }
      };
      Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden === true });
    });
  for (const p of [ann, bob]) {
    await p.page.getByLabel("Sound on my turn").check();
    await p.page.evaluate(() => {
      window.__hidden = true;
      document.dispatchEvent(new Event("visibilitychange"));
    });
  }
  await twoAtTable(ann, bob, { decision_s: 60 });
  const who = await whoseTurn([ann, bob]);
  const other = who === ann ? bob : ann;
  await until("the title", async () => (await who.page.title()) === "▶ Your turn · Felt", 5000);
  assert.equal(await other.page.title(), "Felt");
  assert.equal(await who.page.evaluate(() => window.__tones), 1);
  assert.equal(await other.page.evaluate(() => window.__tones), 0);
  assert.match(await who.page.locator('[aria-live="polite"][aria-label="announcements"]').innerText(), /^Your turn at table \d+\.$/);
  // Back to the tab: the title is the page's own again.
  await who.page.evaluate(() => {
    window.__hidden = false;
    document.dispatchEvent(new Event("visibilitychange"));
  });
  await until("the title back", async () => (await who.page.title()) === "Felt", 5000);
  // Leaving during the hand asks first; "Stay" sends nothing.
  const leaves = () => who.rec.sent.filter((m) => m.type === "leave").length;
  await who.page.getByRole("button", { name: "Leave table" }).click();
  const ask = who.page.getByRole("alertdialog", { name: /^Leave during the hand\? Your hand will be folded/ });
  await ask.waitFor({ timeout: 2000 });
  await who.page.screenshot({ path: join(screenshots, "leave-asked.png") });
  await ask.getByRole("button", { name: "Stay" }).click();
  assert.equal(leaves(), 0);
  await who.page.getByRole("button", { name: "Leave table" }).click();
  await ask.getByRole("button", { name: "Leave and fold" }).click();
  await until("the leave", () => leaves() === 1);
  await who.page.getByRole("heading", { name: "Tables" }).waitFor();
  // The one left sees the hand's result announced.
  await until("the result announced", async () => /^Hand 1: .* wins \d+/.test(await other.page.locator('[aria-label="announcements"]').innerText()), 10_000);
  assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
  await ann.context.close();
  await bob.context.close();
});

test("the lobby names each table's stakes as its game has them and its host; the host closes an empty table", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "kim");
  const name = ann.rec.received.find((m) => m.type === "guest" && m.ok).account.name;
  const create = async (game, choices = {}) => {
    await ann.page.getByRole("link", { name: "Lobby" }).click();
    await ann.page.getByRole("button", { name: "New table" }).click();
    const form = ann.page.getByRole("form", { name: "create a table" });
    await form.locator('select[name="game"]').selectOption(game);
    for (const [k, v] of Object.entries(choices)) await form.locator(`select[name="${k}"]`).selectOption(v);
    const before = ann.rec.received.filter((m) => m.type === "create_table").length;
    await form.getByRole("button", { name: "Create table" }).click();
    return (await until("the table", () => ann.rec.received.filter((m) => m.type === "create_table")[before])).table;
  };
  const limit = await create("poker", { structure: "fixed-limit" });
  const stud = await create("poker", { variant: "stud", structure: "no-limit" });
  const leap = await create("leap");
  await ann.page.getByRole("link", { name: "Lobby" }).click();
  const cells = (id) => ann.page.locator(`tr[data-table="${id}"] td`).allInnerTexts();
  assert.equal((await cells(limit))[3], "2/4");
  assert.equal((await cells(stud))[3], "ante 1, bring-in 2");
  assert.equal((await cells(leap))[3], "for points");
  assert.equal((await cells(leap))[4], "none");
  assert.equal((await cells(limit))[7], name);
  await ann.page.screenshot({ path: join(screenshots, "lobby-stakes.png") });
  // The host closes one from its table screen, asked first.
  await ann.page.locator(`tr[data-table="${limit}"]`).getByRole("button", { name: "Watch" }).click();
  await ann.page.getByRole("button", { name: "Close table" }).click();
  await ann.page.getByRole("alertdialog", { name: new RegExp(`^Close table ${limit}\\?`) }).getByRole("button", { name: "Close the table" }).click();
  await ann.page.getByRole("status").filter({ hasText: `Table ${limit} is closed.` }).waitFor({ timeout: 5000 });
  await ann.page.getByRole("link", { name: "Lobby" }).click();
  await until("the table gone from the lobby", async () => (await ann.page.locator(`tr[data-table="${limit}"]`).count()) === 0, 5000);
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("the create form shows the chosen game's and structure's fields only, defaults as values, times in seconds, and says what is wrong", { timeout: 60_000 }, async () => {
  const ann = await guestPage(browser, server, "lou");
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  const names = () => form.locator("input[type=text]").evaluateAll((els) => els.map((e) => e.name));
  const value = (name) => form.locator(`input[name="${name}"]`).inputValue();
  // No-limit hold'em: blinds, no bring-in and no bets.
  let shown = await names();
  for (const k of ["small_blind", "big_blind", "ante", "decision_s"]) assert.ok(shown.includes(k), k);
  for (const k of ["bring_in", "small_bet", "big_bet", "decision_ms"]) assert.ok(!shown.includes(k), k);
  assert.equal(await value("decision_s"), "30");
  assert.equal(await value("big_blind"), "2");
  assert.equal(await value("min_buy_in"), "80");
  assert.equal(await value("showdown_delay_s"), "4");
  // Fixed-limit stud: ante, bring-in and bets; no blinds; buy-ins in big bets.
  await form.locator('select[name="variant"]').selectOption("stud");
  await form.locator('select[name="structure"]').selectOption("fixed-limit");
  shown = await names();
  for (const k of ["ante", "bring_in", "small_bet", "big_bet"]) assert.ok(shown.includes(k), k);
  for (const k of ["small_blind", "big_blind"]) assert.ok(!shown.includes(k), k);
  assert.equal(await value("min_buy_in"), "320");
  // A time out of range, said in words; nothing is sent.
  await form.locator('input[name="decision_s"]').fill("0.01");
  await form.getByRole("alert").filter({ hasText: "Time to act must be 0.1 s to 1 hour." }).waitFor({ timeout: 2000 });
  assert.equal(await form.getByRole("button", { name: "Create table" }).isDisabled(), true);
  await ann.page.screenshot({ path: join(screenshots, "create-form.png") });
  await form.locator('input[name="decision_s"]').fill("45");
  const before = ann.rec.sent.filter((m) => m.type === "create_table").length;
  await form.getByRole("button", { name: "Create table" }).click();
  await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok));
  const sent = ann.rec.sent.filter((m) => m.type === "create_table")[before];
  assert.equal(sent.decision_ms, 45000);
  assert.ok(!("small_blind" in sent) && !("big_blind" in sent), JSON.stringify(sent));
  // Leap rummy: its own fields; no buy-in while played for points.
  await ann.page.getByRole("button", { name: "New table" }).click();
  await form.locator('select[name="game"]').selectOption("leap");
  shown = await names();
  assert.ok(shown.includes("turn_s") && !shown.includes("min_buy_in"), shown.join(" "));
  await form.locator('input[name="chips_per_point"]').fill("2");
  assert.equal(await value("min_buy_in"), "200");
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});
