// Two feltd nodes on one PostgreSQL database (FELT_TEST_PG; scripts/test.sh starts a server): a
// page served by node b lists a table of node a in its lobby, joins it, follows the error moved to
// node a, resumes there with its token and plays a hand against a bot. Every frame is checked
// against the schema.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { failures, guestPage, launch, runFelt, startFeltd, until } from "./harness.mjs";

const pg = process.env.FELT_TEST_PG;

test(
  "two nodes: b's lobby lists a's table; joining it from b's page moves the client to a, where it plays",
  { skip: pg ? false : "no PostgreSQL server (FELT_TEST_PG; scripts/test.sh starts one)", timeout: 120_000 },
  async () => {
    const name = "felt_e2e_" + randomBytes(6).toString("hex");
    const made = spawnSync("psql", ["-qX", "-v", "ON_ERROR_STOP=1", `${pg}/postgres`, "-c", `CREATE DATABASE ${name}`], {
      encoding: "utf8",
    });
    assert.equal(made.status, 0, made.stderr);
    const db = `${pg}/${name}`;
    const a = await startFeltd(["--node-id", "a", "--lease", "2s"], { db });
    const b = await startFeltd(["--node-id", "b", "--lease", "2s"], { db });
    const browser = await launch();
    try {
      // Bob, on a page of node a, makes a heads-up table there.
      const bob = await guestPage(browser, a, "bob");
      await bob.page.getByRole("button", { name: "New table" }).click();
      const form = bob.page.getByRole("form", { name: "create a table" });
      await form.locator('input[name="seats"]').fill("2");
      await form.locator('input[name="hand_delay_s"]').fill("0.5");
      await form.getByRole("button", { name: "Create table" }).click();
      const table = (await until("the table", () => bob.rec.received.find((m) => m.type === "create_table" && m.ok))).table;

      // Ann, on a page of node b, sees it in her live lobby, with node a's address.
      const ann = await guestPage(browser, b, "ann");
      const row = ann.page.locator(`tr[data-table="${table}"]`);
      await row.waitFor();
      const line = ann.rec.received.find((m) => (m.type === "lobby" && m.table?.id === table) || m.tables?.some((t) => t.id === table));
      assert.equal((line.table ?? line.tables.find((t) => t.id === table)).url, a.ws);

      // She joins from b's lobby: b answers moved, the page goes to a, resumes, and sits down there.
      await row.getByRole("button", { name: "Join" }).click();
      await ann.page.getByRole("button", { name: "Sit down" }).click();
      const moved = await until("moved", () => ann.rec.received.find((m) => m.type === "error" && m.code === "moved"));
      assert.equal(moved.url, a.ws);
      const joined = await until("Ann's seat", () => ann.rec.received.find((m) => m.type === "join" && m.ok));
      assert.equal(joined.table, table);
      const resumedAt = ann.rec.sent.findIndex((m) => m.type === "resume");
      assert.ok(resumedAt >= 0 && resumedAt < ann.rec.sent.findLastIndex((m) => m.type === "join"), "resumed before joining again");
      await ann.page.locator(".felt .seat.mine").waitFor();

      // A bot takes the other seat, and they play a hand on node a.
      const bot = runFelt(["bot", "--url", a.ws, "--join", String(table), "--seats", "1", "--hands", "1"]);
      const deadline = Date.now() + 60_000;
      while (!ann.rec.received.some((m) => m.type === "table" && m.kind === "hand_end")) {
        if (Date.now() > deadline) {
          await mkdir(failures, { recursive: true });
          await ann.page.screenshot({ path: join(failures, "cluster-ann.png") });
          assert.fail("a hand within a minute on node a");
        }
        const bar = ann.page.locator(".action-bar");
        if (await bar.isVisible().catch(() => false)) {
          const check = bar.getByRole("button", { name: "Check" });
          if (await check.isVisible().catch(() => false)) await check.click();
          else await bar.getByRole("button", { name: /^Call / }).click();
          await bar.waitFor({ state: "hidden", timeout: 5000 }).catch(() => {});
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await ann.page.locator(".end-banner").waitFor();
      await mkdir(failures, { recursive: true });
      await ann.page.screenshot({ path: join(failures, "cluster-ann.png") }); // for a person to look at
      const r = await bot;
      assert.equal(r.code, 0, r.err);
      assert.deepEqual([...ann.rec.bad, ...bob.rec.bad], []);
    } finally {
      await browser.close();
      await a.stop();
      await b.stop();
      spawnSync("psql", ["-qX", `${pg}/postgres`, "-c", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    }
  },
);
