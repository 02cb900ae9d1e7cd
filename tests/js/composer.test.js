// The ordering composer: drafts edited key by key, names checked, orderings kept newest first, and
// labels and code shown for any ordering, named or composed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { orderingCode } from "../../static/js/code.js";
import { draftKeys, draftOf, edit, initialComposer, nameTaken } from "../../static/js/lab/composer.js";
import { MAX_KEPT, checkName, keep, nameIn, tidyForm } from "../../static/js/orderings/library.js";
import { orderLabel, orderNote } from "../../static/js/orderings/words.js";
import { KEYS, fewestOnwardFirst, idleFrom, needsBoard, usesSeed } from "../../static/js/orderings/orderings.js";

// The server's limits on an ordering (its keys, its name's letters), as the page receives them,
// written into the golden vectors from the server's own constants.
const { maxKeys: MAX_KEYS, maxOrderName: MAX_NAME } = JSON.parse(
  readFileSync(new URL("../fixtures/orderings.json", import.meta.url), "utf8"),
).limits;
// The server's list (server/engine/orderings.py NEVER_TIE), as the page receives it in its limits.
const NEVER_TIE = ["index", "moves", "random"];

test("a draft grows, flips, rises and shrinks one key at a time, each key at most once", () => {
  let draft = draftOf("warnsdorff", NEVER_TIE);
  assert.equal(draft, "onward");
  draft = edit(draft, { add: "centre" });
  assert.equal(draft, "onward,centre");
  draft = edit(draft, { flip: 1 });
  assert.equal(draft, "onward,-centre");
  assert.equal(edit(draft, { add: "centre" }), draft, "a key already in it is not added again");
  draft = edit(draft, { raise: 1 });
  assert.equal(draft, "-centre,onward");
  assert.equal(edit(draft, { raise: 0 }), draft, "the first key has nowhere to rise");
  draft = edit(edit(draft, { remove: 0 }), { remove: 0 });
  assert.equal(draft, "");
  assert.deepEqual(draftKeys(draft), []);
  for (const key of KEYS) draft = edit(draft, { add: key }, MAX_KEYS);
  assert.equal(draftKeys(draft).length, MAX_KEYS, "no more keys than an ordering may have");
});

test("a name another ordering has is taken: the page's own (by name or label), or another kept one's", () => {
  const library = [{ form: "pohl", name: "Mine" }];
  for (const name of ["Warnsdorff", "warnsdorff", "naive", "Warnsdorff + Roth's tie-break", "mine"]) {
    assert.ok(nameTaken(name, "edge", library), name);
  }
  assert.ok(!nameTaken("Mine", "pohl", library), "its own name stays its own");
  assert.ok(!nameTaken("Edge hugger", "edge", library));
});

test("a name is short and plain: letters of any script, digits, spaces and a few marks", () => {
  assert.equal(checkName("  Roth  again ", MAX_NAME), "Roth again");
  assert.equal(checkName("", MAX_NAME), "");
  assert.equal(checkName("马的规则", MAX_NAME), "马的规则");
  assert.equal(checkName("x".repeat(MAX_NAME), MAX_NAME), "x".repeat(MAX_NAME));
  for (const bad of ["x".repeat(MAX_NAME + 1), "<b>", "a\u0000b", "-first", "a;b", "\u202eevil"]) {
    assert.equal(checkName(bad, MAX_NAME), null, bad);
  }
});

test("a written form is tidied: the page's name for its own forms, a plain moves last left out", () => {
  assert.equal(tidyForm("onward,-centre"), "warnsdorff-roth");
  assert.equal(tidyForm("index,moves"), "naive");
  assert.equal(tidyForm("moves"), "moves", "the move order alone stays itself");
  assert.equal(tidyForm("-moves"), "-moves");
  assert.equal(tidyForm("pohl,-edge"), "pohl,-edge");
  assert.equal(tidyForm("pohl,pohl"), null);
});

