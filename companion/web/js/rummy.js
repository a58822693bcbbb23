// The rummy score sheet and hand entry (Gin Rummy, Color Gin, Ginski).

import * as api from "./api.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, rulesOf, seg, buzz } from "./ui.js";
import { deckFrom, parseHand, parseCard, pretty, cardGrid } from "./cards.js";
import { SUIT_SYMBOL, matchOf, plainSheet, colorSheet, finalSummary } from "./rummy_sheet.js";
import { reviewPanel, changedHands } from "./review.js";
import { handWords, resultKids } from "./rummy_views.js";
import { undoButtons, undoOrRedo } from "./undo.js";

const KIND_LABEL = {
  gin: "gin", big_gin: "big gin", knock: "knock", undercut: "undercut", void: "no game", showdown: "showdown",
};

export function namesOf(game) {
  return (game.players || []).map((p, i) => typeof p === "string" ? p : (p && p.name) || `Player ${i + 1}`);
}

// A scored hand as the service lists it: {n, result, input} in whichever shape it uses.
export function handsOf(game) {
  return (game.hands || []).map((item, i) => {
    const result = item.result || item;
    const input = item.input || (item.hands || item.deadwood ? { ender: item.ender, hands: item.hands, deadwood: item.deadwood, declared: item.declared, big_gin: item.big_gin, upcard: item.upcard, joker: item.joker } : null);
    const n = item.n ?? item.number ?? item.hand ?? i + 1;
    return { n, result, input, raw: item };
  });
}

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

