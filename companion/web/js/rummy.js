// The rummy score sheet and hand entry (Gin Rummy, Color Gin, Ginski).

import * as api from "./api.js";
import { h, fieldError, showError, toast, loadDraft, saveDraft, clearDraft, rulesOf, seg } from "./ui.js";
import { deckFrom, parseHand, parseCard, pretty, cardChip, cardGrid } from "./cards.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
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

function matchOf(game) {
  const m = game.match || game.score || {};
  return {
    totals: m.totals || game.scores || [],
    final: m.final || game.final || null,
    bonuses: m.bonuses || game.bonuses || [],
    hands_won: m.hands_won || game.hands_won || null,
    extra: m.extra || game.extra || {},
    finished: game.finished ?? m.finished,
    winner: game.winner ?? m.winner,
  };
}

function bonusLabel(b) {
  const k = String(b.kind || b.name || "bonus");
  const map = { game: "Game bonus", box: "Boxes", boxes: "Boxes", line: "Boxes", shutout: "Shutout" };
  return map[k] || k.replace(/_/g, " ");
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
  const draft = loadDraft(key, { ender: null, mode: "cards", active: 0, text: {}, deadwood: {}, editing: null });
  const save = () => saveDraft(key, draft);

  const title = h("h1", null, `${rules.label}`, g.preset ? h("small", null, ` · ${g.preset_label || g.preset}`) : null);
  const winnerBox = h("div", { id: "winner", class: "winner", hidden: true });
  const sheet = h("div", { class: "sheet-wrap", id: "sheet" });
  const entry = h("section", { class: "panel entry", id: "entry" });
  const preview = h("section", { class: "panel preview", id: "preview", hidden: true });
  const history = h("section", { class: "panel", id: "history" });
  const tools = h("section", { class: "panel tools no-print", id: "tools" });
  main.append(h("section", { class: "panel" }, title, winnerBox, sheet), entry, preview, history, tools);

  // ---- score sheet -------------------------------------------------------------------------
  function drawSheet() {
    const m = matchOf(g);
    const hands = handsOf(g);
    let table;
    if (rules.suit_columns) table = colorSheet(hands, m);
    else table = plainSheet(hands, m);
    sheet.replaceChildren(table);
    if (m.finished) {
      const w = m.winner;
      winnerBox.hidden = false;
      winnerBox.textContent = (w === null || w === undefined) ? "The match is over: a tie." : `${names[w] ?? w} wins the match!`;
    } else winnerBox.hidden = true;
  }

  function plainSheet(hands, m) {
    const head = h("tr", null, h("th", { scope: "col" }, "#"), ...names.map(n => h("th", { scope: "col" }, n)));
    const rows = hands.map(({ n, result }) => h("tr", { dataset: { hand: n } },
      h("th", { scope: "row", title: kindLabel(result.kind) }, `${n}`, h("small", null, " " + (kindLabel(result.kind)))),
      ...names.map((_, s) => {
        const p = Array.isArray(result.points) ? result.points[s] : 0;
        return h("td", { class: p ? "pos" : "zero" }, p ? String(p) : "·");
      })));
    const foot = [h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
      ...names.map((_, s) => h("td", { dataset: { totalSeat: s } }, String(m.totals[s] ?? 0))))];
    if (m.hands_won) {
      foot.push(h("tr", { class: "won" }, h("th", { scope: "row" }, "Hands won"),
        ...names.map((_, s) => h("td", { dataset: { wonSeat: s } }, String(m.hands_won[s] ?? 0)))));
    }
    const byKind = new Map();
    for (const b of m.bonuses) {
      const k = bonusLabel(b);
      if (!byKind.has(k)) byKind.set(k, names.map(() => 0));
      byKind.get(k)[b.seat] += Number(b.points) || 0;
    }
    for (const [k, pts] of byKind) {
      foot.push(h("tr", { class: "bonus", dataset: { bonus: k } }, h("th", { scope: "row" }, k),
        ...pts.map((p, s) => h("td", { dataset: { bonusSeat: s } }, p ? `+${p}` : "·"))));
    }
    if (m.final && m.finished) {
      foot.push(h("tr", { class: "final" }, h("th", { scope: "row" }, "Final"),
        ...names.map((_, s) => h("td", { dataset: { finalSeat: s } }, String(m.final[s] ?? 0)))));
    }
    return h("table", { class: "sheet", id: "score-table" }, h("thead", null, head), h("tbody", null, ...rows), h("tfoot", null, ...foot));
  }

  function colorSheet(hands, m) {
    const suits = "SHDC".split("");
    const closed = m.extra.closed || {};
    const suitWinner = m.extra.suit_winner || {};
    const isClosed = (s) => Array.isArray(closed) ? closed.includes(s) : !!closed[s];
    const head1 = h("tr", null, h("th", null, ""), ...names.map(n => h("th", { colspan: 4, scope: "colgroup" }, n)));
    const head2 = h("tr", null, h("th", { scope: "col" }, "#"), ...names.flatMap(() => suits.map(s =>
      h("th", { scope: "col", class: "suit-" + s + (isClosed(s) ? " closed" : "") }, SUIT_SYMBOL[s]))));
    const rows = hands.map(({ n, result }) => {
      const spoiled = (result.extra && result.extra.spoiled) || [];
      return h("tr", { dataset: { hand: n } }, h("th", { scope: "row" }, String(n)),
        ...names.flatMap((_, p) => suits.map(s => {
          const pts = result.points && result.points[p] ? (result.points[p][s] || 0) : 0;
          if (spoiled.includes(s) && !pts) return h("td", { class: "spoiled", title: `${SUIT_SYMBOL[s]} spoiled this hand` }, "✕");
          return h("td", { class: pts ? "pos" : "zero" }, pts ? String(pts) : "·");
        })));
    });
    const total = h("tr", { class: "total" }, h("th", { scope: "row" }, "Σ"),
      ...names.flatMap((_, p) => suits.map(s => {
        const v = m.totals[p] ? (m.totals[p][s] || 0) : 0;
        const won = suitWinner[s] !== undefined && suitWinner[s] !== null && Number(suitWinner[s]) === p;
        return h("td", { class: (isClosed(s) ? "closed" : "") + (won ? " won" : ""), dataset: { totalSeat: p, suit: s },
          title: won ? `${names[p]} took ${SUIT_SYMBOL[s]}` : (isClosed(s) ? "closed" : "") }, (won ? "★" : "") + String(v));
      })));
    const legend = h("p", { class: "help" }, "✕ spoiled that hand · ★ suit taken (100 or more, closed) · three suits win the match");
    return h("div", null, h("table", { class: "sheet color", id: "score-table" }, h("thead", null, head1, head2), h("tbody", null, ...rows), h("tfoot", null, total)), legend);
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

  function drawEntry() {
    const m = matchOf(g);
    if (m.finished && draft.editing === null) {
      entry.replaceChildren(h("h2", null, "The match is over"),
        h("p", { class: "muted" }, "Correct a hand from the history, or start a rematch below."));
      return;
    }
    const kids = [h("h2", null, draft.editing !== null ? `Correct hand ${draft.editing}` : `Score hand ${handsOf(g).length + 1}`)];
    const enderWord = rules.gin_word === "gin" ? "Who knocked or went gin?" : `Who ended the hand (knocked or went ${rules.gin_word})?`;
    kids.push(h("p", { class: "label", id: "ender-label" }, enderWord),
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
    else kids.push(h("p", { class: "label" }, "How will you enter the hands?"), seg([["cards", "Enter cards"], ["deadwood", "Deadwood only"]], draft.mode, (v) => { draft.mode = v; save(); drawEntry(); }, "entry mode"));
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
      draft.editing !== null ? h("button", { type: "button", class: "btn", onclick: () => { draft.editing = null; draft.text = {}; draft.deadwood = {}; draft.ender = null; save(); drawEntry(); preview.hidden = true; } }, "Cancel correction") : null,
      h("button", { type: "button", class: "btn", onclick: () => { draft.text = {}; draft.deadwood = {}; save(); drawEntry(); preview.hidden = true; } }, "Clear")));
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
        if (!/^\d+$/.test(v)) { showError(errs[s], `Type ${n}'s deadwood as a whole number (0 or more).`); ok = false; return 0; }
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
    if (g.version !== undefined) body.expected_version = g.version;
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
    if (!body) { preview.hidden = true; revealError(); return; }
    try {
      const res = await api.post(`/api/v1/games/${g.id}/hands/preview`, Object.assign({}, body, { expected_version: undefined }));
      showPreview(res.result || res, body);
    } catch (e) { preview.hidden = true; showServerError(e); revealError(); }
  }

  function showPreview(r, body) {
    const kids = [h("h2", null, "Preview")];
    const kind = kindLabel(r.kind);
    const winner = r.winner !== null && r.winner !== undefined ? names[r.winner] : null;
    kids.push(h("p", { class: "verdict", id: "preview-verdict" }, `${r.ender === null || r.ender === undefined ? "Nobody" : names[r.ender]}: ${kind}.`, winner ? ` ${winner} scores.` : " No score."));
    if (r.extra && r.extra.spoiled) kids.push(h("p", { id: "preview-spoiled" }, "Spoiled suits: ", r.extra.spoiled.length ? r.extra.spoiled.map(s => SUIT_SYMBOL[s] || s).join(" ") : "none"));
    if (r.extra && r.extra.undercutter !== undefined && r.extra.undercutter !== null) kids.push(h("p", null, `Undercut by ${names[r.extra.undercutter]}`));
    names.forEach((n, s) => {
      const melds = (r.melds && r.melds[s]) || [];
      const lay = (r.layoffs && r.layoffs[s]) || [];
      const dwc = (r.deadwood_cards && r.deadwood_cards[s]) || [];
      const pts = Array.isArray(r.points) ? r.points[s] : 0;
      const ptsText = typeof pts === "object" && pts ? Object.entries(pts).filter(([, v]) => v).map(([k, v]) => `${SUIT_SYMBOL[k] || k} ${v}`).join(", ") || "0" : String(pts ?? 0);
      kids.push(h("div", { class: "seat-result", dataset: { seat: s } },
        h("h3", null, n, h("span", { class: "pts" }, ` ${ptsText} points`)),
        melds.length ? h("div", { class: "melds" }, ...melds.map(ml => h("span", { class: "meld" }, ...ml.map(cardChip)))) : null,
        lay.length ? h("p", null, "Laid off: ", ...lay.map(cardChip)) : null,
        h("p", null, `Deadwood ${r.deadwood ? r.deadwood[s] : "?"}`, dwc.length ? ": " : "", ...dwc.map(cardChip))));
    });
    for (const note of r.notes || []) kids.push(h("p", { class: "help" }, note));
    const confirmErr = fieldError("confirm-error");
    kids.push(confirmErr, h("div", { class: "actions" },
      h("button", { type: "button", class: "btn primary", id: "confirm-btn", onclick: () => confirm(body, confirmErr) }, draft.editing !== null ? "Save the correction" : "Confirm and score"),
      h("button", { type: "button", class: "btn", onclick: () => { preview.hidden = true; } }, "Back to the entry")));
    preview.replaceChildren(...kids);
    preview.hidden = false;
    preview.scrollIntoView({ block: "start" });
  }

  async function confirm(body, errEl) {
    const editing = draft.editing;
    const path = editing !== null ? `/api/v1/games/${g.id}/hands/${editing}` : `/api/v1/games/${g.id}/hands`;
    try {
      const res = await ctx.write(editing !== null ? "PUT" : "POST", path, body, { queue: true, label: `hand for game ${g.id}` });
      clearDraft(key);
      Object.assign(draft, { ender: null, text: {}, deadwood: {}, editing: null, active: 0, declared: "", bigGin: false, joker: false, upcard: "" });
      preview.hidden = true;
      if (res && res.game) g = res.game;
      else await reload();
      drawAll();
      window.scrollTo(0, 0);
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 409) {
        showError(errEl, "Someone else scored a hand first: the sheet is updated; check and confirm again.");
        await reload(); drawSheet(); drawHistory();
      } else {
        preview.hidden = true;
        showServerError(e);
      }
    }
  }

  // ---- history, undo, export -----------------------------------------------------------------
  function drawHistory() {
    const hands = handsOf(g);
    const items = hands.slice().reverse().map(({ n, result, input, raw }) => {
      const kind = kindLabel(result.kind);
      const ender = result.ender !== null && result.ender !== undefined ? names[result.ender] : "nobody";
      const winner = result.winner !== null && result.winner !== undefined ? names[result.winner] : null;
      let pts = "";
      if (Array.isArray(result.points) && winner) {
        const p = result.points[result.winner];
        pts = typeof p === "object" ? ` +${Object.values(p).reduce((a, b) => Math.max(a, b), 0)} per open suit` : ` +${p}`;
      }
      const spoiled = result.extra && result.extra.spoiled ? ` · spoiled ${result.extra.spoiled.map(s => SUIT_SYMBOL[s] || s).join(" ") || "none"}` : "";
      return h("li", { dataset: { hand: n } },
        h("span", null, h("strong", null, `Hand ${n}`), ` ${ender}: ${kind}`, winner ? ` · ${winner}${pts}` : "", spoiled,
          raw.corrected ? h("small", { class: "muted" }, " (corrected)") : null),
        h("button", { type: "button", class: "btn small", onclick: () => startCorrection(n, input, result) }, "Correct"));
    });
    history.replaceChildren(h("h2", null, "History"), items.length ? h("ol", { class: "history", reversed: true }, ...items) : h("p", { class: "muted" }, "No hands yet."));
  }

  function startCorrection(n, input, result) {
    draft.editing = n;
    draft.ender = input && input.ender !== undefined ? input.ender : result.ender;
    if (draft.ender === null || draft.ender === undefined) draft.ender = "void";
    draft.text = {};
    draft.deadwood = {};
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

  function drawTools() {
    const m = matchOf(g);
    const undoErr = fieldError("undo-error");
    tools.replaceChildren(h("h2", null, "Game"), h("div", { class: "actions wrap" },
      h("button", { type: "button", class: "btn", id: "undo-btn", onclick: async () => {
        try { const res = await ctx.write("POST", `/api/v1/games/${g.id}/undo`, {}); if (res && res.game) g = res.game; else await reload(); drawAll(); toast("Last entry undone"); }
        catch (e) { showError(undoErr, e.message); }
      } }, "Undo last"),
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.json`, download: `gingo-${g.id}.json` }, "Export JSON"),
      h("a", { class: "btn", href: `/api/v1/games/${g.id}/export.csv`, download: `gingo-${g.id}.csv` }, "Export CSV"),
      h("button", { type: "button", class: "btn", onclick: () => window.print() }, "Print"),
      m.finished ? h("button", { type: "button", class: "btn primary", id: "rematch-btn", onclick: async () => {
        try { const res = await ctx.write("POST", `/api/v1/games/${g.id}/rematch`, {}); const ng = res.game || res; ctx.navigate(`#/game/${ng.id}`); }
        catch (e) { showError(undoErr, e.message); }
      } }, "Rematch") : null), undoErr);
  }

  async function reload() {
    try { const res = await api.get(`/api/v1/games/${g.id}`); g = res.game || res; } catch { /* keep showing the last state */ }
  }

  function drawAll() { drawSheet(); drawEntry(); drawHistory(); drawTools(); }
  drawAll();
  return {
    async update(msgs) {
      // the whole game is fetched only when a live event changed it
      if (!ctx.touches(msgs, g)) return;
      const before = JSON.stringify([g.version, (g.hands || []).length, g.finished]);
      await reload();
      const after = JSON.stringify([g.version, (g.hands || []).length, g.finished]);
      drawSheet(); drawHistory(); drawTools();
      // Redraw the entry only when it is not being typed in.
      if (before !== after && !entry.contains(document.activeElement)) drawEntry();
    },
  };
}
