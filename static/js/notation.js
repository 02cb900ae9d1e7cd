// Square names in algebraic notation, the one numbering the page uses everywhere: files a, b, ...
// from the left (aa, ab, ... past z), rank 1 at the bottom.

/** Return the name of a column: a for the first, z for the 26th, then aa, ab, ... */
export function fileName(col) {
  const letter = (n) => String.fromCharCode(97 + n);
  return col < 26 ? letter(col) : letter(Math.floor(col / 26) - 1) + letter(col % 26);
}

/** Return the name of a row of a board of rows rows: its rank, counted from the bottom. */
export function rankName(row, rows) {
  return String(rows - row);
}

/** Return a square's name, such as c3. */
export function squareName(square, rows, cols) {
  return fileName(square % cols) + rankName(Math.floor(square / cols), rows);
}

/** Return the square a name such as "c3" stands for on a rows x cols board, or -1. */
export function parseSquare(name, rows, cols) {
  const match = /^\s*([a-z]{1,2})\s*(\d{1,2})\s*$/i.exec(name);
  if (!match) return -1;
  const letters = match[1].toLowerCase();
  const code = (ch) => ch.charCodeAt(0) - 97;
  const col = letters.length === 1 ? code(letters) : (code(letters[0]) + 1) * 26 + code(letters[1]);
  const row = rows - Number(match[2]);
  return col < cols && row >= 0 && row < rows ? row * cols + col : -1;
}
