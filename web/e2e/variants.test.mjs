// Every betting structure and the drawing and stud games in the browser: pot limit and fixed
// limit keep the presets and the slider inside what legal allows, five-card draw discards cards
// chosen by clicking them, and seven-card stud shows each player's up cards, and only those, to
// the other. Two people play one hand of each through the page; every frame is validated.
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chooseDeck, failures, guestPage, lastLegal, launch, passiveTurn, runFelt, screenshots, sleep, startFeltd, until } from "./harness.mjs";

let server, browser, ann, bob;

const person = (name) => guestPage(browser, server, name, { width: 1100, height: 900 });

before(async () => {
  server = await startFeltd(["--tables-per-account", "20", "--chosen-decks"]);
  browser = await launch();
  await mkdir(failures, { recursive: true });
  await mkdir(screenshots, { recursive: true });
  ann = await person("ann");
  bob = await person("bob");
});
after(async () => {
  for (const p of [ann, bob]) if (p) assert.deepEqual(p.rec.bad.slice(0, 3), [], `${p.name}: frames or page errors`);
  await browser?.close();
  await server?.stop();
});

// Ann creates a table of this variant and structure; both sit down; one hand is played with
// checks and calls, `onTurn(person, legal)` first at each turn; then both leave. `extra`: more
// choices of the create form (name -> option), `deck`, the first cards dealt, and `atEnd(table)`,
// called once the hand has ended, before they leave.
async function playOneHand(variant, structure, onTurn, extra = {}) {
  const before = ann.rec.received.filter((m) => m.kind === "hand_end").length;
  await ann.page.getByRole("link", { name: "Lobby" }).click();
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption(variant);
  await form.locator('select[name="structure"]').selectOption(structure);
  await form.locator('input[name="seats"]').fill("2");
  await form.locator('input[name="hand_delay_s"]').fill("3"); // time to leave after the hand
  for (const [name, option] of Object.entries(extra.choices ?? {})) await form.locator(`select[name="${name}"]`).selectOption(option);
  const created = ann.rec.received.filter((m) => m.type === "create_table").length;
  await form.getByRole("button", { name: "Create table" }).click();
  const refusals = ann.rec.received.filter((m) => m.type === "error").length;
  const table = (
    await until("the table", () => {
      const refused = ann.rec.received.filter((m) => m.type === "error")[refusals];
      if (refused) throw new Error(`${variant} ${structure}: ${refused.message}`);
      return ann.rec.received.filter((m) => m.type === "create_table")[created];
    })
  ).table;
  if (extra.deck) await chooseDeck(ann.page, table, extra.deck);
  for (const p of [ann, bob]) {
    await p.page.getByRole("link", { name: "Lobby" }).click();
    await p.page.locator(`tr[data-table="${table}"]`).getByRole("button", { name: "Join" }).click();
    await p.page.getByRole("button", { name: "Sit down" }).click();
    await p.page.locator(".felt").waitFor();
  }
  const deadline = Date.now() + 60_000;
  while (ann.rec.received.filter((m) => m.kind === "hand_end").length === before) {
    if (Date.now() > deadline) {
      for (const p of [ann, bob]) await p.page.screenshot({ path: join(failures, `${variant}-${p.name}.png`) });
      assert.fail(`${variant} ${structure}: the hand did not end`);
    }
    for (const p of [ann, bob]) {
      const bar = p.page.locator(".action-bar");
      if (!(await bar.isVisible().catch(() => false))) continue;
      const legal = lastLegal(p.rec);
      if (await onTurn(p, legal, bar, table)) continue;
      await passiveTurn(p, legal, bar);
    }
    await sleep(50);
  }
  if (extra.atEnd) await extra.atEnd(table);
  for (const p of [ann, bob]) {
    await p.page.getByRole("button", { name: "Leave table" }).click();
    await p.page.getByRole("heading", { name: "Tables" }).waitFor();
  }
  return table;
}

