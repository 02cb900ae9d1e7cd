// The page's proof of work for a badge: found with the SHA-256 the page loads, and as the server
// checks it (server/edge/badges.py: SHA-256 of "knights-badge:" and the proof).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";

import { sha256 } from "@noble/hashes/sha2.js";

import { prove, zeroBits } from "../../static/js/badge.js";

test("zero bits are counted across bytes", () => {
  assert.equal(zeroBits(Uint8Array.of(0x80, 0)), 0);
  assert.equal(zeroBits(Uint8Array.of(0x01, 0xff)), 7);
  assert.equal(zeroBits(Uint8Array.of(0, 0, 0x10)), 19);
  assert.equal(zeroBits(Uint8Array.of(0, 0)), 16);
});

test("a proof found by the page has the bits asked for, as the server hashes it", async () => {
  let pauses = 0;
  const asked = { bits: 14, minute: 29930216 };
  const proof = await prove(sha256, asked, "salt-of-the-page", async () => {
    pauses += 1;
  });
  const [minute, salt, nonce] = proof.split(".");
  assert.equal(`${minute}.${salt}`, "29930216.salt-of-the-page");
  assert.match(nonce, /^[0-9a-z]{1,16}$/);
  const digest = createHash("sha256").update(`knights-badge:${proof}`).digest();
  assert.ok(zeroBits(digest) >= asked.bits, `${proof} has ${zeroBits(digest)} zero bits`);
  // It paused between slices of tries (16,384 tries for 14 bits, on average: a pause every 8,192).
  assert.equal(pauses, Math.floor(parseInt(nonce, 36) / 8192));
});

test("a search that finds nothing in its tries gives up", async () => {
  const never = () => Uint8Array.of(0xff);
  assert.equal(await prove(never, { bits: 1, minute: 1 }, "saltsalt", async () => {}), null);
});
