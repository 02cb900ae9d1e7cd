// The server's refusals by code: said in the page's words with the values the server names, and
// quoted when the code is one this page has no words for.
import assert from "node:assert/strict";
import { test } from "node:test";

import { refusal } from "../../static/js/words/refusals.js";

test("a refusal is said by its code, with the values it names", () => {
  assert.deepEqual(refusal({ ok: false, code: "class.no_such_class", error: "there is no class with that code" }),
    { id: "refusal.class.no_such_class", params: {} });
  assert.deepEqual(refusal({ code: "class.following", message: "you are following class ABCDE: …", values: { code: "ABCDE" } }),
    { id: "refusal.class.following", params: { code: "ABCDE" } });
  // A wait is counted in seconds: the plural form follows it.
  assert.deepEqual(refusal({ code: "class.wait", error: "…", values: { seconds: 5 } }),
    { id: "refusal.class.wait", params: { seconds: 5, n: 5 } });
});

test("a request that broke the protocol, or a code with no words here, is quoted", () => {
  for (const answer of [
    { code: "request.invalid", error: "rows must be a whole number from 1 to 32, not 0" },
    { code: "class.something_new", error: "rows must be a whole number from 1 to 32, not 0" },
    { message: "rows must be a whole number from 1 to 32, not 0" },
  ]) {
    assert.deepEqual(refusal(answer),
      { id: "refusal.request.invalid", params: { message: "rows must be a whole number from 1 to 32, not 0" } });
  }
  assert.deepEqual(refusal(), { id: "refusal.request.invalid", params: { message: "" } });
});
