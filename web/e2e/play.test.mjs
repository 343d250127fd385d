// Two people in two browsers and a bot play no-limit hold'em on a real feltd from the lobby,
// while a third browser watches. Everything goes through the page: the create form, the join
// form, the action bar (buttons, the slider dragged, an amount typed). Checked: the stacks on
// screen against the server's hand_end, the spectator's page and frames against hole cards, a
// reload mid-hand, no top-up offered mid-hand, the history with a replay and a
// PHH download that `felt replay` plays to the same stacks, and every frame against the schema.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { failures, guestPage, room, runFelt, screenshots, sleep, until } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

const person = (name) => guestPage(browser, server, name);

const stacksOnScreen = (page) =>
  page.$$eval(".felt .seat", (els) => els.map((e) => [Number(e.dataset.seat), Number(e.querySelector(".stack").dataset.stack)]));

const handEnds = (rec) => rec.received.filter((m) => m.type === "table" && m.kind === "hand_end");

// Plays whatever the action bar offers: mostly check or call; every third turn a small raise with
// the slider dragged, every fourth an amount typed. Never folds, so that hands reach showdown; the
// stacks are deep, so that nobody goes broke in four hands.
async function act(p, turn) {
  const bar = p.page.locator(".action-bar");
  if (!(await bar.isVisible().catch(() => false))) return false;
  const slider = bar.getByRole("slider", { name: "bet size" });
  const amount = bar.getByRole("textbox", { name: "bet amount" });
  if (turn % 3 === 2 && (await slider.isVisible().catch(() => false))) {
    const box = await slider.boundingBox();
    await p.page.mouse.move(box.x + 3, box.y + box.height / 2);
    await p.page.mouse.down();
    await p.page.mouse.move(box.x + box.width * 0.04, box.y + box.height / 2, { steps: 6 });
    await p.page.mouse.up();
    const chosen = Number(await slider.inputValue());
    assert.ok(chosen >= Number(await slider.getAttribute("min")) && chosen <= Number(await slider.getAttribute("max")));
    await bar.getByRole("button", { name: /^(Raise to|Bet) / }).click();
  } else if (turn % 4 === 3 && (await amount.isVisible().catch(() => false))) {
    const min = Number(await slider.getAttribute("min"));
    await amount.fill(String(min + 2));
    await amount.press("Enter");
  } else {
    const check = bar.getByRole("button", { name: "Check" });
    if (await check.isVisible().catch(() => false)) await check.click();
    else await bar.getByRole("button", { name: /^Call / }).click();
  }
  await bar.waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
  return true;
}

