// The embed code the page gives: the address of the board in a frame, its size, its HTML.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SNIPPET, embedAddress, embedCode, frameSize } from "../../static/js/embed/embed.js";

const SETTINGS = { mode: "board", rows: 8, cols: 8, start: 0, order: "warnsdorff", closed: false, allTours: false,
  budget: null, speed: 30, seed: 7 };
const BASE = "https://tour.example.edu";

test("the embed's address carries the page's settings and the snippet's choices", () => {
  const address = new URL(embedAddress(BASE, SETTINGS, { controls: "full", panels: ["code", "chart"], autoplay: true,
    loop: true }));
  assert.equal(address.origin + address.pathname, `${BASE}/embed`);
  const params = Object.fromEntries(address.searchParams);
  assert.deepEqual(params, { mode: "board", rows: "8", cols: "8", start: "0", order: "warnsdorff", seed: "7",
    speed: "30", controls: "full", panels: "code,chart", autoplay: "true", loop: "true" });
  // Choices left off are not written: the embed's defaults stand.
  const plain = new URL(embedAddress(BASE, SETTINGS, { ...SNIPPET, autoplay: false })).searchParams;
  assert.equal(plain.get("controls"), "minimal");
  for (const key of ["panels", "autoplay", "loop", "class"]) assert.equal(plain.has(key), false, key);
});

test("the frame is sized for the board, its panels and its controls", () => {
  const [board] = frameSize({ ...SNIPPET, controls: "none" });
  const [, minimalHeight] = frameSize(SNIPPET);
  const [withPanels] = frameSize({ ...SNIPPET, panels: ["stack"] });
  const [full] = frameSize({ ...SNIPPET, controls: "full" });
  assert.ok(minimalHeight > frameSize({ ...SNIPPET, controls: "none" })[1]);
  assert.ok(withPanels > board && full > board);
});

test("the embed code is an iframe whose attributes cannot be broken out of", () => {
  const code = embedCode(BASE, SETTINGS, SNIPPET, 'A "knight" <tour> & more');
  assert.match(code, /^<iframe src="https:\/\/tour\.example\.edu\/embed\?[^"<>]+" width="\d+" height="\d+" /);
  assert.ok(code.includes('title="A &quot;knight&quot; &lt;tour> &amp; more"'));
  assert.ok(code.includes("&amp;rows=8&amp;"));
  assert.ok(code.endsWith("></iframe>"));
});
