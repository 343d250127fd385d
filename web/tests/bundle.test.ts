// The shipped bundle stays small: at most 150 KiB gzipped for everything a player downloads
// (run after the build, as scripts/web.sh test does).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";

test("web/dist is at most 150 KiB gzipped, and holds the page, the script, the styles and the icon", () => {
  const dist = join(process.cwd(), "dist");
  let total = 0;
  for (const f of ["index.html", "app.js", "app.css", "favicon.svg"]) total += gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  assert.ok(total > 5 * 1024, `${total} bytes: too small to be the client`);
  assert.ok(total <= 150 * 1024, `${total} bytes gzipped`);
  assert.match(readFileSync(join(dist, "index.html"), "utf8"), /<script src="app.js">/);
  assert.match(readFileSync(join(dist, "index.html"), "utf8"), /<link rel="icon" href="favicon.svg"/);
});
