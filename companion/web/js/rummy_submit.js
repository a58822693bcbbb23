// The rummy hand from the entry to the sheet: the preview (and the choice between tied
// arrangements), the review when another phone wrote first, the confirmation, and the
// companion's refusals shown next to the field they are about. st is the sheet's shared
// state (rummy.js) with the entry's fields (rummy_entry.js).

import * as api from "./api.js";
import { h, fieldError, showError, toast, saveDraft, clearDraft, buzz } from "./ui.js";
import { pretty } from "./cards.js";
import { matchOf, handsOf } from "./rummy_sheet.js";
import { reviewPanel, changedHands } from "./review.js";
import { resultKids } from "./rummy_views.js";

// Adds doPreview and clearEntry to st.
export function rummySubmit(st) {
  const { ctx, names, key, draft, save, entry, preview, reviewBox, errs, upcardErr, declaredErr, formErr, kindLabel } = st;

  function showServerError(e) {
    if (e instanceof api.NetError) {
      showError(formErr, "No connection to the companion: your entry is kept on this phone. Try again when the status shows online.");
      return;
    }
    // The companion says which field (and seat) a refusal is about in its details: the
    // message goes next to that field. Seats count from 0 in messages; players see names.
    const d = e.details || {};
    const said = api.says(e).replace(/\bseat (\d)\b/g, (m, n) => names[Number(n)] ?? m);
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
    const body = st.buildBody();
    reviewBox.replaceChildren();
    if (!body) { preview.hidden = true; revealError(); return; }
    const editing = draft.editing;
    const path = editing !== null ? `/api/v1/games/${st.g.id}/hands/${editing}/preview` : `/api/v1/games/${st.g.id}/hands/preview`;
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
    await st.reload();
    st.changed = changedHands(changes);
    st.drawSheet(); st.drawHistory(); st.drawTools();
    const now = handsOf(st.g);
    const describe = (n) => {
      const x = now.find(y => y.n === n);
      if (!x) return `Hand ${n}: no longer on the sheet.`;
      return `Hand ${n}: ${st.handLine(x.result)}${x.raw.by ? ` (by ${x.raw.by})` : ""}.`;
    };
    const rebase = () => {
      draft.base = st.g.version; draft.baseHands = handsOf(st.g).length; draft.baseDealer = st.g.dealer; saveDraft(key, draft);
      st.changed = null; reviewBox.replaceChildren(); st.drawSheet(); st.drawEntry(); doPreview();
    };
    const discard = () => { clearEntry(); st.changed = null; st.drawAll(); toast("Your entry was discarded"); };
    const finished = matchOf(st.g).finished;
    const choices = [];
    if (draft.editing !== null) choices.push([`Keep my correction of hand ${draft.editing}`, "rebase-mine", rebase, true]);
    else if (!finished) choices.push([`Score mine as hand ${handsOf(st.g).length + 1}`, "rebase-mine", rebase, true]);
    choices.push(["Discard my entry", "discard-mine", discard, false]);
    st.drawEntry();
    reviewBox.replaceChildren(reviewPanel(changes, describe, choices));
    st.drawStale();
    reviewBox.scrollIntoView({ block: "start" });
  }


  function showPreview(r, body, res) {
    const kids = [h("h2", { id: "preview-title", tabindex: -1 }, draft.editing !== null ? `Preview: hand ${draft.editing} corrected` : "Preview"),
      ...resultKids(r, res, { names, kindLabel, editing: draft.editing, before: st.g, noEnder: st.noEnder })];
    // "Ann: gin" was tapped, but what was entered leaves deadwood: said, not scored quietly as a knock
    const claim = draft.ginClaim;
    if (typeof claim === "number" && claim === r.ender && r.kind !== "gin" && r.kind !== "big_gin") {
      const dw = Array.isArray(r.deadwood) ? r.deadwood[claim] : null;
      kids.splice(1, 0, h("p", { class: "claim-note", id: "gin-claim-note", role: "alert" },
        `${names[claim]}: ${kindLabel("gin")} was tapped, but ${dw ? `the cards entered leave ${dw} deadwood` : "what was entered is not gin"}, `
        + `so this hand is scored as a ${kindLabel(r.kind === "undercut" ? "knock" : r.kind)}${r.kind === "undercut" ? " (and undercut)" : ""}. Check the cards, or confirm it as a knock.`));
    }
    const ties = Array.isArray(res.arrangements) && typeof r.ender === "number" ? res.arrangements : null;
    if (ties && ties.length > 1) {
      // When arrangements tie on deadwood, the player says which was laid down.
      const key = (melds) => JSON.stringify((melds || []).map(m => m.map(c => c.split("=")[0]).sort()).map(m => m.join(" ")).sort());
      const used = key((r.melds || [])[r.ender]);
      const who = names[r.ender];
      kids.push(h("div", { class: "ties", id: "ties" },
        h("div", { class: "label", id: "ties-label" }, `${ties.length} ways to meld ${who}'s hand leave the same deadwood (${ties[0].deadwood_value}): which did ${who} lay down?`),
        h("div", { class: "tie-list", role: "group", "aria-labelledby": "ties-label" }, ...ties.map((a, i) =>
          h("button", { type: "button", class: "btn tie", id: `tie-${i}`, "aria-pressed": key(a.melds) === used ? "true" : "false",
            onclick: () => {
              draft.declared = a.melds.map(m => m.join(" ")).join(" / ");
              draft.mode = "cards"; save(); st.drawEntry(); doPreview();
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
    Object.assign(draft, { ender: null, text: {}, deadwood: {}, editing: null, active: 0, declared: "", bigGin: false, joker: false, upcard: "", base: null, baseHands: null, baseDealer: null, ginClaim: null });
    preview.hidden = true;
    reviewBox.replaceChildren();
  }

  async function confirm(body, errEl) {
    const editing = draft.editing;
    const path = editing !== null ? `/api/v1/games/${st.g.id}/hands/${editing}` : `/api/v1/games/${st.g.id}/hands`;
    const wasOver = !!matchOf(st.g).finished;
    try {
      const res = await ctx.write(editing !== null ? "PUT" : "POST", path, body, { queue: true, label: `hand for game ${st.g.id}` });
      clearEntry();
      st.changed = null;
      if (res && res.game) st.g = res.game;
      else await st.reload();
      st.drawAll();
      const r = res && res.result;
      if (r && (r.kind === "gin" || r.kind === "big_gin") && editing === null) {
        buzz();
        toast(`${kindLabel(r.kind).charAt(0).toUpperCase() + kindLabel(r.kind).slice(1)}! ${names[r.winner] ?? ""}`.trim());
      } else if (editing !== null && wasOver && !matchOf(st.g).finished) {
        toast(`Hand ${editing} corrected: the match is not over any more`);
      }
      window.scrollTo(0, 0);
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 409 && e.details && e.details.changes) {
        await review(e.details.changes);
      } else if (e instanceof api.ApiError && e.status === 409) {
        showError(errEl, `${api.says(e)} The sheet is updated: check it and confirm again.`);
        await st.reload(); st.drawSheet(); st.drawHistory(); st.drawTools();
      } else {
        preview.hidden = true;
        showServerError(e);
      }
    }
  }

  Object.assign(st, { doPreview, clearEntry });
}
