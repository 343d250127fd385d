// Builds the web client into web/dist (what feltd serves by default): one minified script, its
// stylesheet and the page. With --tests, bundles the unit tests (src/**/*.test.ts) for node --test
// into web/dist-tests instead.
import { build } from "esbuild";
import { copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(web, "src");

if (process.argv.includes("--tests")) {
  const out = join(web, "dist-tests");
  await rm(out, { recursive: true, force: true });
  const tests = (await readdir(join(web, "tests"))).filter((f) => f.endsWith(".test.ts")).map((f) => join(web, "tests", f));
  await build({ entryPoints: tests, outdir: out, bundle: true, platform: "node", format: "esm", outExtension: { ".js": ".mjs" }, logLevel: "warning", jsx: "automatic", jsxImportSource: "preact" });
} else {
  const out = join(web, "dist");
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [join(src, "main.tsx")],
    outfile: join(out, "app.js"),
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2020"],
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    logLevel: "warning",
  });
  await build({ entryPoints: [join(src, "style.css")], outfile: join(out, "app.css"), bundle: true, minify: true, logLevel: "warning" });
  await copyFile(join(src, "index.html"), join(out, "index.html"));
  await copyFile(join(src, "favicon.svg"), join(out, "favicon.svg"));
  // What a player downloads, as served: gzip level 9.
  let total = 0;
  for (const f of ["index.html", "app.js", "app.css", "favicon.svg"]) {
    const bytes = await readFile(join(out, f));
    const gz = gzipSync(bytes, { level: 9 }).length;
    total += gz;
    console.log(`web/dist/${f}: ${(bytes.length / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzipped`);
  }
  console.log(`web/dist: ${(total / 1024).toFixed(1)} KiB gzipped in all (target: 150 KiB)`);
}
