// The rummy hand entry (Gin Rummy, Color Gin, Ginski): who ended the hand, the one-tap
// gin, each player's cards (typed or tapped on the card grid) or deadwood, the upcard,
// a drawn joker, the knocker's declared melds, and the check of the whole entry that
// makes the request body. Drawn into st.entry; st is the sheet's shared state (rummy.js).

import { h, fieldError, showError, rulesOf, seg } from "./ui.js";
import { parseHand, parseCard, pretty, cardGrid } from "./cards.js";
import { matchOf, handsOf } from "./rummy_sheet.js";

// Cards each seat holds after the discard (the companion says, from the game's rules):
// the deal, and one more for the ender of a big gin where the game has one.
function handSize(game, seat, ender) {
  const sizes = rulesOf(game).hand_sizes;
  return seat === ender && sizes.big ? [sizes.deal, sizes.big] : [sizes.deal];
}

// A checkbox with its words, the whole row a 44 px touch target.
function toggleField(id, text, checked, onChange, help) {
  const box = h("input", { id, type: "checkbox", checked: !!checked });
  box.addEventListener("change", () => onChange(box.checked));
  return h("div", { class: "toggle-row" }, h("label", { for: id, class: "toggle" }, box, h("span", null, text)),
    help ? h("p", { class: "help" }, help) : null);
}

// The bonus for melding all eleven cards, when the rule set has one (0: no big gin).
function bigGinBonus(game) { return Number(rulesOf(game).big_bonus) || 0; }

// st: {g, names, rules, deck, draft, save, entry, preview, doPreview(), clearEntry()}.
// What leaving the declared melds empty does, in the game's own words (its rules'
// declared_help: Color Gin's engine picks the melds that spoil the fewest open suits, the
// others the least deadwood).
export function declaredHelp(rules) {
  if (rules && rules.declared_help) return rules.declared_help;
  return "Leave empty to let the companion choose the arrangement that leaves the least deadwood (and, among those, the one that leaves the other player the most deadwood after lay-offs).";
}

