// Leap rummy in the browser, against a real feltd started with --chosen-decks so that the game is
// known: one player melds (taking leap 2's token), the other's meld in leap 2 is refused and the
// refusal shown, the first extends its meld, a reload in the middle keeps the hand, both retire
// (the cost shown first), the scores on screen are the server's, and the game replays from the
// history with its melds and tokens as they were.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { chooseDeck, failures, guestPage, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--chosen-decks"], (s, b) => ([server, browser] = [s, b]));

// Dealt one at a time from the dealer's left: the first to act holds hearts along leap 2, the
// other diamonds along leap 2. Then the stock, top first: two cards for each pursuit.
const kFirst = ["3h", "5h", "7h", "Jh", "Ts"];
const kSecond = ["4d", "6d", "8d", "Kc", "Qc"];
const kStock = ["9h", "2c", "5c", "7s", "Kh", "4c", "9c", "3s"];


const hand = (page) => page.locator(".my-hand .card").evaluateAll((els) => els.map((e) => e.dataset.card));
const pick = async (page, cards) => {
  for (const c of cards) await page.locator(`.my-hand [data-card="${c}"]`).click();
};
const turnOf = (p) => p.rec.received.filter((m) => m.type === "table" && m.kind === "turn").at(-1);

test("two people play leap rummy: a meld takes a token, a trespass is refused, an extension, retiring, the end, the history", { timeout: 180_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  const bob = await guestPage(browser, server, "bob");
  try {
    await ann.page.getByRole("button", { name: "New table" }).click();
    const form = ann.page.getByRole("form", { name: "create a table" });
    await form.locator('select[name="game"]').selectOption("leap");
    for (const [k, v] of Object.entries({ seats: 2, chips_per_point: 1, turn_s: 600, hand_delay_s: 1.5 }))
      await form.locator(`input[name="${k}"]`).fill(String(v));
    await form.getByRole("button", { name: "Create table" }).click();
    const table = (await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok))).table;
    const deck = [...kFirst.flatMap((c, i) => [c, kSecond[i]]), ...kStock].join(" ");
    assert.equal(await chooseDeck(ann.page, table, deck), 18);
    for (const p of [ann, bob]) {
      await p.page.locator(`tr[data-table="${table}"]`).getByRole("button", { name: "Join" }).click();
      await p.page.getByRole("button", { name: "Sit down" }).click();
      await p.page.locator(".leap-seats").waitFor();
    }
    const first = await until("the first turn", () => turnOf(ann));
    const seatOf = (p) => p.rec.received.find((m) => m.type === "join" && m.ok).seat;
    const [p, q] = seatOf(ann) === first.seat ? [ann, bob] : [bob, ann];
    await p.page.locator(".phase", { hasText: "Your turn: pursue" }).waitFor();
    assert.deepEqual((await hand(p.page)).sort(), [...kFirst].sort());
    assert.deepEqual((await hand(q.page)).sort(), [...kSecond].sort());

    // P pursues, reloads: the same seven cards come back.
    await p.page.getByRole("button", { name: "Pursue (draw two)" }).click();
    await p.page.locator(".my-hand [data-card='9h']").waitFor();
    await p.page.reload();
    await p.page.locator(".my-hand [data-card='9h']").waitFor();
    assert.deepEqual((await hand(p.page)).sort(), [...kFirst, "9h", "2c"].sort());

    // A meld along leap 2, judged before it is sent; it takes leap 2's token.
    await pick(p.page, ["3h", "5h", "7h"]);
    await p.page.locator(".verdict-line.ok", { hasText: "Meld in leap 2: points 0 → 1" }).waitFor();
    await p.page.getByRole("button", { name: "Meld", exact: true }).click();
    for (const x of [p, q]) await x.page.locator(`.leap-group[data-leap="2"][data-holder="${first.seat}"]`).waitFor();
    await q.page.locator(".leap-group[data-leap='2'] .token", { hasText: "token:" }).waitFor();
    // Melded: a click on a card discards it.
    await p.page.locator(".phase", { hasText: "Click a card to discard it" }).waitFor();
    await p.page.locator(".my-hand [data-card='2c']").click();

    // Q's diamonds along leap 2: the preview and then the server refuse it, naming P.
    await q.page.getByRole("button", { name: "Pursue (draw two)" }).click();
    await q.page.locator(".my-hand [data-card='5c']").waitFor();
    await pick(q.page, ["4d", "6d", "8d"]);
    await q.page.locator(".verdict-line.bad", { hasText: "leap 2 belongs to" }).waitFor();
    await q.page.getByRole("button", { name: "Meld", exact: true }).click();
    await q.page.locator(".refusal", { hasText: "leap 2 belongs to" }).waitFor();
    assert.ok(q.rec.received.some((m) => m.type === "error" && m.code === "leap_taken"));
    await pick(q.page, ["4d", "6d", "8d", "Kc"]); // unpick the three, pick the king
    await q.page.getByRole("button", { name: "Discard Kc" }).click();

    // P extends its meld with the nine: points 1 -> 3.
    await p.page.getByRole("button", { name: "Pursue (draw two)" }).click();
    await p.page.locator(".my-hand [data-card='Kh']").waitFor();
    await pick(p.page, ["9h"]);
    await p.page.locator(".leap-play button.meld.mine").click();
    await p.page.locator(".verdict-line.ok", { hasText: "points 1 → 3" }).waitFor();
    await p.page.getByRole("button", { name: "Extend", exact: true }).click();
    await p.page.locator(".phase", { hasText: "Click a card to discard it" }).waitFor();
    await q.page.locator(".meld", { hasText: "3 points" }).waitFor();
    await p.page.screenshot({ path: join(screenshots, "leap-table.png") });
    await p.page.locator(".my-hand [data-card='Kh']").click();

    // Both retire, each told first what the cards in hand cost.
    for (const x of [q, p]) {
      await x.page.locator(".phase", { hasText: "Your turn: pursue" }).waitFor();
      // Asked in the page's own dialog, never the browser's.
      x.page.once("dialog", () => assert.fail("a browser dialog"));
      await x.page.getByRole("button", { name: "Retire…" }).click();
      const dialog = x.page.getByRole("alertdialog", { name: /^Retire for the rest of the game\?/ });
      assert.match(await dialog.innerText(), /cost \d+/);
      if (x === q) await x.page.screenshot({ path: join(screenshots, "leap-retire.png") });
      await dialog.getByRole("button", { name: "Retire" }).click();
    }
    const end = await until("game_end", () => ann.rec.received.find((m) => m.type === "table" && m.kind === "game_end"));
    for (const x of [p, q]) {
      await x.page.locator(".leap-end").first().waitFor();
      const rows = await x.page.locator(".leap-end").first().locator("tr[data-seat]").evaluateAll((els) =>
        els.map((e) => ({ seat: Number(e.dataset.seat), score: Number(e.dataset.score), net: Number(e.dataset.net) })),
      );
      assert.deepEqual(
        rows,
        end.scores.flatMap((score, seat) => (score === null ? [] : [{ seat, score, net: end.net[seat] }])),
      );
      await x.page.locator(".leap-end .fairness.ok").first().waitFor();
    }
    // The spec's scores: melds less the face values left in hand (J 11, T 10, Q 12).
    assert.equal(end.scores[first.seat], 3 - (11 + 10 + 4)); // Jh Ts 4c left
    assert.equal(end.scores[seatOf(q)], 0 - (4 + 6 + 8 + 12 + 5 + 7)); // 4d 6d 8d Qc 5c 7s
    await p.page.screenshot({ path: join(screenshots, "leap-end.png") });

    // The history replays it action by action: after the second action (the meld) leap 2 holds
    // three cards and P its token; at the end, four.
    await p.page.getByRole("link", { name: "History" }).click();
    await p.page.locator(`tr[data-hand="${end.hand_id}"]`).getByRole("button", { name: "Replay" }).click();
    await p.page.locator(".verdict", { hasText: "matches" }).waitFor();
    const meldCards = () => p.page.locator(".leap-group[data-leap='2'] .meld .card").count();
    assert.equal(await meldCards(), 0);
    await p.page.getByRole("button", { name: "Next ▶" }).click();
    await p.page.getByRole("button", { name: "Next ▶" }).click();
    await p.page.locator(`.leap-group[data-leap="2"][data-holder="${first.seat}"]`).waitFor();
    assert.equal(await meldCards(), 3);
    await p.page.getByRole("button", { name: "End »" }).click();
    assert.equal(await meldCards(), 4);
    for (const x of [ann, bob]) assert.deepEqual(x.rec.bad.slice(0, 3), []);
  } catch (e) {
    for (const x of [ann, bob]) await x.page.screenshot({ path: join(failures, `leap-${x.name}.png`) });
    throw e;
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