test("the library keeps the newest first, one entry a form, at most its size; labels name what they can", () => {
  let library = [];
  for (let i = 0; i < MAX_KEPT + 3; i += 1) library = keep(library, i % 2 ? "pohl" : `onward,${"-".repeat(i % 2)}edge`, `n${i}`);
  assert.ok(library.length <= MAX_KEPT);
  library = keep(keep([], "pohl", "Pohl's"), "edge,onward", "");
  library = keep(library, "pohl", "Pohl again");
  assert.deepEqual(library, [{ form: "pohl", name: "Pohl again" }, { form: "edge,onward", name: "" }]);
  assert.equal(nameIn(library, "pohl"), "Pohl again");
  assert.equal(orderLabel("pohl", library), "Pohl again");
  assert.equal(orderLabel("edge,onward", library), "edge,onward", "no name: its written form");
  assert.equal(orderLabel("warnsdorff", library), "Warnsdorff");
  assert.equal(orderLabel("onward,-centre", []), "Warnsdorff + Roth's tie-break", "a named form by its name");
  assert.deepEqual(initialComposer(library, "pohl", NEVER_TIE), { library, draft: "pohl", typed: null, name: "Pohl again",
    note: null });
});

test("an ordering's traits: led by Warnsdorff's rule, reading the board, using the seed", () => {
  assert.ok(fewestOnwardFirst("warnsdorff") && fewestOnwardFirst("onward,-corner"));
  assert.ok(!fewestOnwardFirst("-onward") && !fewestOnwardFirst("centre,onward") && !fewestOnwardFirst("nonsense"));
  assert.ok(needsBoard("onward,-centre") && !needsBoard("naive") && !needsBoard("pohl,random"));
  assert.ok(usesSeed("random") && usesSeed("onward,random") && !usesSeed("warnsdorff"));
});

test("the code panel writes each ordering's ordered() as Python, every key in its place", () => {
  const text = (order) => orderingCode(order).map((line) => line.text);
  assert.deepEqual(text("naive"), ["def ordered(square):", "    return sorted(moves_of(square))"]);
  assert.deepEqual(text("-index"), ["def ordered(square):", "    return sorted(moves_of(square), reverse=True)"]);
  assert.deepEqual(text("moves"), ["def ordered(square):", "    return moves_of(square)"]);
  assert.deepEqual(text("centre"), ["def ordered(square):", "    moves = moves_of(square)",
    "    return sorted(moves, key=from_centre)", "    # from_centre:"]);
  assert.deepEqual(text("warnsdorff").slice(0, 4), ["def ordered(square):",
    "    moves = [m for m in moves_of(square)", "             if m not in path]",
    "    return sorted(moves, key=onward)"]);
  assert.deepEqual(text("-onward").at(3), "    return sorted(moves, key=lambda m: -onward(m))");
  assert.deepEqual(text("warnsdorff-roth").slice(3), [
    "    return sorted(moves, key=lambda m: (onward(m), -from_centre(m)))", "    # onward:", "    # from_centre:"]);
  assert.deepEqual(orderingCode("pohl,-random").slice(3).map((line) => line.text), [
    "    return sorted(moves, key=lambda m: (onward_twice(m), -shuffled(square, seed).index(m)))",
    "    # onward_twice:", "    # shuffled:"]);
  // Every line of the lesson's orderings' code fits the lesson's column, 40 characters.
  for (const order of ["naive", "warnsdorff", "moves"]) {
    assert.ok(text(order).every((line) => line.length <= 40 || line.includes("#")), order);
  }
  assert.deepEqual(orderingCode("pohl").at(-1).comment, "orderKey.pohl.code");
});

test("the keys after one that never ties are said to decide nothing, and no draft starts with such a key", () => {
  const keys = (form) => form.split(",").map((part) => ({ name: part.replace("-", ""), descending: part[0] === "-" }));
  assert.equal(idleFrom(keys("onward,-centre"), NEVER_TIE), 2, "each key decides");
  assert.equal(idleFrom(keys("index,-onward,start"), NEVER_TIE), 1);
  assert.equal(idleFrom(keys("onward,random,edge"), NEVER_TIE), 2);
  assert.match(orderNote("index,-onward,start", NEVER_TIE), /lowest square number first.*decide nothing/);
  assert.match(orderNote("index,-onward,start", NEVER_TIE), /the keys after it \(most onward moves first, then nearest the start square first\) decide nothing/);
  assert.doesNotMatch(orderNote("onward,-centre,index", NEVER_TIE), /decide nothing/);
  assert.equal(draftOf("naive", NEVER_TIE), "", "naive is one key that never ties: the draft starts empty");
  assert.equal(draftOf("random", NEVER_TIE), "");
  assert.equal(draftOf("warnsdorff-roth", NEVER_TIE), "onward,-centre");
  assert.equal(draftOf("index,onward", NEVER_TIE), "index,onward", "a student's own form is shown as it is");
});
