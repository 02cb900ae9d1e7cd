// Python's words coloured for the lab's editor: keywords, names being defined, strings, numbers,
// comments; one element per line, the line the search is on lit.

const KEYWORDS = new Set(("and as assert async await break class continue def del elif else except finally for from " +
  "global if import in is lambda nonlocal not or pass raise return try while with yield True False None").split(" "));
const TOKEN = /(#.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)|\b(\d+(?:\.\d+)?)\b|\b([A-Za-z_]\w*)\b/gm;

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  el.textContent = text;
  return el;
}

/** Return one line of Python as nodes, coloured. */
function colourLine(line) {
  const nodes = [];
  let at = 0, defining = false;
  for (const match of line.matchAll(TOKEN)) {
    if (match.index > at) nodes.push(document.createTextNode(line.slice(at, match.index)));
    const [text, comment, string, num, word] = match;
    if (comment) nodes.push(span("py-comment", text));
    else if (string) nodes.push(span("py-string", text));
    else if (num) nodes.push(span("py-number", text));
    else if (word && KEYWORDS.has(word)) nodes.push(span("py-keyword", text));
    else if (word && defining) nodes.push(span("py-name", text));
    else nodes.push(document.createTextNode(text));
    defining = word === "def" || word === "class";
    at = match.index + text.length;
  }
  if (at < line.length) nodes.push(document.createTextNode(line.slice(at)));
  return nodes;
}

/** Return the lines of code as elements, coloured, line number lit (1-based; 0 for none) marked. */
export function highlighted(code, lit) {
  return code.split("\n").map((line, i) => {
    const el = document.createElement("span");
    el.className = i + 1 === lit ? "py-line lit" : "py-line";
    // A space keeps an empty line its height: the lines stand where the textarea's do.
    el.append(...(line ? colourLine(line) : [" "]));
    return el;
  });
}