test("pot limit: every preset, the slider and the amount box stay inside min_to..max_to", { timeout: 120_000 }, async () => {
  let checked = 0;
  await playOneHand("holdem", "pot-limit", async (p, legal, bar) => {
    if (!(legal.bet || legal.raise) || legal.min_to >= legal.max_to) return false;
    const slider = bar.getByRole("slider", { name: "bet size" });
    assert.equal(Number(await slider.getAttribute("min")), legal.min_to);
    assert.equal(Number(await slider.getAttribute("max")), legal.max_to);
    const presets = bar.locator(".presets button");
    const labels = await presets.allInnerTexts();
    assert.equal(labels.at(-1), "Max");
    for (let i = 0; i < labels.length; ++i) {
      await presets.nth(i).click();
      const to = Number(await slider.inputValue());
      assert.ok(to >= legal.min_to && to <= legal.max_to, `${labels[i]}: ${to}`);
      assert.equal(Number(await bar.getByRole("textbox", { name: "bet amount" }).inputValue()), to);
    }
    assert.equal(Number(await slider.inputValue()), legal.max_to); // "Max" is the pot limit
    // An amount typed past the limit: the bet stays at the limit, and the page asks before it.
    await bar.getByRole("textbox", { name: "bet amount" }).fill(String(legal.max_to * 10));
    assert.match(await bar.getByRole("button", { name: /^(Raise to|Bet) / }).innerText(), new RegExp(` ${legal.max_to}$`));
    await p.page.getByRole("alertdialog", { name: new RegExp(`^${legal.max_to * 10} is more than you have`) }).getByRole("button", { name: "Cancel" }).click();
    ++checked;
    return false;
  });
  assert.ok(checked > 0, "a pot-limit raise was offered");
});

test("fixed limit: one size, so no slider and no presets; the raise is to min_to", { timeout: 120_000 }, async () => {
  let checked = 0;
  await playOneHand("holdem", "fixed-limit", async (p, legal, bar) => {
    if (!(legal.bet || legal.raise)) return false;
    assert.equal(legal.min_to, legal.max_to);
    assert.equal(await bar.getByRole("slider").count(), 0);
    assert.equal(await bar.locator(".presets").count(), 0);
    assert.match(await bar.getByRole("button", { name: /^(Raise to|Bet) / }).innerText(), new RegExp(` ${legal.min_to}$`));
    ++checked;
    return false;
  });
  assert.ok(checked > 0, "a fixed-limit bet or raise was offered");
});

test("fixed-limit stud, a pair showing on fourth street under the casino custom: two buttons, the small and the big bet", { timeout: 120_000 }, async () => {
  let offered = 0, after = null;
  // Both show kings: Kh and Kd up on third street, Ks and Kc on fourth.
  const deck = "2s 3s Kh 2h 3h Kd Ks Kc";
  await playOneHand(
    "stud",
    "fixed-limit",
    async (p, legal, bar) => {
      if (offered > 0 && after === null && (legal.bet || legal.raise)) after = legal; // the raise that follows
      if (!legal.two_sizes) return false;
      assert.deepEqual([legal.min_to, legal.max_to], [4, 8]);
      const sizes = await bar.locator(".two-sizes button").allInnerTexts();
      assert.deepEqual(sizes, ["Bet 4", "Bet 8"]);
      assert.equal(await bar.getByRole("slider").count(), 0);
      await p.page.screenshot({ path: join(screenshots, "stud-open-pair.png") });
      await bar.getByRole("button", { name: "Bet 8" }).click();
      await bar.waitFor({ state: "hidden", timeout: 5000 });
      ++offered;
      return true;
    },
    { choices: { open_pair: "choice" }, deck },
  );
  assert.equal(offered, 1, "the choice was offered once, to fourth street's first bettor");
  assert.ok(after && after.min_to === 16 && after.max_to === 16, `the raise follows the big bet: ${JSON.stringify(after)}`);
});

