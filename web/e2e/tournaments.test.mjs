// Tournaments in the browser (issue 46): one created from the lobby's form, registered for on its
// page, and played to the end by a person and `felt bot` bots together, the page following its
// player to the table with the level, the clock and the place above the felt; and a multi-table
// tournament whose player the page follows from table to table as the server moves them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { join } from "node:path";
import { callAsGuest, failures, guestPage, lastLegal, passiveTurn, room, runFelt, screenshots, sleep, until } from "./harness.mjs";

let server, browser;
room([], (s, b) => ([server, browser] = [s, b]));

// Acts whenever the page offers a turn, the first of `choices` the action bar has, until `done`.
async function playUntil(p, done, choices = ["Check", "Call", "Fold"]) {
  while (!(await done())) {
    const bar = p.page.locator(".action-bar");
    if (await bar.isVisible().catch(() => false)) {
      for (const name of choices) {
        const b = bar.getByRole("button", { name, exact: false }).first();
        if (await b.isVisible().catch(() => false)) {
          await b.click().catch(() => {});
          break;
        }
      }
    }
    await sleep(100);
  }
}

const call = callAsGuest;

test("a sit-and-go created and registered for in the browser is played to the end with bots, the page at the table by itself", { timeout: 180_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const { page } = ann;
  await page.getByRole("button", { name: "New tournament" }).click();
  const form = page.getByRole("form", { name: "create a tournament" });
  await form.locator('select[name="preset"]').selectOption("turbo");
  await form.locator('input[name="seats"]').fill("3");
  await form.locator('input[name="buy_in"]').fill("100");
  await form.getByRole("button", { name: "Create tournament" }).click();
  const id = (await until("the tournament", () => ann.rec.received.find((m) => m.type === "create_tournament" && m.ok))).tournament;
  const row = page.locator(`tr[data-tournament="${id}"]`);
  await row.waitFor();
  assert.match(await row.innerText(), /sit-and-go[\s\S]*no-limit holdem[\s\S]*0\/3[\s\S]*registering/);
  await page.screenshot({ path: join(screenshots, "tournament-lobby.png") });

  // Its page: registering there takes the entry's chips.
  await row.getByRole("button", { name: "View" }).click();
  await page.getByRole("button", { name: /Register \(100 chips\)/ }).click();
  await page.getByLabel("status").filter({ hasText: "Registering: 1 of 3" }).waitFor();
  await page.getByRole("button", { name: "Unregister" }).waitFor();
  assert.match(await page.getByLabel("balance").innerText(), /9900 chips/);
  await page.screenshot({ path: join(screenshots, "tournament-page.png") });

  // Two bots fill it: it starts, and the page goes to ann's table by itself.
  const bots = runFelt(["bot", "--url", server.ws, "--tournament", String(id), "--seats", "2", "--shove", "--state", join(server.dir, "bots.json")]);
  await until("the table", async () => /^#\/table\/\d+$/.test(await page.evaluate(() => location.hash)), 30_000);
  const bar = page.getByLabel("tournament", { exact: true });
  await bar.filter({ hasText: "Level 1: blinds 10/20" }).waitFor().catch(async (e) => {
    await page.screenshot({ path: join(failures, "tournament-bar.png") });
    throw new Error(`${e}; the page shows ${(await page.locator("main").innerText()).slice(0, 600)}`);
  });
  assert.match(await bar.innerText(), /next level in \d+:\d\d/);
  assert.match(await bar.innerText(), /You are \d(st|nd|rd) of 3 in chips/);
  assert.match(await bar.innerText(), /average stack 1500/);
  await page.screenshot({ path: join(screenshots, "tournament-table.png") });

  // Ann checks and calls until it is over for her: the page says where she finished.
  const finished = () => ann.rec.received.some((m) => m.type === "tournament" && (m.kind === "out" || m.kind === "won"));
  await playUntil(ann, async () => finished());
  const news = ann.rec.received.find((m) => m.type === "tournament" && (m.kind === "out" || m.kind === "won"));
  const words = news.kind === "won" ? "You won tournament" : `You finished ${news.place}`;
  await page.getByRole("status").filter({ hasText: words }).waitFor();
  const ran = await bots;
  assert.equal(ran.code, 0, ran.err);

  // Its page at the end: every place, and the prizes paid.
  await page.goto(`${server.url}/#/tournament/${id}`);
  await page.getByLabel("status").filter({ hasText: "Finished." }).waitFor();
  const places = await page.locator(".standings tbody tr td:first-child").allInnerTexts();
  assert.deepEqual(places.map((p) => p.replace(/ \(tied\)/, "")), ["1st", "2nd", "3rd"]);

  // The history: the tournament with ann's place and net, and its hands, replayable.
  await page.getByRole("link", { name: "History" }).click();
  const line = page.getByRole("table", { name: "my tournaments" }).locator(`tr[data-tournament="${id}"]`);
  await line.waitFor();
  const net = (news.prize ?? 0) - 100;
  assert.match(await line.innerText(), new RegExp(`${news.place}(st|nd|rd) of 3[\\s\\S]*${net > 0 ? `\\+${net}` : net}`));
  const hands = page.getByRole("table", { name: "my hands" });
  assert.match(await hands.innerText(), new RegExp(`tournament ${id} \\(level \\d+\\), table`));
  await page.screenshot({ path: join(screenshots, "tournament-history.png") });
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("a multi-table tournament: the page follows its player to every table the server seats them at", { timeout: 240_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const { page } = ann;
  const made = await call(page, "create_tournament", {
    format: "multi-table",
    seats: 2,
    buy_in: 10,
    starting_stack: 1000,
    start_in_s: 6,
    hand_delay_ms: 300,
    levels: [
      { small_blind: 10, big_blind: 20, hands: 20 },
      { small_blind: 25, big_blind: 50, hands: 20 },
      { small_blind: 50, big_blind: 100, hands: 20 },
    ],
  });
  assert.equal(made.ok, true, JSON.stringify(made));
  const id = made.tournament;
  await page.goto(`${server.url}/#/tournament/${id}`);
  await page.getByRole("button", { name: /Register \(10 chips\)/ }).click();
  await page.getByRole("button", { name: "Unregister" }).waitFor();
  const bots = runFelt(["bot", "--url", server.ws, "--tournament", String(id), "--seats", "7", "--shove", "--state", join(server.dir, "bots-mtt.json")]);

  // Until ann is out or it ends: wherever the server says she sits, the page shows that table.
  const seen = new Set();
  const over = () => ann.rec.received.some((m) => m.type === "tournament" && ["out", "won"].includes(m.kind));
  // Ann calls: when her opponent goes out, her table of two breaks, and she moves.
  const playing = playUntil(ann, async () => over());
  while (!over()) {
    const r = await call(page, "tournament", { tournament: id });
    const me = r.tournament?.standings?.find((s) => s.name === (r.tournament && ann.rec.received.find((m) => m.type === "guest")?.account?.name));
    if (me?.table !== undefined && me.place === null) {
      const table = me.table;
      await until(`the page at table ${table}`, async () => over() || (await page.evaluate(() => location.hash)) === `#/table/${table}`, 5000);
      if (!over() && !seen.has(table)) {
        seen.add(table);
        await page.locator(".felt").waitFor();
        // Moved: the new table, with its notice, as the player sees it.
        if (seen.size === 2) await page.screenshot({ path: join(screenshots, "tournament-moved.png") });
      }
    }
    await sleep(300);
  }
  await playing;
  const moved = ann.rec.received.filter((m) => m.type === "tournament" && m.kind === "moved");
  for (const m of moved) seen.add(m.table);
  assert.ok(seen.size >= 1);
  console.log(`ann sat at tables ${[...seen].join(", ")}; moved ${moved.length} time(s)`);
  const ran = await bots;
  assert.equal(ran.code, 0, ran.err);
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("a sit-and-go of each other betting game, against two bots, is played to its end in the page", { timeout: 300_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const { page } = ann;
  for (const variant of ["straight", "draw", "stud", "mexican", "shrinking"]) {
    const made = await call(page, "create_tournament", {
      variant,
      seats: 3,
      buy_in: 10,
      starting_stack: 400,
      hand_delay_ms: 300,
      decision_ms: 3000, // the bot leaves its rollovers to the clock
      levels: [
        { small_blind: 10, big_blind: 20, hands: 2 },
        { small_blind: 50, big_blind: 100, hands: 2 },
      ],
    });
    assert.equal(made.ok, true, JSON.stringify(made));
    const id = made.tournament;
    const firstAct = Math.max(0, ...ann.rec.sent.map((m) => m.id ?? 0));
    await page.goto(`${server.url}/#/tournament/${id}`);
    await page.getByRole("button", { name: /Register \(10 chips\)/ }).click();
    const bots = runFelt(["bot", "--url", server.ws, "--tournament", String(id), "--seats", "2", "--shove", "--state", join(server.dir, `bots-${variant}.json`)]);
    await until(`${variant}: the table`, async () => /^#\/table\/\d+$/.test(await page.evaluate(() => location.hash)), 30_000).catch(async (e) => {
      await page.screenshot({ path: join(failures, `tournament-${variant}.png`) });
      const t = await call(page, "tournament", { tournament: id });
      throw new Error(`${e}; the tournament: ${JSON.stringify(t).slice(0, 400)}; the bot: ${JSON.stringify(await Promise.race([bots, sleep(100)]))}`);
    });
    // Ann takes every turn the page offers her, as a passive player, until it is over for her.
    const end = () => ann.rec.received.find((m) => m.type === "tournament" && m.tournament === id && ["out", "won"].includes(m.kind));
    const deadline = Date.now() + 120_000;
    while (!end()) {
      if (Date.now() > deadline) {
        await page.screenshot({ path: join(failures, `tournament-${variant}.png`) });
        assert.fail(`${variant}: the tournament did not end for ann`);
      }
      const bar = page.locator(".action-bar");
      if (await bar.isVisible().catch(() => false)) await passiveTurn(ann, lastLegal(ann.rec), bar).catch(() => {});
      await sleep(100);
    }
    const words = end().kind === "won" ? `You won tournament ${id}` : `in tournament ${id}`;
    await page.getByRole("status").filter({ hasText: words }).waitFor();
    const ran = await bots;
    assert.equal(ran.code, 0, `${variant}: ${ran.err}`);
    // She played it from the page: her actions went out, and the server took them.
    const acts = ann.rec.sent.filter((m) => m.type === "act" && m.id > firstAct);
    const taken = acts.filter((a) => ann.rec.received.some((m) => m.id === a.id && m.ok));
    assert.ok(taken.length > 0, `${variant}: no action of ann's was taken`);
    console.log(`${variant}: ann finished ${end().place} after ${taken.length} action(s) from the page`);
  }
  assert.deepEqual(ann.rec.bad, []);
  await ann.context.close();
});

test("a guaranteed pool and a deal at the final table: proposed above the felt, its terms shown to both, accepted, and the tournament ends by it", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  const made = await call(ann.page, "create_tournament", { seats: 2, buy_in: 100, guarantee: 500, starting_stack: 1000, hand_delay_ms: 0, decision_ms: 60000, levels: [{ small_blind: 10, big_blind: 20, hands: 500 }] });
  assert.equal(made.ok, true, JSON.stringify(made));
  const id = made.tournament;
  for (const p of [ann, bob]) {
    await p.page.goto(`${server.url}/#/tournament/${id}`);
    await p.page.getByRole("heading", { name: /buy-in 100, 500 guaranteed/ }).waitFor();
    await p.page.getByRole("button", { name: /Register \(100 chips\)/ }).click();
  }
  for (const p of [ann, bob]) await until("the table", async () => /^#\/table\/\d+$/.test(await p.page.evaluate(() => location.hash)), 30_000);

  // Ann proposes a deal by ICM from the bar above the felt; its terms come once the hand ends.
  const annBar = ann.page.getByLabel("tournament", { exact: true });
  await annBar.getByRole("button", { name: "by ICM" }).click();
  const offer = bob.page.getByRole("region", { name: "deal" });
  await offer.filter({ hasText: /proposes a deal by ICM/ }).waitFor();
  const accept = offer.getByRole("button", { name: "Accept the deal" });
  const shown = async () => accept.isVisible().catch(() => false);
  await Promise.all([playUntil(ann, shown), playUntil(bob, shown)]);
  const words = await offer.innerText();
  assert.match(words, /Waiting for/);
  // Both players with their chips and prizes: the prizes are the pool (the guarantee's, above
  // the two buy-ins), the chips every stack.
  const rows = await offer.locator("tbody tr").allInnerTexts();
  assert.equal(rows.length, 2);
  const cells = rows.map((r) => r.split("\t").map((x) => x.trim()));
  assert.equal(cells.reduce((s, c) => s + Number(c[1]), 0), 2000);
  assert.equal(cells.reduce((s, c) => s + Number(c[2]), 0), 500);
  await bob.page.screenshot({ path: join(screenshots, "tournament-deal.png") });

  await accept.click();
  for (const p of [ann, bob]) await p.page.getByRole("status").filter({ hasText: /You (won|finished 2nd in) tournament/ }).waitFor();
  const view = await call(ann.page, "tournament", { tournament: id });
  assert.equal(view.tournament.status, "finished");
  const prizes = Object.fromEntries(view.tournament.standings.map((s) => [s.name, s.prize]));
  for (const c of cells) assert.equal(prizes[c[0]], Number(c[2]), `${c[0]} is paid the deal's prize`);
  assert.deepEqual(ann.rec.bad, []);
  assert.deepEqual(bob.rec.bad, []);
  await ann.context.close();
  await bob.context.close();
});

test("the entry period in the browser: a late registration from the tournament's page seats its player, and a rebuy from the bar above the felt adds to the pool", { timeout: 120_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  const cy = await guestPage(browser, server, "cy");
  const made = await call(ann.page, "create_tournament", {
    format: "multi-table",
    seats: 3,
    buy_in: 100,
    starting_stack: 1000,
    start_in_s: 4,
    late_registration_levels: 1,
    rebuy_levels: 1,
    rebuy_stack: 1000,
    rebuy_stack_limit: 1000,
    hand_delay_ms: 0,
    decision_ms: 60000,
    levels: [{ small_blind: 10, big_blind: 20, hands: 500 }],
  });
  assert.equal(made.ok, true, JSON.stringify(made));
  const id = made.tournament;
  for (const p of [ann, bob]) {
    await p.page.goto(`${server.url}/#/tournament/${id}`);
    await p.page.getByRole("heading", { name: /late registration to level 1, rebuys for 1 level/ }).waitFor();
    await p.page.getByRole("button", { name: /Register \(100 chips\)/ }).click();
  }
  for (const p of [ann, bob]) await until("the table", async () => /^#\/table\/\d+$/.test(await p.page.evaluate(() => location.hash)), 30_000);

  // Cy comes late: the page offers the late registration, and the server seats them.
  await cy.page.goto(`${server.url}/#/tournament/${id}`);
  await cy.page.getByRole("button", { name: "Register late (1000 chips for 100)" }).click();
  await until("cy at the table", async () => /^#\/table\/\d+$/.test(await cy.page.evaluate(() => location.hash)), 30_000);

  // Cy's stack is at the limit: the bar offers a rebuy, and takes it.
  const bar = cy.page.getByLabel("tournament", { exact: true });
  const rebuy = bar.getByRole("button", { name: "Rebuy (1000 chips for 100)" });
  await rebuy.waitFor();
  await cy.page.screenshot({ path: join(screenshots, "tournament-entry.png") });
  await rebuy.click();
  await cy.page.getByRole("status").filter({ hasText: /Your rebuy is in/ }).waitFor();
  const view = await call(ann.page, "tournament", { tournament: id });
  assert.equal(view.tournament.pool, 400); // three entries and a rebuy
  assert.equal(view.tournament.entrants, 3);
  for (const p of [ann, bob, cy]) assert.deepEqual(p.rec.bad, []);
  for (const p of [ann, bob, cy]) await p.context.close();
});
