// What the browser tests share: a real feltd on a free port with a fresh database and the built
// client, Debian's chromium driven by playwright-core, and a recorder that checks every WebSocket
// frame a page sends or receives against protocol/schema/felt.schema.json.
import { after, before } from "node:test";
import Ajv from "ajv";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const web = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const root = resolve(web, "..");
export const feltdPath = resolve(web, process.env.FELTD ?? "../build/feltd");
export const feltPath = resolve(web, process.env.FELT ?? "../build/felt");
export const screenshots = join(root, "docs", "screenshots");
export const failures = join(web, "e2e-out"); // pages as they were when a test failed

const schema = JSON.parse(await readFile(join(root, "protocol", "schema", "felt.schema.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema);
const validateServer = ajv.getSchema(`${schema.$id}#/definitions/ServerFrame`);
const validateRequest = ajv.getSchema(`${schema.$id}#/definitions/Request`);

// `db`: a database of its own (a PostgreSQL URL, for several nodes on one); by default a fresh
// SQLite file. `restart()` stops it (SIGTERM, a graceful stop) and starts it again on the same
// port and database, as an operator's restart would. E2E_LOG=info in the environment shows its
// log.
export async function startFeltd(args = [], { db } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "felt-e2e-"));
  const portFile = join(dir, "port");
  const run = async (port) => {
    await rm(portFile, { force: true });
    const proc = spawn(
      feltdPath,
      ["--port", String(port), "--port-file", portFile, "--db", db ?? join(dir, "felt.db"), "--static", join(web, "dist"),
       "--log-level", process.env.E2E_LOG ?? "warn", "--accounts-per-hour", "1000", ...args],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    for (let i = 0; i < 200; ++i) {
      const got = await readFile(portFile, "utf8").catch(() => "");
      if (got.trim()) return { proc, port: got.trim() };
      await new Promise((r) => setTimeout(r, 50));
    }
    proc.kill("SIGKILL");
    throw new Error("feltd did not start");
  };
  const stopped = (proc) => new Promise((r) => (proc.exitCode !== null ? r() : proc.once("exit", r)));
  let { proc, port } = await run(0);
  return {
    url: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/ws`,
    dir,
    async restart() {
      proc.kill("SIGTERM");
      await stopped(proc);
      ({ proc } = await run(port));
    },
    async stop() {
      proc.kill("SIGTERM");
      await stopped(proc);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
}

// Every frame of every WebSocket the page opens, each validated; `bad` lists the ones that fail.
export function record(page) {
  const rec = { received: [], sent: [], bad: [] };
  page.on("websocket", (ws) => {
    ws.on("framereceived", (f) => {
      const m = JSON.parse(f.payload);
      rec.received.push(m);
      if (!validateServer(m)) rec.bad.push({ dir: "received", m, errors: ajv.errorsText(validateServer.errors) });
    });
    ws.on("framesent", (f) => {
      const m = JSON.parse(f.payload);
      rec.sent.push(m);
      if (!validateRequest(m)) rec.bad.push({ dir: "sent", m, errors: ajv.errorsText(validateRequest.errors) });
    });
  });
  return rec;
}

export function runFelt(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(feltPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("exit", (code) => resolve({ code, out, err }));
    p.on("error", reject);
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function until(what, f, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// A person in a browser context of their own, signed in as a guest and looking at the lobby, with
// every frame of their page recorded (and page errors counted as bad).
// Its browser asks for reduced motion, so that screenshots and clicks never meet a card mid-deal
// (the motion test asks for it off).
export async function guestPage(browser, server, name, viewport = { width: 1280, height: 900 }, reducedMotion = "reduce") {
  const context = await browser.newContext({ viewport, acceptDownloads: true, reducedMotion });
  const page = await context.newPage();
  const rec = record(page);
  page.on("pageerror", (e) => rec.bad.push({ dir: "page", m: String(e) }));
  await page.goto(server.url);
  try {
    await page.getByRole("button", { name: "Play as a guest" }).click();
    await page.getByRole("heading", { name: "Tables" }).waitFor();
  } catch (e) {
    // What the page showed and said, for a failure that is hard to repeat.
    await mkdir(failures, { recursive: true });
    await page.screenshot({ path: join(failures, `sign-in-${name}.png`) }).catch(() => {});
    const text = await page.locator("body").innerText().catch(() => "?");
    throw new Error(`${name} could not sign in as a guest: the page shows "${text.slice(0, 200)}"; ` +
      `frames sent ${JSON.stringify(rec.sent.slice(0, 4))}, received ${JSON.stringify(rec.received.slice(0, 4))}: ${e}`);
  }
  return { name, context, page, rec };
}

// On a feltd started with --chosen-decks: from the page, as a guest of its own who spectates, the
// next deal of `table` is these cards, in the order dealt. Resolves with how many were taken.
export async function chooseDeck(page, table, cards) {
  return page.evaluate(
    async ({ table, cards }) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      await new Promise((r) => (ws.onopen = r));
      let id = 0;
      const call = (type, body = {}) =>
        new Promise((res, rej) => {
          const me = ++id;
          ws.addEventListener("message", function on(e) {
            const m = JSON.parse(e.data);
            if (m.id !== me) return;
            ws.removeEventListener("message", on);
            m.type === "error" ? rej(new Error(m.message)) : res(m);
          });
          ws.send(JSON.stringify({ ...body, type, id: me }));
        });
      await call("hello", { version: 2 });
      await call("guest");
      await call("spectate", { table });
      const r = await call("choose_deck", { table, cards });
      ws.close();
      return r.cards;
    },
    { table, cards },
  );
}

// A feltd (started with `args`) and a browser for one test file: started before its tests, with
// the folders for screenshots and failures made, and stopped after them. `started(server,
// browser)` hands them to the file.
export function room(args, started) {
  let server, browser;
  before(async () => {
    server = await startFeltd(args);
    browser = await launch();
    await mkdir(screenshots, { recursive: true });
    await mkdir(failures, { recursive: true });
    started(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
}

// Ann and Bob at a new two-seat no-limit hold'em table of `settings`; resolves with its id.
export async function twoAtTable(ann, bob, settings) {
  await ann.page.getByRole("button", { name: "New table" }).click();
  const form = ann.page.getByRole("form", { name: "create a table" });
  await form.locator('select[name="variant"]').selectOption("holdem");
  await form.locator('select[name="structure"]').selectOption("no-limit");
  for (const [k, v] of Object.entries({ seats: 2, ...settings })) await form.locator(`input[name="${k}"]`).fill(String(v));
  await form.getByRole("button", { name: "Create table" }).click();
  const table = (await until("the table", () => ann.rec.received.find((m) => m.type === "create_table" && m.ok))).table;
  for (const p of [ann, bob]) {
    const row = p.page.locator(`tr[data-table="${table}"]`);
    await row.getByRole("button", { name: "Join" }).click();
    await p.page.getByRole("button", { name: "Sit down" }).click();
    await until(`${p.name}'s seat`, () => p.rec.received.find((m) => m.type === "join" && m.ok));
  }
  return table;
}

// Whichever of the two has the action bar on screen.
export async function whoseTurn(players) {
  return until("a turn", async () => {
    for (const p of players) if (await p.page.locator(".action-bar").isVisible().catch(() => false)) return p;
    return null;
  });
}

// The legal actions of the last turn the page's player was offered (null: none yet).
export function lastLegal(rec) {
  for (let i = rec.received.length - 1; i >= 0; --i) {
    const m = rec.received[i];
    if (m.type === "table" && m.kind === "update" && m.turn?.legal) return m.turn.legal;
  }
  return null;
}

// Takes the turn the action bar offers as a passive player would, in any game: checks, calls or
// brings in; draws or turns up the fewest cards allowed, the first ones, picked at the player's
// seat (any card for a draw, a face-down one for a rollover). Then waits for the bar to go.
export async function passiveTurn(p, legal, bar) {
  if (legal.phase !== "betting") {
    const need = legal.phase === "drawing" ? legal.min_discard : legal.rollover;
    const pickable = p.page.locator(legal.phase === "drawing" ? ".seat.mine button.card" : ".seat.mine button.card.hole");
    for (let i = 0; i < need; ++i) await pickable.nth(i).click();
    await bar.getByRole("button", { name: /Stand pat|Discard|Turn up/ }).click();
  } else {
    const name = legal.check ? "Check" : legal.call ? /^Call / : /^Bring in/;
    await bar.getByRole("button", { name }).click();
  }
  await bar.waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
}

// The page's player takes every turn passively (passiveTurn) until `hands` hands have ended at
// their table; resolves with a count of the hands ended, for further waits.
export async function playPassively(p, hands, ms) {
  const ends = () => p.rec.received.filter((m) => m.type === "table" && m.kind === "hand_end").length;
  const bar = p.page.locator(".action-bar");
  await until(
    `${hands} hands played`,
    async () => {
      if (await bar.isVisible().catch(() => false)) {
        const legal = lastLegal(p.rec);
        if (legal) await passiveTurn(p, legal, bar);
      }
      return ends() >= hands;
    },
    ms,
  );
  return ends;
}

// A request from the page over a socket of its own, signed in as a guest of its own (signing in
// as the page's player would take their seat's messages to this socket): its reply.
export async function callAsGuest(page, type, body = {}) {
  return page.evaluate(
    async ({ type, body }) => {
      const ws = new WebSocket(`ws://${location.host}/ws`);
      await new Promise((r) => (ws.onopen = r));
      let id = 0;
      const ask = (t, b = {}) =>
        new Promise((res) => {
          const me = ++id;
          ws.addEventListener("message", function on(e) {
            const m = JSON.parse(e.data);
            if (m.id !== me) return;
            ws.removeEventListener("message", on);
            res(m);
          });
          ws.send(JSON.stringify({ ...b, type: t, id: me }));
        });
      await ask("hello", { version: 2 });
      await ask("guest");
      const r = await ask(type, body);
      ws.close();
      return r;
    },
    { type, body },
  );
}