test("five-card draw: the cards clicked are the cards discarded, and new ones replace them", { timeout: 120_000 }, async () => {
  let drew = 0;
  await playOneHand("draw", "no-limit", async (p, legal, bar) => {
    if (legal.phase !== "drawing" || legal.max_discard < 2) return false;
    // The hand is shown once, at the seat, and picked there; the bar has no cards of its own.
    const mine = p.page.locator(".seat.mine button.card");
    assert.equal(await mine.count(), 5);
    assert.equal(await bar.locator(".card").count(), 0);
    const picked = [await mine.nth(0).getAttribute("data-card"), await mine.nth(3).getAttribute("data-card")];
    await mine.nth(0).click();
    await mine.nth(3).click();
    assert.equal(await mine.nth(0).getAttribute("aria-pressed"), "true");
    if (p === ann) await ann.page.screenshot({ path: join(screenshots, "draw.png") });
    const sent = p.rec.sent.length;
    await bar.getByRole("button", { name: "Discard 2" }).click();
    const act = await until("the discard", () => p.rec.sent.slice(sent).find((m) => m.type === "act"));
    assert.equal(act.action, "discard");
    assert.deepEqual(act.cards.split(" ").sort(), [...picked].sort());
    await bar.waitFor({ state: "hidden" });
    await until("five cards again", async () => (await p.page.locator(".seat.mine [data-card]").count()) === 5);
    const now = await p.page.locator(".seat.mine [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
    for (const c of picked) assert.ok(!now.includes(c), `${c} was discarded but is still shown`);
    ++drew;
    return true;
  });
  assert.equal(drew, 2, "both players drew");
});

test("five-card draw: Hint picks the engine's best exchange, which the player may take", { timeout: 120_000 }, async () => {
  // One player holds four to a royal flush, the other a pair of sevens.
  const deck = "Ah Kh Qh Jh 2c 7c 7d Ks 9h 3c";
  const hinted = [];
  await playOneHand(
    "draw",
    "no-limit",
    async (p, legal, bar) => {
      if (legal.phase !== "drawing") return false;
      const mine = await p.page.locator(".seat.mine button.card").evaluateAll((els) => els.map((e) => e.dataset.card));
      const got = p.rec.received.length;
      await bar.getByRole("button", { name: "Hint" }).click();
      const reply = await until("the hint", () => p.rec.received.slice(got).find((m) => m.type === "hint"));
      const best = reply.exchanges[0];
      assert.equal(best.discard, mine.includes("Ah") ? "2c" : "Ks 9h 3c");
      const pressed = await p.page.locator('.seat.mine button.card[aria-pressed="true"]').evaluateAll((els) => els.map((e) => e.dataset.card));
      assert.deepEqual(pressed.sort(), best.discard.split(" ").sort());
      const advice = await bar.getByRole("status").innerText();
      assert.match(advice, new RegExp(`^Throw ${best.discard}: the hand you end with beats ${Math.round(best.expected * 100)}% of all hands`));
      if (mine.includes("Ah")) await p.page.screenshot({ path: join(screenshots, "draw-hint.png") });
      await bar.getByRole("button", { name: `Discard ${best.count}` }).click();
      await bar.waitFor({ state: "hidden", timeout: 5000 });
      hinted.push(best.discard);
      return true;
    },
    { deck },
  );
  assert.deepEqual(hinted.sort(), ["2c", "Ks 9h 3c"]);
  // The history shows each player their own draw beside the best one the cards that came allowed.
  const end = ann.rec.received.filter((m) => m.kind === "hand_end").at(-1);
  for (const p of [ann, bob]) {
    const asked = p.rec.received.length;
    await p.page.getByRole("link", { name: "History" }).click();
    await p.page.locator(`tr[data-hand="${end.hand_id}"]`).getByRole("button", { name: "Replay" }).click();
    const record = await until("the record", () => p.rec.received.slice(asked).find((m) => m.type === "hand" && m.ok));
    const draw = record.best_draw;
    assert.ok(draw.held === "Ah Kh Qh Jh 2c" || draw.held === "7c 7d Ks 9h 3c", draw.held);
    assert.equal(draw.made.discard, draw.held.startsWith("Ah") ? "2c" : "Ks 9h 3c");
    const section = p.page.getByRole("region", { name: "your draw" });
    assert.match(await section.innerText(), new RegExp(`You held ${draw.held}; you chose to throw ${draw.made.discard} and made ${draw.made.hand}`));
    if (draw.held.startsWith("7c")) await p.page.screenshot({ path: join(screenshots, "draw-history.png") });
  }
});

test("seven-card stud: each player sees the other's up cards, and no down card", { timeout: 120_000 }, async () => {
  let looked = 0, shot = false;
  await playOneHand("stud", "fixed-limit", async (p, legal, bar, table) => {
    const other = p === ann ? bob : ann;
    // What the other player was dealt face down, from their own frames; what was dealt face up,
    // from this player's.
    const down = new Set();
    const up = new Set();
    for (const m of other.rec.received)
      if (m.kind === "update" && m.table === table)
        for (const e of m.events)
          if (e.kind === "deal_down" && e.cards) for (const c of e.cards.split(" ")) down.add(`${e.seat}:${c}`);
    for (const m of p.rec.received)
      if (m.kind === "update" && m.table === table)
        for (const e of m.events) if (e.kind === "deal_up" && e.cards) for (const c of e.cards.split(" ")) up.add(`${e.seat}:${c}`);
    const theirSeat = await other.page.locator(".seat.mine").getAttribute("data-seat");
    const seen = await p.page.locator(`.seat[data-seat="${theirSeat}"] [data-card]`).evaluateAll((els) => els.map((e) => e.dataset.card));
    const theirUp = [...up].filter((k) => k.startsWith(`${theirSeat}:`)).map((k) => k.split(":")[1]);
    assert.deepEqual([...seen].sort(), [...theirUp].sort(), "the up cards, all and only");
    for (const c of seen) assert.ok(!down.has(`${theirSeat}:${c}`), `${c} was dealt face down`);
    if (theirUp.length >= 3 && !shot) {
      shot = true;
      await p.page.screenshot({ path: join(screenshots, "stud.png") });
      // At a phone's width: every seat, card and button still on the page and apart.
      await p.page.setViewportSize({ width: 390, height: 844 });
      await p.page.screenshot({ path: join(screenshots, "phone.png"), fullPage: true });
      const boxes = await p.page.locator(".felt .seat .plate").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
      for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390, `a seat off the screen: ${JSON.stringify(b)}`);
      const [a, b] = boxes;
      assert.ok(a.bottom <= b.top || b.bottom <= a.top, "the two seats overlap");
      await p.page.setViewportSize({ width: 1100, height: 900 });
    }
    ++looked;
    return false;
  });
  assert.ok(looked > 0);
});

