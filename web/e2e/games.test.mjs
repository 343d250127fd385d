// Chinese poker and leap rummy speak the schema too: two guests play a Chinese poker deal (each
// laying the engine's hint) and a leap rummy game (pursuing, discarding, then retiring) over
// WebSockets opened by a page, so that every frame both ways is recorded and validated against
// protocol/schema/felt.schema.json, as in the other browser tests. (Their tables on screen are
// played in chinese.test.mjs and leap.test.mjs.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch, record, startFeltd } from "./harness.mjs";

let server, browser;
before(async () => {
  server = await startFeltd();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// Runs in the page: two guests at one new table of `config`, each playing with `play(client, m)`
// until the hand's end reaches both; resolves with what ended it.
const script = async ({ config, game }) => {
  const open = () =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      let id = 0;
      const waiting = new Map();
      const c = { ws, pushes: [], onPush: () => {}, seat: -1, hand: [] };
      c.call = (type, body = {}) =>
        new Promise((res, rej) => {
          waiting.set(++id, { res, rej });
          ws.send(JSON.stringify({ ...body, type, id }));
        });
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type === "table") return c.onPush(m);
        const w = waiting.get(m.id);
        if (!w) return;
        waiting.delete(m.id);
        if (m.type === "error") w.rej(new Error(`${m.code}: ${m.message}`));
        else w.res(m);
      };
      ws.onopen = () => resolve(c);
      ws.onerror = () => reject(new Error("no connection"));
    });
  const players = [await open(), await open()];
  for (const c of players) {
    await c.call("hello", { version: 2 });
    await c.call("guest");
  }
  const made = await players[0].call("create_table", { game, ...config });
  const table = made.table;
  const min = made.config.min_buy_in ?? 0;
  const ended = players.map(
    (c) =>
      new Promise((resolve, reject) => {
        c.onPush = (m) => {
          Promise.resolve(
            (async () => {
              if (m.kind === "deal_end" || m.kind === "game_end") return resolve(m.kind);
              if (game === "chinese" && m.kind === "deal" && m.cards) {
                const hint = await c.call("hint", { table, count: 1 });
                const a = hint.arrangements[0];
                await c.call("act", { table, action: "split", front: a.front, middle: a.middle, back: a.back, declare: a.declare });
              }
              if (game === "leap") {
                if (m.kind === "deal" && m.cards) c.hand = m.cards.split(" ");
                if (m.kind === "drew" && m.cards && m.seat === c.seat) c.hand.push(...m.cards.split(" "));
                if (m.kind === "turn" && m.seat === c.seat) {
                  if (m.phase === "turn") await c.call("act", { table, action: m.turn > 6 ? "retire" : "pursue" });
                  else if (m.phase === "melding") {
                    const card = c.hand.shift();
                    await c.call("act", { table, action: "discard", card });
                  }
                }
              }
            })(),
          ).catch(reject);
        };
      }),
  );
  for (const c of players) {
    const joined = await c.call("join", min > 0 ? { table, buy_in: min * 2 } : { table });
    c.seat = joined.seat;
  }
  const how = await Promise.all(ended);
  for (const c of players) await c.call("leave", { table });
  return how;
};

test("a Chinese poker deal and a leap rummy game: every frame matches the schema", { timeout: 120_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const rec = record(page);
  await page.goto(server.url);
  assert.deepEqual(
    await page.evaluate(script, { game: "chinese", config: { seats: 2, hand_delay_ms: 0, hints: true } }),
    ["deal_end", "deal_end"],
  );
  assert.deepEqual(
    await page.evaluate(script, { game: "leap", config: { seats: 2, hand_delay_ms: 0, chips_per_point: 1 } }),
    ["game_end", "game_end"],
  );
  const kinds = new Set(rec.received.filter((m) => m.type === "table").map((m) => m.kind));
  for (const k of ["deal", "submitted", "deal_end", "turn", "drew", "discarded", "retired", "game_end", "snapshot"])
    assert.ok(kinds.has(k), `no ${k} message was seen`);
  assert.ok(rec.sent.some((m) => m.type === "hint"));
  assert.deepEqual(rec.bad.slice(0, 3), []);
});