test("two people and a bot play no-limit hold'em from the lobby, watched by a third", { timeout: 240_000 }, async () => {
  const ann = await person("ann");
  const bob = await person("bob");
  const cy = await person("cy");

  // Ann creates the table with the form.
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption("holdem");
  await form.locator('select[name="structure"]').selectOption("no-limit");
  for (const [k, v] of Object.entries({ seats: 3, min_buy_in: 1000, max_buy_in: 4000, hand_delay_s: 2.5, decision_s: 60 }))
    await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  const created = await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok));
  const table = created.table;

  // The live lobby shows it to Bob without asking; Bob and Ann join with buy-ins of their choice.
  const row = (p) => p.page.locator(`tr[data-table="${table}"]`);
  await row(bob).waitFor();
  await bob.page.screenshot({ path: join(screenshots, "lobby.png") });
  await row(ann).getByRole("button", { name: "Join" }).click();
  await ann.page.getByRole("spinbutton", { name: "buy-in" }).fill("3000");
  await ann.page.getByRole("button", { name: "Sit down" }).click();
  await row(bob).getByRole("button", { name: "Join" }).click();
  await bob.page.getByRole("button", { name: "Sit down" }).click();
  await until("Bob's seat", () => bob.rec.received.find((m) => m.type === "join" && m.ok));
  assert.equal(ann.rec.received.find((m) => m.type === "join" && m.ok).stack, 3000);
  assert.equal(bob.rec.received.find((m) => m.type === "join" && m.ok).stack, 2000); // the form's default
  // Cy watches from the lobby.
  await row(cy).getByRole("button", { name: "Watch" }).click();
  await cy.page.locator(".felt").waitFor();
  // A bot takes the third seat.
  const bot = runFelt(["bot", "--url", server.ws, "--join", String(table), "--seats", "1", "--hands", "3"]);

  const turns = { ann: 0, bob: 0 };
  let checkedEnds = 0, reloaded = false, refused = false, midHandShot = false, showdownShot = false;
  const deadline = Date.now() + 180_000;
  while (handEnds(ann.rec).length < 4) {
    if (Date.now() > deadline) {
      for (const p of [ann, bob, cy]) await p.page.screenshot({ path: join(failures, `${p.name}.png`) });
      const last = ann.rec.received.filter((m) => m.type === "table").slice(-5);
      assert.fail(`four hands within three minutes; ann's last table messages: ${JSON.stringify(last)}`);
    }
    for (const p of [ann, bob]) {
      const visible = await p.page.locator(".action-bar").isVisible().catch(() => false);
      if (!visible) continue;
      if (p === ann && !midHandShot) {
        midHandShot = true;
        await ann.page.screenshot({ path: join(screenshots, "table.png") });
      }
      // The spectator sees no hole card while the hand runs (hold'em has no up cards).
      assert.equal(await cy.page.locator(".felt .seat [data-card]").count(), 0, "a hole card on the spectator's page");
      // No top-up is offered in the middle of a hand (the server refuses one, in_hand).
      if (p === ann && !refused) {
        refused = true;
        assert.equal(await ann.page.getByRole("button", { name: "Top up" }).count(), 0, "Top up offered mid-hand");
      }
      // Bob reloads in the middle of a hand on his turn: the same cards and the same turn.
      if (p === bob && !reloaded && handEnds(bob.rec).length >= 1) {
        reloaded = true;
        const mine = await bob.page.locator(".seat.mine [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
        assert.equal(mine.length, 2);
        await bob.page.reload();
        await bob.page.locator(".action-bar").waitFor();
        const again = await bob.page.locator(".seat.mine [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
        assert.deepEqual(again, mine);
      }
      await act(p, turns[p.name]++);
    }
    // Each hand's end: the stacks on screen are the server's.
    const ends = handEnds(ann.rec);
    while (checkedEnds < ends.length) {
      const end = ends[checkedEnds++];
      await ann.page.locator(".end-banner").waitFor();
      const shown = await stacksOnScreen(ann.page);
      for (const [seat, stack] of shown) assert.equal(stack, end.stacks[seat], `seat ${seat} after hand ${end.hand}`);
      await ann.page.locator(".fairness.ok").waitFor(); // the deal verified in the browser
      const showed = ann.rec.received.some((m) => m.kind === "update" && m.events.some((e) => e.kind === "show"));
      if (showed && !showdownShot) {
        showdownShot = true;
        // The winner's hand in words, from the server's: "wins 54 with two pair, tens and eights,
        // ace kicker (10♠ 8♣)", or a pot split: "Pot of 56 split: ann 28 (a pair of sevens, …), …".
        assert.match(await ann.page.locator(".end-banner").innerText(), /wins \d+ with [a-z ,-]+ \(|split: .+ \d+ \([a-z ,-]+\)/);
        await ann.page.screenshot({ path: join(screenshots, "showdown.png") });
      }
    }
    await sleep(100);
  }
  assert.ok(refused && reloaded, "the top-up check and the reload were tried");
  const botRun = await bot;
  assert.equal(botRun.code, 0, botRun.out + botRun.err);

  // The spectator's frames never carried a hole card; only shown cards and the board.
  for (const m of cy.rec.received)
    if (m.kind === "update")
      for (const e of m.events) assert.ok(!(e.kind === "deal_down" && e.cards), `a hole card sent to the spectator: ${JSON.stringify(e)}`);
  const spectatorEnd = handEnds(cy.rec).at(-1);
  assert.ok(spectatorEnd && !spectatorEnd.fairness.yours, "the spectator's reveal opens no seat's own cards");

  // History: Ann's hands, one replayed to its end, and its PHH played by felt replay.
  await ann.page.getByRole("link", { name: "History" }).click();
  await ann.page.locator("tr[data-hand]").first().waitFor();
  assert.ok((await ann.page.locator("tr[data-hand]").count()) >= 4);
  // Each hand says where it was played, and the chart's axes are labelled.
  assert.match(await ann.page.locator("tr[data-hand] td").nth(1).innerText(), /^no-limit holdem, table \d+, hand \d+$/);
  for (const label of ["chips won", "hands, oldest first"]) await ann.page.locator(".chart text", { hasText: label }).waitFor();
  await ann.page.screenshot({ path: join(screenshots, "history.png") });
  // The last hand that went to a showdown (else the last hand): the one replayed.
  let handId = handEnds(ann.rec).at(-1).hand_id;
  for (let at = null, m, i = 0; (m = ann.rec.received[i]); i++) {
    if (m.kind === "hand_start") at = m.hand_id;
    if (m.kind === "update" && at !== null && m.events.some((e) => e.kind === "show")) handId = at;
  }
  await ann.page.locator(`tr[data-hand="${handId}"]`).getByRole("button", { name: "Replay" }).click();
  const record_ = await until("the hand", () => ann.rec.received.find((m) => m.type === "hand" && m.ok && m.hand === handId));
  await ann.page.getByRole("button", { name: "End »" }).click();
  const replayed = await ann.page.$$eval(".felt .seat", (els) => els.map((e) => [Number(e.dataset.seat), Number(e.querySelector(".stack").dataset.stack)]));
  for (const [seat, stack] of replayed) assert.equal(stack, record_.seats.find((s) => s.seat === seat).stack_end);
  // Its end, as the table showed it: the server replayed the record to the same result, the deal
  // checks out in the browser, and each pot names its winner, with the hand in words when shown.
  assert.equal(record_.replay.matches, true);
  await ann.page.locator(".replay .verdict", { hasText: "Replayed by the server: matches the result ✓" }).waitFor();
  await ann.page.locator(".replay .end-banner .fairness.ok").waitFor();
  const banner = await ann.page.locator(".replay .end-banner").innerText();
  const wins = record_.events.filter((e) => e.kind === "win");
  assert.ok(wins.length >= 1 && wins.every((w) => banner.includes(` ${w.amount}`)), banner);
  const shows = record_.events.filter((e) => e.kind === "show" && !e.early); // named at the showdown
  if (shows.length) {
    assert.ok(shows.every((e) => typeof e.made === "string" && e.made.length > 0), JSON.stringify(shows));
    assert.match(banner, /wins \d+ with [a-z ,-]+ \(|split: .+ \d+ \([a-z ,-]+\)/);
    assert.match(await ann.page.locator(".replay .log").innerText(), /shows .+: [a-z]/);
  }
  await ann.page.screenshot({ path: join(screenshots, "replay.png") });
  const [download] = await Promise.all([ann.page.waitForEvent("download"), ann.page.getByRole("button", { name: "Download PHH" }).click()]);
  const phhPath = join(server.dir, "hand.phh");
  await download.saveAs(phhPath);
  const replay = await runFelt(["replay", "--json", phhPath]);
  assert.equal(replay.code, 0, replay.out + replay.err);
  // PHH lists the players from the button's left (engine/poker/phh.cpp).
  const n = record_.config.stacks.length, button = record_.config.button;
  const order = [...record_.seats].sort((a, b) => ((a.seat - button - 1 + n) % n) - ((b.seat - button - 1 + n) % n));
  assert.deepEqual(JSON.parse(replay.out).finishing_stacks, order.map((s) => s.stack_end));

  for (const p of [ann, bob, cy]) assert.deepEqual(p.rec.bad.slice(0, 3), [], `${p.name}: frames or page errors`);
  await writeFile(join(server.dir, "done"), "");
});