test("straight poker, shrinking draw and Mexican stud play to the end through the page", { timeout: 180_000 }, async () => {
  const phases = new Set();
  for (const variant of ["straight", "shrinking", "mexican"])
    await playOneHand(variant, "fixed-limit", async (p, legal) => {
      phases.add(`${variant}:${legal.phase}`);
      return false;
    });
  // Shrinking draw throws two cards a round, Mexican stud turns cards up: both were done by clicks,
  // and a rollover never offered a card already face up (the server would refuse it).
  for (const p of [ann, bob]) assert.ok(!p.rec.received.some((m) => m.type === "error"), `${p.name} was refused`);
  assert.ok(phases.has("shrinking:drawing"), [...phases].join());
  assert.ok(phases.has("mexican:rollover"), [...phases].join());
  assert.ok(phases.has("straight:betting"));
});

test("Omaha hi-lo: four hole cards each, and the pot split as high and low, each half named", { timeout: 120_000 }, async () => {
  // Whoever is dealt first: one player makes three kings, the other a seven-four low and no more
  // than kings with an ace.
  const deck = "Ks Td 9h 9c Ah 4d Qc Jc 2s 3s 7d Kh Kc";
  let holeCards = 0;
  const table = await playOneHand("omaha-hilo", "fixed-limit", async (p) => {
    holeCards = Math.max(holeCards, await p.page.locator(".seat.mine [data-card]").count());
    return false;
  }, {
    deck,
    atEnd: async () => {
      for (const p of [ann, bob]) {
        const results = p.page.getByRole("status", { name: "results" });
        await results.waitFor();
        const text = await results.innerText();
        assert.match(text, /high: \S+ \d+ \(three kings/, text);
        assert.match(text, /low: \S+ \d+ \(a seven-four low\)/, text);
      }
      await ann.page.screenshot({ path: join(screenshots, "omaha-hilo.png") });
    },
  });
  assert.equal(holeCards, 4);
  const wins = ann.rec.received.filter((m) => m.kind === "update" && m.table === table).flatMap((m) => m.events).filter((e) => e.kind === "win");
  assert.deepEqual(wins.map((e) => e.half).sort(), ["high", "low"]);
  // The history replays it to the same split, and its PHH (FO/8) plays to the same stacks.
  const handId = ann.rec.received.findLast((m) => m.kind === "hand_end").hand_id;
  await ann.page.getByRole("link", { name: "History" }).click();
  await ann.page.locator(`tr[data-hand="${handId}"]`).getByRole("button", { name: "Replay" }).click();
  const record = await until("the hand", () => ann.rec.received.find((m) => m.type === "hand" && m.ok && m.hand === handId));
  assert.equal(record.replay.matches, true);
  await ann.page.getByRole("button", { name: "End »" }).click();
  const banner = await ann.page.locator(".replay .end-banner").innerText();
  assert.match(banner, /high: \S+ \d+ \(three kings.*low: \S+ \d+ \(a seven-four low\)/s, banner);
  const [download] = await Promise.all([ann.page.waitForEvent("download"), ann.page.getByRole("button", { name: "Download PHH" }).click()]);
  const phhPath = join(server.dir, "omaha-hilo.phh");
  await download.saveAs(phhPath);
  assert.match(await readFile(phhPath, "utf8"), /variant = 'FO\/8'|variant = "FO\/8"/);
  const replay = await runFelt(["replay", "--json", phhPath]);
  assert.equal(replay.code, 0, replay.out + replay.err);
  assert.equal(JSON.parse(replay.out).finishing_stacks.reduce((a, b) => a + b, 0), record.seats.reduce((a, s) => a + s.stack_end, 0));
});

test("the other mixed games play to the end through the page, each hand named at its showdown", { timeout: 300_000 }, async () => {
  const phases = new Set();
  // Omaha with six hole cards: the most a seat shows.
  const games = [
    ["omaha", "pot-limit", { hole_cards: "6" }], ["razz", "fixed-limit"], ["stud-hilo", "fixed-limit"], ["deuce-single-draw", "no-limit"],
    ["deuce-triple-draw", "fixed-limit"], ["badugi", "fixed-limit"], ["short-deck", "no-limit"],
  ];
  let omahaCards = 0;
  for (const [variant, structure, choices] of games)
    await playOneHand(variant, structure, async (p, legal) => {
      phases.add(`${variant}:${legal.phase}`);
      if (variant === "omaha") omahaCards = Math.max(omahaCards, await p.page.locator(".seat.mine [data-card]").count());
      return false;
    }, {
      choices,
      atEnd: async (table) => {
        // A showdown's hands are named in the log; razz, the deuce-to-seven draws and badugi by
        // their lows.
        const shows = ann.rec.received.filter((m) => m.kind === "update" && m.table === table).flatMap((m) => m.events).filter((e) => e.kind === "show" && !e.early);
        for (const e of shows) assert.ok(e.made, `${variant}: a show without words: ${JSON.stringify(e)}`);
        if (["razz", "badugi", "deuce-triple-draw"].includes(variant)) {
          await ann.page.getByRole("status", { name: "results" }).waitFor();
          await ann.page.screenshot({ path: join(screenshots, `${variant}.png`) });
        }
      },
    });
  for (const p of [ann, bob]) assert.ok(!p.rec.received.some((m) => m.type === "error"), `${p.name} was refused`);
  for (const v of ["deuce-single-draw", "deuce-triple-draw", "badugi"]) assert.ok(phases.has(`${v}:drawing`), [...phases].join());
  assert.equal(omahaCards, 6);
});
