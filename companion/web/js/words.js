// The companion's refusals in players' words: card names as the table writes them (2♦, not
// 2D) and "2♦ 7♣ K♥ is not a meld: ..." rather than "meld: not a meld: ... (2D 7C KH)".

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "2D 7C KH" -> "2♦ 7♣ K♥" (only whole card names; a joker stays JK1).
export function cardWords(text) {
  return String(text).replace(/(^|[^A-Za-z0-9])(10|[A2-9JQK])([SHDC])(?![A-Za-z0-9])/g, (m, pre, rank, suit) => pre + rank + SUIT[suit]);
}

// A refusal of a play, in plain words.
export function plainError(message) {
  let t = cardWords(message).trim();
  t = t.replace(/^(meld|hit|take|discard|go out|pass|setup|set-up|new hand)( \d+)?: /i, "");
  const m = /^not a (meld|run|set): (.*?)\s*\(([^()]*)\)\.?$/.exec(t);
  if (m) t = `${m[3]} is not a ${m[1]}: ${m[2]}.`;
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : t;
}