export function mountRummy(main, game, ctx) {
  let g = game;
  const names = namesOf(g);
  const rules = rulesOf(g);
  const deck = deckFrom(rules.deck);
  const key = `game.${g.id}`;
  const draft = loadDraft(key, { ender: null, mode: "cards", active: 0, text: {}, deadwood: {}, editing: null, base: null, baseHands: null });
  // A form carries the version it started from: a write from it is checked against that
  // version, so a hand another phone scored meanwhile is shown, never silently built on.
  const save = () => {
    if (draft.base === null || draft.base === undefined) { draft.base = g.version; draft.baseHands = handsOf(g).length; draft.baseDealer = g.dealer; }
    saveDraft(key, draft);
  };
  let changed = null;  // hands another phone changed (marked on the sheet during a review)

  const title = h("h1", null, `${rules.label}`, g.preset ? h("small", null, ` · ${g.preset_label || g.preset}`) : null);
  const winnerBox = h("div", { id: "winner", class: "winner", hidden: true });
  const sheet = h("div", { class: "sheet-wrap", id: "sheet" });
  const entry = h("section", { class: "panel entry", id: "entry" });
  const preview = h("section", { class: "panel preview", id: "preview", hidden: true });
  const history = h("section", { class: "panel", id: "history" });
  const summary = h("div", { id: "summary-box" });
  const tools = h("section", { class: "panel tools no-print", id: "tools" });
  main.append(h("section", { class: "panel" }, title, winnerBox, sheet), entry, preview, history, summary, tools);

  // ---- score sheet -------------------------------------------------------------------------
  function drawSheet() {
    const m = matchOf(g);
    const hands = handsOf(g);
    sheet.replaceChildren(rules.suit_columns ? colorSheet(names, hands, m, (g.options || {}).target, changed)
      : plainSheet(names, hands, m, kindLabel, changed));
    if (m.finished) {
      const w = m.winner;
      winnerBox.hidden = false;
      winnerBox.textContent = (w === null || w === undefined) ? "The match is over: a tie." : `${names[w] ?? w} wins the match!`;
    } else winnerBox.hidden = true;
    summary.replaceChildren(...[finalSummary(names, m, !!rules.suit_columns)].filter(Boolean));
  }

  // ---- hand entry ---------------------------------------------------------------------------
  const errs = names.map((_, s) => fieldError(`hand-error-${s}`));
  const enderErr = fieldError("ender-error");
  const declaredErr = fieldError("declared-error");
  const upcardErr = fieldError("upcard-error");
  const takes = rules.entries || {};
  const oklahoma = !!takes.upcard;
  const coopJokers = !!takes.joker;
  const bigWord = rules.big_word;
  function kindLabel(k) { return k === "big_gin" ? bigWord : k === "gin" ? rules.gin_word : (KIND_LABEL[k] || k || ""); }
  const formErr = fieldError("entry-error");

  function takenBy(seat) {
    const m = new Map();
    names.forEach((n, s) => {
      if (s === seat) return;
      for (const c of parseHand(draft.text[s] || "", deck).cards) m.set(c, n);
    });
    return m;
  }

  const reviewBox = h("div", { id: "review-box" });
  // not a live region of its own: the page's one live region says another phone's hand
  const staleNote = h("p", { class: "stale-note", id: "stale-note", hidden: true });

  function inProgress() { return draft.base !== null && draft.base !== undefined; }
  // The number of the hand being entered: the one it was when the form was started.
  function handNumber() { return (inProgress() ? draft.baseHands : handsOf(g).length) + 1; }

  // A live change from another phone while this form is open: said at once (the review,
  // with what changed, comes with Preview).
  function drawStale() {
    const moved = inProgress() && g.version !== draft.base && !reviewBox.childElementCount;
    staleNote.hidden = !moved;
    if (!moved) return;
    const fresh = handsOf(g).filter(x => x.n >= handNumber());
    const last = fresh[fresh.length - 1];
    const what = last ? `${last.raw.by || "Another phone"} scored hand ${last.n}` : "Another phone changed this game";
    staleNote.replaceChildren(`${what} meanwhile: tap Preview to review before anything is written.`);
  }

  function ginTap(s) {
    // One tap for the usual ending: the gin player chosen, their 0 filled in.
    draft.ender = s; draft.bigGin = false; draft.deadwood[s] = "0";
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
    const m = matchOf(g);
    if (m.finished && draft.editing === null) {
      entry.replaceChildren(reviewBox, h("h2", null, "The match is over"),
        h("p", { class: "muted", id: "over-help" }, "A mistake? Tap Correct next to the hand in the history: the match is scored again, ",
          "and if nobody has won any more it goes on. Or start a rematch below."));
      return;
    }
    const dealt = inProgress() && typeof draft.baseDealer === "number" ? draft.baseDealer : g.dealer;
    const dealer = dealt !== undefined && dealt !== null && names[dealt] !== undefined ? names[dealt] : null;
    const kids = [reviewBox, h("h2", null, draft.editing !== null ? `Correct hand ${draft.editing}` : `Score hand ${handNumber()}`),
      draft.editing === null && dealer ? h("p", { class: "dealer-line", id: "dealer-line" }, `${dealer} deals this hand`) : null,
      staleNote];
    if (draft.editing === null) {
      kids.push(h("div", { class: "gin-taps", role: "group", "aria-label": `one tap: who went ${rules.gin_word}` },
        ...names.map((n, s) => h("button", { type: "button", class: "btn gin-tap", id: `gin-tap-${s}`,
          "aria-pressed": draft.ender === s && String(draft.deadwood[s] ?? "") === "0" ? "true" : "false",
          onclick: () => ginTap(s) }, `${n}: ${rules.gin_word}`))));
    }
    const enderWord = rules.gin_word === "gin" ? "Who knocked or went gin?" : `Who ended the hand (knocked or went ${rules.gin_word})?`;
    kids.push(h("div", { class: "label", id: "ender-label" }, enderWord),
      seg(names.map((n, s) => [s, n]).concat([["void", "Nobody: the stock ran out"]]), draft.ender,
        (s) => { draft.ender = s === "void" ? "void" : Number(s); if (s === "void") draft.bigGin = false; save(); showError(enderErr, ""); drawEntry(); }, "who ended the hand"),
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
    // Color Gin needs the cards: its spoiled suits come from them.
    if (takes.deadwood === false) draft.mode = "cards";
    else kids.push(h("div", { class: "label" }, "How will you enter the hands?"), seg([["cards", "Enter cards"], ["deadwood", "Deadwood only"]], draft.mode, (v) => { draft.mode = v; save(); drawEntry(); }, "entry mode"));
    if (draft.mode === "deadwood") {
      if (draft.ender === "void") {
        kids.push(h("p", { class: "help", id: "void-help" }, (g.options || {}).stock_end === "showdown_at_2"
          ? "The stock ran out: in this rule set the lower deadwood wins the difference (a showdown)."
          : "The stock ran out: in this rule set the hand is void and nobody scores."));
      } else if (typeof draft.ender === "number" && bigGinBonus(g) > 0) {
        kids.push(toggleField("big-gin", `${names[draft.ender]}: ${bigWord} (all 11 cards melded, no discard)`, draft.bigGin,
          (v) => { draft.bigGin = v; if (v) draft.deadwood[draft.ender] = "0"; save(); drawEntry(); },
          `Scores a bonus of ${bigGinBonus(g)} instead of the gin bonus.`));
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
          // The knocker may declare their own arrangement: it decides the spoiled suits.
          const dec = h("input", { id: "declared", class: "hand-text", value: draft.declared || "", autocomplete: "off", autocapitalize: "characters",
            spellcheck: "false", placeholder: "e.g. 7S 7H 7D / 3C 4C 5C", "aria-describedby": "declared-error" });
          dec.addEventListener("input", () => { draft.declared = dec.value; save(); showError(declaredErr, ""); });
          block.append(h("label", { for: "declared" }, `Melds ${n} declares (optional; groups split by /)`), dec, declaredErr,
            h("p", { class: "help" }, "Leave empty to let the companion choose the arrangement that leaves the most open suits unspoiled."));
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
      h("button", { type: "button", class: "btn primary", id: "preview-btn", onclick: doPreview }, "Preview"),
      draft.editing !== null ? h("button", { type: "button", class: "btn", id: "cancel-correction", onclick: () => { clearEntry(); drawEntry(); drawStale(); } }, "Cancel correction") : null,
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
    const full = cards.length === handSize(g, seat, draft.ender)[0] && !parsed.cards.includes(card);
    if (full) {
      // This hand is complete: the grid moves on to the next player still short of cards,
      // and when every hand is complete (and the ender chosen) the preview opens by itself.
      const short = names.map((_, i) => (seat + 1 + i) % names.length)
        .find(i => i !== seat && parseHand(draft.text[i] || "", deck).cards.length < handSize(g, i, draft.ender)[0]);
      if (short !== undefined) draft.active = short;
      save(); drawEntry();
      if (short !== undefined) {
        const next = entry.querySelector(`.seat-block[data-seat='${short}']`);
        if (next) next.scrollIntoView({ block: "start" });
      } else if (draft.ender !== null && draft.ender !== undefined) doPreview();
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
    if (draft.ender === null || draft.ender === undefined) { showError(enderErr, "Choose who ended the hand."); ok = false; }
    const isVoid = draft.ender === "void";
    const body = { ender: isVoid ? null : draft.ender };
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
      if (draft.bigGin && !isVoid && bigGinBonus(g) > 0) body.big_gin = true;
    } else {
      const seen = new Map();
      body.hands = names.map((n, s) => {
        const p = parseHand(draft.text[s] || "", deck);
        if (p.error) { showError(errs[s], p.error); ok = false; return p.cards; }
        for (const c of p.cards) {
          if (seen.has(c)) { showError(errs[s], `${pretty(c)} is also in ${names[seen.get(c)]}'s hand: a card can be in one hand only`); ok = false; }
          else seen.set(c, s);
        }
        const sizes = handSize(g, s, draft.ender);
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
    const base = inProgress() ? draft.base : g.version;
    if (base !== undefined && base !== null) body.expected_version = base;
    return ok ? body : null;
  }

  function showServerError(e) {
    if (e instanceof api.NetError) {
      showError(formErr, "No connection to the companion: your entry is kept on this phone. Try again when the status shows online.");
      return;
    }
    // The companion says which field (and seat) a refusal is about in its details: the
    // message goes next to that field. Seats count from 0 in messages; players see names.
    const d = e.details || {};
    const said = String(e.message || e).replace(/\bseat (\d)\b/g, (m, n) => names[Number(n)] ?? m);
    let seat = typeof d.seat === "number" ? d.seat : -1;
    for (const f of d.fields || []) {  // a field of the wrong type: "hands.1.0"
      const parts = String(f.field || "").split(".");
      if (seat < 0 && (parts[0] === "hands" || parts[0] === "deadwood") && /^\d+$/.test(parts[1] || "")) seat = Number(parts[1]);
    }
    if (d.field === "deadwood") {  // the companion's range check, in players' words
      showError(formErr, "Each player's deadwood is a whole number, the points of their unmatched cards (0 to 500)."); return;
    }
    if (d.field === "upcard" && upcardErr.isConnected) { showError(upcardErr, said); return; }
    if (d.field === "declared" && declaredErr.isConnected) { showError(declaredErr, said); return; }
    if (seat >= 0 && seat < names.length && errs[seat].isConnected) showError(errs[seat], said);
    else showError(formErr, said);
  }

  // Brings the first message into view, so a thumb at the bottom of the page sees it.
  function revealError() {
    const first = entry.querySelector(".field-error:not([hidden])");
    if (first) first.scrollIntoView({ block: "center" });
  }


  async function doPreview() {
    const body = buildBody();
    reviewBox.replaceChildren();
    if (!body) { preview.hidden = true; revealError(); return; }
    const editing = draft.editing;
    const path = editing !== null ? `/api/v1/games/${g.id}/hands/${editing}/preview` : `/api/v1/games/${g.id}/hands/preview`;
    try {
      const res = await api.post(path, body);
      if (res.changes && res.changes.length) { await review(res.changes); return; }
      showPreview(res.result || res, body, res);
    } catch (e) {
      preview.hidden = true;
      if (e instanceof api.ApiError && e.details && e.details.changes) { await review(e.details.changes); return; }
      showServerError(e); revealError();
    }
  }

  // Another phone wrote meanwhile: show what changed, write nothing, let the player choose.
  async function review(changes) {
    preview.hidden = true;
    await reload();
    changed = changedHands(changes);
    drawSheet(); drawHistory(); drawTools();
    const now = handsOf(g);
    const describe = (n) => {
      const x = now.find(y => y.n === n);
      if (!x) return `Hand ${n}: no longer on the sheet.`;
      return `Hand ${n}: ${handLine(x.result)}${x.raw.by ? ` (by ${x.raw.by})` : ""}.`;
    };
    const rebase = () => {
      draft.base = g.version; draft.baseHands = handsOf(g).length; draft.baseDealer = g.dealer; saveDraft(key, draft);
      changed = null; reviewBox.replaceChildren(); drawSheet(); drawEntry(); doPreview();
    };
    const discard = () => { clearEntry(); changed = null; drawAll(); toast("Your entry was discarded"); };
    const finished = matchOf(g).finished;
    const choices = [];
    if (draft.editing !== null) choices.push([`Keep my correction of hand ${draft.editing}`, "rebase-mine", rebase, true]);
    else if (!finished) choices.push([`Score mine as hand ${handsOf(g).length + 1}`, "rebase-mine", rebase, true]);
    choices.push(["Discard my entry", "discard-mine", discard, false]);
    drawEntry();
    reviewBox.replaceChildren(reviewPanel(changes, describe, choices));
    drawStale();
    reviewBox.scrollIntoView({ block: "start" });
  }

  function handLine(result) { return handWords(result, names, kindLabel); }

  function showPreview(r, body, res) {
    const kids = [h("h2", { id: "preview-title", tabindex: -1 }, draft.editing !== null ? `Preview: hand ${draft.editing} corrected` : "Preview"),
      ...resultKids(r, res, { names, kindLabel, editing: draft.editing, before: g })];
    const ties = Array.isArray(res.arrangements) && typeof r.ender === "number" ? res.arrangements : null;
    if (ties && ties.length > 1) {
      // RULES.md 1: when arrangements tie on deadwood, the player says which was laid down.
      const key = (melds) => JSON.stringify((melds || []).map(m => m.map(c => c.split("=")[0]).sort()).map(m => m.join(" ")).sort());
      const used = key((r.melds || [])[r.ender]);
      const who = names[r.ender];
      kids.push(h("div", { class: "ties", id: "ties" },
        h("div", { class: "label", id: "ties-label" }, `${ties.length} ways to meld ${who}'s hand leave the same deadwood (${ties[0].deadwood_value}): which did ${who} lay down?`),
        h("div", { class: "tie-list", role: "group", "aria-labelledby": "ties-label" }, ...ties.map((a, i) =>
          h("button", { type: "button", class: "btn tie", id: `tie-${i}`, "aria-pressed": key(a.melds) === used ? "true" : "false",
            onclick: () => {
              draft.declared = a.melds.map(m => m.join(" ")).join(" / ");
              draft.mode = "cards"; save(); drawEntry(); doPreview();
            } }, a.melds.map(m => m.map(pretty).join(" ")).join(" · "))))));
    }
    const confirmErr = fieldError("confirm-error");
    kids.push(confirmErr, h("div", { class: "actions" },
      h("button", { type: "button", class: "btn primary", id: "confirm-btn", onclick: () => confirm(body, confirmErr) }, draft.editing !== null ? "Save the correction" : "Confirm and score"),
      h("button", { type: "button", class: "btn", onclick: () => {  // the focus goes back where it came from
        preview.hidden = true; const b = document.getElementById("preview-btn"); if (b) b.focus(); } }, "Back to the entry")));
    preview.replaceChildren(...kids);
    preview.hidden = false;
    preview.scrollIntoView({ block: "start" });
    document.getElementById("preview-title").focus({ preventScroll: true });
  }

  function clearEntry() {
    clearDraft(key);
    Object.assign(draft, { ender: null, text: {}, deadwood: {}, editing: null, active: 0, declared: "", bigGin: false, joker: false, upcard: "", base: null, baseHands: null, baseDealer: null });
    preview.hidden = true;
    reviewBox.replaceChildren();
  }

  async function confirm(body, errEl) {
    const editing = draft.editing;
    const path = editing !== null ? `/api/v1/games/${g.id}/hands/${editing}` : `/api/v1/games/${g.id}/hands`;
    const wasOver = !!matchOf(g).finished;
    try {
      const res = await ctx.write(editing !== null ? "PUT" : "POST", path, body, { queue: true, label: `hand for game ${g.id}` });
      clearEntry();
      changed = null;
      if (res && res.game) g = res.game;
      else await reload();
      drawAll();
      const r = res && res.result;
      if (r && (r.kind === "gin" || r.kind === "big_gin") && editing === null) {
        buzz();
        toast(`${kindLabel(r.kind).charAt(0).toUpperCase() + kindLabel(r.kind).slice(1)}! ${names[r.winner] ?? ""}`.trim());
      } else if (editing !== null && wasOver && !matchOf(g).finished) {
        toast(`Hand ${editing} corrected: the match is not over any more`);
      }
      window.scrollTo(0, 0);
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 409 && e.details && e.details.changes) {
        await review(e.details.changes);
      } else if (e instanceof api.ApiError && e.status === 409) {
        showError(errEl, `${e.message}: the sheet is updated, check it and confirm again.`);
        await reload(); drawSheet(); drawHistory(); drawTools();
      } else {
        preview.hidden = true;
        showServerError(e);
      }
    }
  }

  // ---- history, undo and redo, export -----------------------------------------------------------
  function drawHistory() {
    const hands = handsOf(g);
    const items = hands.slice().reverse().map(({ n, result, input, raw }) => {
      const spoiled = result.extra && result.extra.spoiled ? ` · spoiled ${result.extra.spoiled.map(s => SUIT_SYMBOL[s] || s).join(" ") || "none"}` : "";
      return h("li", { dataset: { hand: n }, class: changed && changed.has(n) ? "changed" : null },
        h("span", null, h("strong", null, `Hand ${n}`), ` ${handLine(result)}`, spoiled,
          raw.corrected ? h("small", { class: "muted" }, " (corrected)") : null,
          raw.by ? h("small", { class: "muted by" }, ` · ${raw.by}`) : null),
        h("button", { type: "button", class: "btn small", "aria-label": `Correct hand ${n}`, onclick: () => startCorrection(n, input, result) }, "Correct"));
    });
    history.replaceChildren(h("h2", null, "History"), items.length ? h("ol", { class: "history", reversed: true }, ...items) : h("p", { class: "muted" }, "No hands yet."));
  }

  function startCorrection(n, input, result) {
    clearEntry();
    draft.editing = n;
    draft.ender = input && input.ender !== undefined ? input.ender : result.ender;
    if (draft.ender === null || draft.ender === undefined) draft.ender = "void";
    draft.declared = input && input.declared ? input.declared.map(m => m.join(" ")).join(" / ") : "";
    draft.bigGin = !!(input && input.big_gin);
    draft.joker = !!(input && input.joker);
    draft.upcard = input && input.upcard ? String(input.upcard) : "";
    if (input && input.hands) { draft.mode = "cards"; input.hands.forEach((cs, s) => { draft.text[s] = cs.join(" "); }); }
    else if (input && input.deadwood) { draft.mode = "deadwood"; input.deadwood.forEach((d, s) => { draft.deadwood[s] = String(d); }); }
    else if (result.deadwood) { draft.mode = "deadwood"; result.deadwood.forEach((d, s) => { draft.deadwood[s] = String(d); }); }
    save();
    drawEntry();
    entry.scrollIntoView({ block: "start" });
  }

  // What an undo or a redo is about, in words: "hand 5 (Ana: gin · Ana +33)".
  function entryWords(what) {
    if (!what) return "";
    if (what.type === "hand_corrected") return `the correction of hand ${what.hand}`;
    const x = handsOf(g).find(y => y.n === what.hand && what.type === "hand");
    return x ? `hand ${what.hand} (${handLine(x.result)})` : (what.hand ? `hand ${what.hand}` : "the last entry");
  }

  function drawTools(confirming = false) {
    const m = matchOf(g);
    const undoErr = fieldError("undo-error");
    const act = (path, done) => undoOrRedo({ ctx, g, path, done, drawAll, reload,
      apply: async (res) => { if (res && res.game) g = res.game; else await reload(); },
      errEl: () => tools.querySelector("#undo-error") || undoErr });
    const redoWords = !g.redo ? "" : g.redo.type === "hand_corrected" ? `the correction of hand ${g.redo.hand}`
      : (g.redo.hand ? `hand ${g.redo.hand}` : "the last undone entry");
    const row = undoButtons({ g, confirming, undoWords: entryWords(g.undo), redoWords, ask: drawTools, act });
    tools.replaceChildren(h("h2", null, "Game"), h("div", { class: "actions wrap" }, ...row,
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.json`, download: `gingo-${g.id}.json` }, "Export JSON"),
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.csv`, download: `gingo-${g.id}.csv` }, "Export CSV"),
      h("button", { type: "button", class: "btn", onclick: () => window.print() }, "Print"),
      m.finished ? h("button", { type: "button", class: "btn primary", id: "rematch-btn", onclick: async () => {
        try { const res = await ctx.write("POST", `/api/v1/games/${g.id}/rematch`, {}); const ng = res.game || res; ctx.navigate(`#/game/${ng.id}`); }
        catch (e) { showError(tools.querySelector("#undo-error"), e.message); }
      } }, "Rematch") : null), undoErr);
  }

  async function reload() {
    try { const res = await api.get(`/api/v1/games/${g.id}`); g = res.game || res; } catch { /* keep showing the last state */ }
  }

  function drawAll() { drawSheet(); drawEntry(); drawStale(); drawHistory(); drawTools(); }
  drawAll();
  return {
    async update(msgs) {
      // the whole game is fetched only when a live event changed it
      if (!ctx.touches(msgs, g)) return;
      const before = JSON.stringify([g.version, (g.hands || []).length, g.finished]);
      await reload();
      const after = JSON.stringify([g.version, (g.hands || []).length, g.finished]);
      drawSheet(); drawHistory(); drawTools(); drawStale();
      // Redraw the entry only when it is not being typed in (a started form keeps its hand number).
      if (before !== after && !entry.contains(document.activeElement)) { drawEntry(); drawStale(); }
    },
  };
}
