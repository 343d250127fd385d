// A player's statistics page (issue 51): after hands against the house's bots, the page shows the
// figures the server counted for exactly the hands the player was dealt, the profit graph with
// its four lines, and follows each filter: a variant never played has no hands, the tournament
// kind adds the tournament results, another game shows its own figures. At the table, each bot's
// seat shows what she saw of it; a search over her hands finds them, each opening in the replayer.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { guestPage, playPassively, room, screenshots, until } from "./harness.mjs";

let server, browser;
room(["--bot-think-min-ms", "50", "--bot-think-max-ms", "150"], (s, b) => ([server, browser] = [s, b]));

const share = (t) => (t.opportunities ? String(Math.round((100 * t.times) / t.opportunities)) : "–");
const replies = (rec) => rec.received.filter((m) => m.type === "stats" && m.ok);

test("the statistics page: the player's own figures, the profit graph, the filters", { timeout: 150_000 }, async () => {
  const ann = await guestPage(browser, server, "ann");
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption("holdem");
  await form.locator('select[name="bots"]').selectOption("2");
  await form.locator('select[name="bot_level"]').selectOption("fair");
  for (const [k, v] of Object.entries({ seats: 4, hand_delay_s: 3, showdown_delay_s: 3, runout_s: 0.1 })) await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  await until("Ann's seat", () => ann.rec.received.find((m) => m.type === "join" && m.ok));
  const ends = await playPassively(ann, 6, 90_000);
  // The overlay at each bot's seat: what she saw of it, as the server answered the page.
  const overlays = ann.page.locator(".felt .seat .seen");
  await until("the overlay at both bots' seats", async () => (await overlays.count()) === 2);
  // The page shows the server's latest answer (the frames are recorded as they come: wait for
  // the page and the record to agree).
  const answer = await until("the overlay as answered", async () => {
    const last = ann.rec.received.findLast((m) => m.type === "opponent_stats" && m.ok);
    const texts = await overlays.allInnerTexts();
    return last && last.opponents.every((o) => texts.includes(`${o.hands}h · ${share(o.vpip)}/${share(o.pfr)}`)) && last;
  });
  assert.equal(answer.opponents.length, 2);
  for (const o of answer.opponents) {
    assert.ok(o.hands >= 1 && o.hands <= ends(), JSON.stringify(o));
    assert.ok(o.vpip.opportunities <= o.hands && o.pfr.times <= o.pfr.opportunities, JSON.stringify(o));
  }
  await ann.page.locator(".felt").screenshot({ path: join(screenshots, "table-overlay.png") });
  // She leaves in the pause after the sixth hand, so that no hand of hers ends while the page
  // counts.
  await ann.page.getByRole("button", { name: "Leave table" }).click();
  await until("left", () => ann.rec.received.find((m) => m.type === "leave" && m.ok));
  const played = ends();

  await ann.page.getByRole("link", { name: "Statistics" }).click();
  await ann.page.getByRole("heading", { name: "My statistics" }).waitFor();
  const first = await until("the statistics", () => replies(ann.rec)[0]);
  // Every hand she was dealt, and only those; the graph's days add up to them.
  assert.equal(first.stats.hands, played);
  assert.equal(first.days.reduce((n, d) => n + d.hands, 0), played);
  assert.equal(first.days.reduce((n, d) => n + d.net, 0), first.stats.net);
  const summary = ann.page.locator(".stats-page .summary");
  await until("the summary", async () => (await summary.innerText()).startsWith(`${played} hands`));
  // A passive player calls or checks: every hand she was not walked is a VPIP chance; the page
  // shows the counts as served.
  const vpip = ann.page.locator("table.stats tr", { has: ann.page.locator("th", { hasText: /^VPIP$/ }) });
  assert.equal((await vpip.locator("td.count").innerText()).trim(), `${first.stats.vpip.times} / ${first.stats.vpip.opportunities}`);
  assert.ok(first.stats.vpip.opportunities >= played - 2, JSON.stringify(first.stats.vpip));
  // The profit graph: net, showdown, non-showdown and all-in EV, ending at the net.
  const graph = ann.page.locator("figure.chart.profit");
  assert.equal(await graph.locator("polyline").count(), 4);
  assert.match(await graph.locator("figcaption").innerText(), new RegExp(`net won ${first.stats.net > 0 ? "\\+" : ""}${first.stats.net}\\b`));
  await ann.page.screenshot({ path: join(screenshots, "stats.png"), fullPage: true });

  // A variant she never played: no hands, no graph.
  const filters = ann.page.getByRole("form", { name: "filters" });
  await filters.getByLabel("Variant").selectOption("omaha");
  await until("omaha's answer", () => replies(ann.rec).find((r) => r.filter.variant === "omaha"));
  await ann.page.getByText("No hands in this selection.").waitFor();
  assert.equal(await graph.count(), 0);
  await filters.getByLabel("Variant").selectOption("");
  // The tournament kind: her tournament results (none yet).
  await filters.getByLabel("Kind").selectOption("tournament");
  const t = await until("the tournament answer", () => replies(ann.rec).find((r) => r.filter.kind === "tournament"));
  assert.equal(t.tournaments.entries, 0);
  await ann.page.getByRole("heading", { name: "Tournament results" }).waitFor();
  await filters.getByLabel("Kind").selectOption("cash");
  // Chinese poker's own figures.
  await filters.getByLabel("Game").selectOption("chinese");
  await until("Chinese poker's answer", () => replies(ann.rec).find((r) => r.filter.game === "chinese"));
  await until("Chinese poker's summary", async () => (await summary.innerText()).startsWith("0 deals"));
  assert.ok(await ann.page.locator("table.stats th", { hasText: "Scoops" }).isVisible());

  // Find hands: every hand she played, then those of one class of two cards, those she won; a hit
  // opens in the replayer.
  const find = ann.page.getByRole("form", { name: "find hands" });
  const found = ann.page.getByRole("table", { name: "hands found" }).locator("tbody tr[data-hand]");
  const searches = () => ann.rec.received.filter((m) => m.type === "hand_search" && m.ok);
  await find.getByRole("button", { name: "Find" }).click();
  const everything = await until("every hand found", () => searches()[0]);
  assert.equal(everything.hands.length, played);
  await until("the hits listed", async () => (await found.count()) === played);
  const hole = everything.hands[0].hole;
  assert.match(hole, /^[2-9TJQKA]{2}[so]?$/);
  await find.getByLabel("Hand").fill(hole);
  await find.getByRole("button", { name: "Find" }).click();
  const same = await until("the hands of one class", () => searches()[1]);
  assert.ok(same.hands.length >= 1 && same.hands.every((h) => h.hole === hole), JSON.stringify(same.hands));
  await until("their rows", async () => (await found.count()) === same.hands.length);
  await find.getByLabel("Hand").fill("");
  await find.getByLabel("Result").selectOption("won");
  await find.getByRole("button", { name: "Find" }).click();
  const won = await until("the hands won", () => searches()[2]);
  assert.ok(won.hands.every((h) => h.net > 0));
  assert.equal(won.hands.length, everything.hands.filter((h) => h.net > 0).length);
  await find.getByLabel("Result").selectOption("");
  await find.getByRole("button", { name: "Find" }).click();
  await until("every hand again", () => searches()[3]);
  await until("the rows again", async () => (await found.count()) === played);
  await ann.page.locator(".find-hands").screenshot({ path: join(screenshots, "find-hands.png") });
  const newest = everything.hands[0].hand;
  await found.first().getByRole("button", { name: "Replay" }).click();
  await until("the replayer", () => ann.page.url().endsWith(`#/hand/${newest}`));
  await until("the hand's record", () => ann.rec.received.find((m) => m.type === "hand" && m.ok && m.hand === newest));
  assert.deepEqual(ann.rec.bad, []);
});
