// The flip for the deal (seed 004, and as an option everywhere): each player flips a card,
// the highest chooses to deal or not, a tie flips again. The companion judges each round
// (POST /api/v1/rules/first-dealer, nothing stored); the page asks only the tied players
// for another card and ends with the dealer's seat.

import * as api from "./api.js";
import { h, fieldError, showError } from "./ui.js";
import { pretty } from "./cards.js";

// `prefix` keeps two flips on one screen apart (a partnership's two tables); `rule` is the
// game's first_dealer when it names a flip (flip_low_deals: the lowest deals, no choice).
// `label` names the flip; onDealer(i) gets the dealer's index in `names`.
export function flipForDeal({ names, onDealer, prefix = "flip", rule = "flip_high_chooses", label = "Flip for the deal" }) {
  const rounds = [];           // [{seats: [..], cards: {seat: "7H"}}]
  let winner = null;
  const box = h("details", { class: "flip no-print", id: `${prefix}-box` });
  const body = h("div", { class: "flip-body" });
  const err = fieldError(`${prefix}-error`);
  box.append(h("summary", null, label), body);
  rounds.push({ seats: names.map((_, s) => s), cards: {} });

  const flipsOf = () => rounds.map(r => r.seats.map(s => (r.cards[s] || "").trim().toUpperCase()));
  async function judge(choice) {
    showError(err, "");
    const last = rounds[rounds.length - 1];
    const missing = last.seats.filter(s => !(last.cards[s] || "").trim());
    if (missing.length) { showError(err, `Type the card ${missing.map(s => names[s]).join(" and ")} flipped.`); return; }
    try {
      const res = await api.post("/api/v1/rules/first-dealer", { players: names.length, rule, flips: flipsOf(), choice });
      winner = res.winner;
      if (res.dealer !== null && res.dealer !== undefined) {
        onDealer(res.dealer);
        box.open = false;
      }
      draw(res.dealer);
    } catch (e) {
      const tied = e instanceof api.ApiError && e.details && Array.isArray(e.details.tied) ? e.details.tied : null;
      if (tied) { rounds.push({ seats: tied, cards: {} }); draw(null); showError(err, `${tied.map(s => names[s]).join(" and ")} tie: flip again.`); return; }
      showError(err, e instanceof api.NetError ? "No connection to the companion." : api.says(e));
    }
  }

  function draw(dealer) {
    const kids = [h("p", { class: "help" }, rule === "flip_low_deals" ? "Each player flips a card: the lowest deals; a tie flips again."
      : "Each player flips a card: the highest chooses to deal or not; a tie flips again.")];
    rounds.forEach((r, i) => {
      const current = i === rounds.length - 1 && winner === null;
      if (!current) {
        kids.push(h("p", { class: "flip-round" }, `Round ${i + 1}: `, r.seats.map(s => `${names[s]} ${pretty((r.cards[s] || "").toUpperCase())}`).join(" · ")));
        return;
      }
      kids.push(h("div", { class: "label" }, `Round ${i + 1}: the card each flipped`));
      for (const s of r.seats) {
        const id = `${prefix}-${i + 1}-${s}`;
        const inp = h("input", { id, value: r.cards[s] || "", autocomplete: "off", autocapitalize: "characters", placeholder: "e.g. 7H", "aria-describedby": `${prefix}-error` });
        inp.addEventListener("input", () => { r.cards[s] = inp.value; });
        kids.push(h("label", { for: id }, names[s]), inp);
      }
      kids.push(h("button", { type: "button", class: "btn", id: `${prefix}-btn`, onclick: () => judge(null) }, "Who deals?"));
    });
    if (winner !== null) {
      if (dealer === null || dealer === undefined) {
        kids.push(h("p", { id: `${prefix}-winner` }, `${names[winner]} flipped highest: deal or not?`),
          h("div", { class: "actions" },
            h("button", { type: "button", class: "btn primary", id: `${prefix}-deal`, onclick: () => judge("deal") }, `${names[winner]} deals`),
            h("button", { type: "button", class: "btn", id: `${prefix}-pass`, onclick: () => judge("pass") }, `${names[winner]} does not deal`)));
      } else {
        kids.push(h("p", { id: `${prefix}-winner` }, rule === "flip_low_deals" ? `${names[dealer]} flipped lowest and deals the first hand.`
          : `${names[winner]} flipped highest; ${names[dealer]} deals the first hand.`));
      }
    }
    kids.push(err);
    body.replaceChildren(...kids);
  }
  draw(null);
  return box;
}