// Adds the entry's fields and errors (errs, enderErr, declaredErr, upcardErr, formErr,
// reviewBox, staleNote) and drawEntry, drawStale, buildBody, inProgress, handNumber to st.
export function rummyEntry(st) {
  const { names, rules, deck, draft, save, entry, preview } = st;
  const errs = names.map((_, s) => fieldError(`hand-error-${s}`));
  const enderErr = fieldError("ender-error");
  const declaredErr = fieldError("declared-error");
  const upcardErr = fieldError("upcard-error");
  // what a hand of this game takes, as the companion says (rules.entries): each seat's
  // cards and/or deadwood, who ended it, the one-tap gin...; the page never asks the game's name
  const takes = rules.entries || {};
  const byCards = takes.cards !== false;
  const byDeadwood = takes.deadwood !== false;
  const askEnder = takes.ender !== false;
  const ginTaps = askEnder && takes.gin !== false;
  const oklahoma = !!takes.upcard;
  const coopJokers = !!takes.joker;
  const bigWord = rules.big_word;
  const formErr = fieldError("entry-error");
  const reviewBox = h("div", { id: "review-box" });
  // not a live region of its own: the page's one live region says another phone's hand
  const staleNote = h("p", { class: "stale-note", id: "stale-note", hidden: true });

  function takenBy(seat) {
    const m = new Map();
    names.forEach((n, s) => {
      if (s === seat) return;
      for (const c of parseHand(draft.text[s] || "", deck).cards) m.set(c, n);
    });
    return m;
  }

  function inProgress() { return draft.base !== null && draft.base !== undefined; }
  // The number of the hand being entered: the one it was when the form was started.
  function handNumber() { return (inProgress() ? draft.baseHands : handsOf(st.g).length) + 1; }

  // A live change from another phone while this form is open: said at once (the review,
  // with what changed, comes with Preview).
  function drawStale() {
    const moved = inProgress() && st.g.version !== draft.base && !reviewBox.childElementCount;
    staleNote.hidden = !moved;
    if (!moved) return;
    const fresh = handsOf(st.g).filter(x => x.n >= handNumber());
    const last = fresh[fresh.length - 1];
    const what = last ? `${last.raw.by || "Another phone"} scored hand ${last.n}` : "Another phone changed this game";
    staleNote.replaceChildren(`${what} meanwhile: tap Preview to review before anything is written.`);
  }

  function ginTap(s) {
    // One tap for the usual ending: the gin player chosen, their 0 filled in.
    draft.ender = s; draft.bigGin = false; draft.deadwood[s] = "0";
    draft.ginClaim = s;  // the preview says so if the cards entered then leave deadwood (scored as a knock)
    if (draft.mode === "cards") draft.active = s;
    save(); showError(enderErr, ""); drawEntry();
    if (draft.mode === "deadwood") {
      const next = names.map((_, i) => (s + 1 + i) % names.length).find(i => i !== s && !String(draft.deadwood[i] ?? "").trim());
      const inp = next !== undefined ? document.getElementById(`deadwood-${next}`) : null;
      if (inp) inp.focus();
    } else {
      const grid = entry.querySelector(`.seat-block[data-seat='${s}']`);
      if (grid) grid.scrollIntoView({ block: "start" });
    }
  }

  function drawEntry() {
    const m = matchOf(st.g);
    if (m.finished && draft.editing === null) {
      entry.replaceChildren(reviewBox, h("h2", null, "The match is over"),
        h("p", { class: "muted", id: "over-help" }, "A mistake? Tap Correct next to the hand in the history: the match is scored again, ",
          "and if nobody has won any more it goes on. Or start a rematch below."));
      return;
    }
    const dealt = inProgress() && typeof draft.baseDealer === "number" ? draft.baseDealer : st.g.dealer;
    const dealer = dealt !== undefined && dealt !== null && names[dealt] !== undefined ? names[dealt] : null;
    const kids = [reviewBox, h("h2", null, draft.editing !== null ? `Correct hand ${draft.editing}` : `Score hand ${handNumber()}`),
      draft.editing === null && dealer ? h("p", { class: "dealer-line", id: "dealer-line" }, `${dealer} deals this hand`) : null,
      staleNote];
    if (draft.editing === null && ginTaps) {
      kids.push(h("div", { class: "gin-taps", role: "group", "aria-label": `one tap: who went ${rules.gin_word}` },
        ...names.map((n, s) => h("button", { type: "button", class: "btn gin-tap", id: `gin-tap-${s}`,
          "aria-pressed": draft.ender === s && String(draft.deadwood[s] ?? "") === "0" ? "true" : "false",
          onclick: () => ginTap(s) }, `${n}: ${rules.gin_word}`))));
    }
    const enderWord = rules.gin_word === "gin" ? "Who knocked or went gin?" : `Who ended the hand (knocked or went ${rules.gin_word})?`;
    if (askEnder) kids.push(h("div", { class: "label", id: "ender-label" }, enderWord),
      seg(names.map((n, s) => [s, n]).concat([["void", "Nobody: the stock ran out"]]), draft.ender,
        (s) => { draft.ender = s === "void" ? "void" : Number(s); if (s === "void") draft.bigGin = false; if (draft.ginClaim !== draft.ender) draft.ginClaim = null; save(); showError(enderErr, ""); drawEntry(); }, "who ended the hand"),
      enderErr);
    if (oklahoma) {
      // Oklahoma gin: the upcard of this hand sets the knock limit.
      const up = h("input", { id: "upcard", class: "hand-text", value: draft.upcard || "", autocomplete: "off", autocapitalize: "characters",
        spellcheck: "false", placeholder: "e.g. 7D", "aria-describedby": "upcard-error" });
      up.addEventListener("input", () => { draft.upcard = up.value; save(); showError(upcardErr, ""); });
      kids.push(h("label", { for: "upcard" }, "Upcard of this hand (Oklahoma: its value is the knock limit; an ace means gin only)"), up, upcardErr);
    }
    if (coopJokers && typeof draft.ender === "number") {
      kids.push(toggleField("joker", `${names[draft.ender]} drew a joker`, draft.joker, (v) => { draft.joker = v; save(); },
        "A drawn joker forces gin or a knock, even above the knock limit."));
    }
    // Color Gin needs the cards (its spoiled suits come from them); a game may take counts only.
    if (!byDeadwood) draft.mode = "cards";
    else if (!byCards) draft.mode = "deadwood";
    else kids.push(h("div", { class: "label" }, "How will you enter the hands?"), seg([["cards", "Enter cards"], ["deadwood", "Deadwood only"]], draft.mode, (v) => { draft.mode = v; save(); drawEntry(); }, "entry mode"));
    if (draft.mode === "deadwood") {
      if (askEnder && draft.ender === "void") {
        kids.push(h("p", { class: "help", id: "void-help" }, rulesOf(st.g).stock_showdown
          ? "The stock ran out: in this rule set the lower deadwood wins the difference (a showdown)."
          : "The stock ran out: in this rule set the hand is void and nobody scores."));
      } else if (typeof draft.ender === "number" && bigGinBonus(st.g) > 0) {
        kids.push(toggleField("big-gin", `${names[draft.ender]}: ${bigWord} (all 11 cards melded, no discard)`, draft.bigGin,
          (v) => { draft.bigGin = v; if (v) draft.deadwood[draft.ender] = "0"; save(); drawEntry(); },
          `Scores a bonus of ${bigGinBonus(st.g)} instead of the gin bonus.`));
      }
      names.forEach((n, s) => {
        const id = `deadwood-${s}`;
        const inp = h("input", { id, type: "number", inputmode: "numeric", min: 0, value: draft.deadwood[s] ?? "", "aria-describedby": `hand-error-${s}` });
        inp.addEventListener("input", () => { draft.deadwood[s] = inp.value; save(); showError(errs[s], ""); });
        kids.push(h("div", { class: "seat-block" }, h("label", { for: id }, `${n}: deadwood points`), inp, errs[s]));
      });
    } else {
      names.forEach((n, s) => {
        const text = draft.text[s] || "";
        const parsed = parseHand(text, deck);
        const id = `hand-${s}`;
        const count = h("span", { class: "count", id: `count-${s}` }, `${parsed.cards.length} card${parsed.cards.length === 1 ? "" : "s"}`);
        const inp = h("input", { id, class: "hand-text", value: text, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
          placeholder: deck.kind === "rumski" ? "R1 R2 R3 … or tap below" : "AS 2S 3S … or tap below", "aria-describedby": `hand-error-${s}` });
        const gridBox = h("div", { class: "grid-box" });
        const drawGrid = (cards) => gridBox.replaceChildren(cardGrid({ deck, selected: cards, taken: takenBy(s), label: `${n}'s cards`, onToggle: (c) => toggle(s, c) }));
        inp.addEventListener("input", () => {
          draft.text[s] = inp.value; save();
          const p = parseHand(inp.value, deck);
          count.textContent = `${p.cards.length} card${p.cards.length === 1 ? "" : "s"}`;
          showError(errs[s], p.error || "");
          if (draft.active === s) drawGrid(p.cards);
        });
        const block = h("div", { class: "seat-block" + (draft.active === s ? " active" : ""), dataset: { seat: s } },
          h("div", { class: "row-between" }, h("label", { for: id }, `${n}${s === draft.ender ? " (ended)" : ""}`), count),
          inp, errs[s]);
        if (parsed.error) showError(errs[s], parsed.error);
        if (takes.declared && s === draft.ender) {
          // The knocker may declare their own arrangement (in Color Gin it decides the spoiled suits).
          const dec = h("input", { id: "declared", class: "hand-text", value: draft.declared || "", autocomplete: "off", autocapitalize: "characters",
            spellcheck: "false", placeholder: "e.g. 7S 7H 7D / 3C 4C 5C", "aria-describedby": "declared-error" });
          dec.addEventListener("input", () => { draft.declared = dec.value; save(); showError(declaredErr, ""); });
          block.append(h("label", { for: "declared" }, `Melds ${n} declares (optional; groups split by /)`), dec, declaredErr,
            h("p", { class: "help", id: "declared-help" }, declaredHelp(st.rules)));
        }
        if (draft.active === s) {
          drawGrid(parsed.cards);
          block.append(gridBox);
        } else {
          block.append(h("button", { type: "button", class: "btn small", onclick: () => { draft.active = s; save(); drawEntry(); } }, `Use the card grid for ${n}`));
        }
        kids.push(block);
      });
    }
    kids.push(formErr, h("div", { class: "actions" },
      h("button", { type: "button", class: "btn primary", id: "preview-btn", onclick: () => st.doPreview() }, "Preview"),
      draft.editing !== null ? h("button", { type: "button", class: "btn", id: "cancel-correction", onclick: () => { st.clearEntry(); drawEntry(); drawStale(); } }, "Cancel correction") : null,
      h("button", { type: "button", class: "btn", id: "clear-btn", onclick: () => { draft.text = {}; draft.deadwood = {}; draft.base = null; save(); drawEntry(); drawStale(); preview.hidden = true; } }, "Clear")));
    entry.replaceChildren(...kids);
  }

  function toggle(seat, card) {
    const parsed = parseHand(draft.text[seat] || "", deck);
    const other = takenBy(seat);
    let cards = parsed.cards;
    if (cards.includes(card)) cards = cards.filter(c => c !== card);
    else if (other.has(card)) { showError(errs[seat], `${pretty(card)} is already in ${other.get(card)}'s hand`); return; }
    else cards = cards.concat([card]);
    draft.text[seat] = cards.join(" ");
    const full = cards.length === handSize(st.g, seat, draft.ender)[0] && !parsed.cards.includes(card);
    if (full) {
      // This hand is complete: the grid moves on to the next player still short of cards,
      // and when every hand is complete (and the ender chosen) the preview opens by itself.
      const short = names.map((_, i) => (seat + 1 + i) % names.length)
        .find(i => i !== seat && parseHand(draft.text[i] || "", deck).cards.length < handSize(st.g, i, draft.ender)[0]);
      if (short !== undefined) draft.active = short;
      save(); drawEntry();
      if (short !== undefined) {
        const next = entry.querySelector(`.seat-block[data-seat='${short}']`);
        if (next) next.scrollIntoView({ block: "start" });
      } else if (!askEnder || (draft.ender !== null && draft.ender !== undefined)) st.doPreview();
      return;
    }
    save();
    drawEntry();
  }

  // Checks the entry on the page; returns the request body or null (errors shown).
  function buildBody() {
    let ok = true;
    names.forEach((_, s) => showError(errs[s], ""));
    showError(formErr, "");
    if (askEnder && (draft.ender === null || draft.ender === undefined)) { showError(enderErr, "Choose who ended the hand."); ok = false; }
    const isVoid = draft.ender === "void";
    const body = { ender: isVoid || !askEnder ? null : draft.ender };
    if (oklahoma) {
      const t = (draft.upcard || "").trim();
      if (!t) { showError(upcardErr, "Type this hand's upcard (Oklahoma gin: it sets the knock limit), e.g. 7D."); ok = false; }
      else {
        try { body.upcard = parseCard(t, deck); } catch (e) { showError(upcardErr, e.message); ok = false; }
      }
    }
    if (coopJokers && draft.joker && !isVoid) body.joker = true;
    if (draft.mode === "deadwood") {
      const dw = names.map((n, s) => {
        const v = String(draft.deadwood[s] ?? "").trim();
        if (!/^\d+$/.test(v)) { showError(errs[s], `Type ${n}'s deadwood: the points of the cards left unmatched, a whole number like 0 or 12.`); ok = false; return 0; }
        if (Number(v) > 500) { showError(errs[s], `${n}'s deadwood of ${v} is more than any hand can hold: check the number.`); ok = false; return 0; }
        return Number(v);
      });
      body.deadwood = dw;
      if (draft.bigGin && !isVoid && bigGinBonus(st.g) > 0) body.big_gin = true;
    } else {
      const seen = new Map();
      body.hands = names.map((n, s) => {
        const p = parseHand(draft.text[s] || "", deck);
        if (p.error) { showError(errs[s], p.error); ok = false; return p.cards; }
        for (const c of p.cards) {
          if (seen.has(c)) { showError(errs[s], `${pretty(c)} is also in ${names[seen.get(c)]}'s hand: a card can be in one hand only`); ok = false; }
          else seen.set(c, s);
        }
        const sizes = handSize(st.g, s, draft.ender);
        if (ok && !sizes.includes(p.cards.length)) {
          const want = sizes.length > 1 ? `${sizes[0]} cards (${sizes[1]} for a ${bigWord})` : `${sizes[0]} cards`;
          showError(errs[s], `${n}'s hand has ${p.cards.length} card${p.cards.length === 1 ? "" : "s"}; a hand is ${want} after the discard.`);
          ok = false;
        }
        return p.cards;
      });
    }
    const decText = (draft.declared || "").trim();
    if (ok && takes.declared && draft.mode === "cards" && decText && typeof draft.ender === "number") {
      const own = body.hands[draft.ender];
      const groups = [];
      for (const [i, part] of decText.split(/[\/|]/).map(x => x.trim()).filter(Boolean).entries()) {
        const p = parseHand(part, deck);
        if (p.error) { showError(declaredErr, `meld ${i + 1}: ${p.error}`); ok = false; break; }
        const stray = p.cards.filter(c => !own.includes(c));
        if (stray.length) { showError(declaredErr, `meld ${i + 1}: ${stray.map(pretty).join(" ")} is not in ${names[draft.ender]}'s hand`); ok = false; break; }
        groups.push(p.cards);
      }
      if (ok) body.declared = groups;
    }
    const base = inProgress() ? draft.base : st.g.version;
    if (base !== undefined && base !== null) body.expected_version = base;
    return ok ? body : null;
  }

  Object.assign(st, { errs, enderErr, declaredErr, upcardErr, formErr, reviewBox, staleNote,
    drawEntry, drawStale, buildBody, inProgress, handNumber });
}
