// A badge earned with a proof of work, for a page whose address had none left to give it (a
// neighbour's script took them): see server/edge/badges.py. The page's connections wait for it,
// so that each is made on the badge's own budget rather than on the address's.

const TAG = "knights-badge"; // what the server hashes before a proof (PROOF_TAG)
const SLICE = 8192; // tries between two pauses (some 20 ms), so that the page draws and answers meanwhile
const SALT_BYTES = 12;

/** Return how many zero bits a digest (bytes) begins with. */
export function zeroBits(digest) {
  let bits = 0;
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

/**
 * Find a proof of work (the minute, the salt and a nonce, joined by dots) whose SHA-256 (hash:
 * bytes -> bytes), after the tag, begins with bits zero bits, pausing between slices of tries.
 * Resolve with null if none was found in 64 times the tries it takes on average (a fault, not
 * bad luck: e^-64).
 */
export async function prove(hash, { bits, minute }, salt, pause = yieldToPage) {
  const head = new TextEncoder().encode(`${TAG}:${minute}.${salt}.`);
  const bytes = new Uint8Array(head.length + 16); // the nonce, in base 36, is written after the head
  bytes.set(head);
  for (let n = 0; n < 2 ** (bits + 6); n++) {
    if (n > 0 && n % SLICE === 0) await pause();
    const nonce = n.toString(36);
    for (let i = 0; i < nonce.length; i++) bytes[head.length + i] = nonce.charCodeAt(i);
    if (zeroBits(hash(bytes.subarray(0, head.length + nonce.length))) >= bits) return `${minute}.${salt}.${nonce}`;
  }
  return null;
}

/** Let the page draw and answer its user: at once where the browser can, else after a timer. */
function yieldToPage() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((r) => setTimeout(r));
}

/** Return a random salt of letters, digits, "-" and "_". */
function newSalt() {
  const bytes = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

/**
 * Earn a badge if the server asked the page to (asked: {bits, minute}, the page's limits'
 * badgeProof; null when it gave one or the browser has one). Resolve when done, badge or not: a
 * page that earns none connects on its address's budget, as it did before badges.
 */
export async function earnBadge(asked) {
  if (!asked) return;
  try {
    // Loaded only by a page that must earn its badge: most never need it.
    const { sha256 } = await import("/vendor/noble-hashes/sha2.js");
    const proof = await prove(sha256, asked, newSalt());
    if (proof === null) return;
    await fetch("/badge", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ proof }),
    });
  } catch {
    // No network, or no library: connect as before.
  }
}
