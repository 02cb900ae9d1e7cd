// The server's refusals in the page's language. Each carries a stable code (docs/protocol.md),
// said by the message "refusal.<code>" with the values the server names; a code this page has
// no words for is said by quoting the server's own sentence.
import { hasWords } from "./i18n.js";

// A request that broke the protocol, whose sentence (naming what was wrong) is quoted.
const QUOTED = "refusal.request.invalid";

/**
 * Return the message id and values of a refusal: an answer {code, error, values} or an error
 * event {code, message, values} from the server (or the data of a refused connection).
 */
export function refusal({ code, error, message, values } = {}) {
  const sentence = error ?? message ?? "";
  const id = `refusal.${code}`;
  if (!code || id === QUOTED || !hasWords(id)) return { id: QUOTED, params: { message: sentence } };
  const params = { ...values };
  if (params.seconds !== undefined) params.n = Number(params.seconds); // the plural's count
  return { id, params };
}
