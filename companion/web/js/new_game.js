// The new game form: the variant, its rule set (preset) and house rules, the players (by
// name, earlier players a tap away), the first dealer; and the variants as the page uses them.

import * as api from "./api.js";
import { h, fieldError, showError, loadDraft, saveDraft, clearDraft, seg } from "./ui.js";
import { knownPlayers } from "./people.js";
import { remoteInfo, remoteOn, hostOption, hostError, noteInvite, refreshRemote } from "./remote.js";

// The variants as the companion lists them, in one shape whatever the service's version.
export function normVariants(data) {
  let list = data && (data.variants || data);
  if (list && !Array.isArray(list)) list = Object.entries(list).map(([name, v]) => Object.assign({ name }, v));
  return (list || []).map(v => {
    const name = v.name || v.id || v.variant;
    let presets = v.presets || [];
    let presetValues = {};
    if (!Array.isArray(presets)) { presetValues = presets; presets = Object.keys(presets); }
    presets = presets.map(p => typeof p === "string" ? p : (presetValues[p.name] = p.options || p.values || {}, p.name));
    let options = v.options || [];
    if (!Array.isArray(options)) options = Object.entries(options).map(([n, o]) => Object.assign({ name: n }, o));
    return {
      name, label: v.label || v.title || name,
      presets, presetValues, presetLabels: Object.fromEntries((v.preset_list || []).map(p => [p.name, p.label])),
      seatWord: v.seat_word || "player", defaultPlayers: v.default_players || null, sides: v.sides || null,
      defaultPreset: v.default_preset || v.defaultPreset || presets[0] || null,
      options, players: v.players || null,
      // what the page switches on (never the game's name): the player counts offered, with
      // their words and the options a count sets; the board; the words the game uses
      seatChoices: Array.isArray(v.seat_choices) ? v.seat_choices : null,
      onBoard: !!v.on_board, pileDraw: v.pile_draw !== false, matchWord: v.match_word || "match",
      declaredHelp: v.declared_help || null, levelWords: v.level_words || null,
      dealtPlay: v.dealt_play !== false,  // the companion can deal it (the Play screen)
      ginWord: v.gin_word || null,  // a game with a gin ending (and knocks and undercuts) says its word
      bigWord: v.big_word || null,  // and its word for the ending with every card melded, no discard
      kindWords: v.kind_words || {},  // how a hand ended, in the game's words where the rummy ones do not fit
      sideWins: !!v.side_wins,  // its winner is a side (seats by player count: sides), not a seat
    };
  });
}

function optionLabel(name) {
  const t = name.replace(/_/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export async function mountNew(main, ctx) {
  if (!ctx.variants) ctx.variants = normVariants(await api.get("/api/v1/variants"));
  const variants = ctx.variants;
  const known = await knownPlayers();
  const remote = remoteOn(await remoteInfo());  // this board has a [remote] section: it can host a friend
  let lastFocus = null;
  const draft = loadDraft("new", { variant: null, preset: null, options: {}, players: [], dealer: 0, count: null, remote: false });
  const form = h("form", { class: "panel", novalidate: true, id: "new-form" });
  const err = fieldError("new-error");
  main.append(form);

  // the game's player counts as the companion offers them (Gin Rummy's four: the partnership)
  const choiceOf = (v, n) => (v.seatChoices || []).find(c => c.players === n) || null;
  function counts(v) {
    if (v.seatChoices && v.seatChoices.length) return v.seatChoices.map(c => c.players);
    if (v.players) {
      if (Array.isArray(v.players)) return v.players;
      if (typeof v.players === "object" && "min" in v.players) {
        const out = []; for (let n = v.players.min; n <= v.players.max; n++) out.push(n);
        if (v.players.default) out.sort((a, b) => (b === v.players.default) - (a === v.players.default));
        return out;
      }
    }
    return [2];
  }

  function draw() {
    const v = variants.find(x => x.name === draft.variant) || variants[0];
    draft.variant = v.name;
    if (!v.presets.includes(draft.preset)) draft.preset = v.defaultPreset;
    const ns = counts(v);
    if (!ns.includes(draft.count)) {
      // The rule set's own player count (Ginski: 3) is the starting choice.
      const pv = (v.presetValues[draft.preset] || {}).players;
      const opt = v.options.find(o => o.name === "players");
      const def = pv ?? (opt ? opt.default : null);
      draft.count = ns.includes(def) ? def : ns[0];
    }
    while (draft.players.length < draft.count) draft.players.push("");
    saveDraft("new", draft);
    const kids = [h("h1", null, "New game")];
    kids.push(h("div", { class: "label" }, "Game"), seg(variants.map(x => [x.name, x.label]), v.name, (val) => { draft.variant = val; draft.options = {}; draft.count = null; draw(); }, "variant"));
    if (v.presets.length > 1) {
      const sel = h("select", { id: "preset", name: "preset" }, ...v.presets.map(p => h("option", { value: p, selected: p === draft.preset }, v.presetLabels[p] || p)));
      sel.addEventListener("change", () => { draft.preset = sel.value; draft.options = {}; draft.count = null; draw(); });
      kids.push(h("label", { for: "preset" }, "Rule set (preset)"), sel);
    }
    if (ns.length > 1) {
      kids.push(h("div", { class: "label" }, "Players"), seg(ns.map(n => [n, (choiceOf(v, n) || {}).label || String(n)]), draft.count, (n) => { draft.count = Number(n); draw(); }, "number of players"));
    }
    const choice = choiceOf(v, draft.count);
    const teams = (choice && choice.teams) || null;  // the partnership: two teams of two
    if (choice && choice.help) kids.push(h("p", { class: "help", id: "partnership-help" }, choice.help));
    const names = [];
    for (let i = 0; i < draft.count; i++) {
      let label = `Player ${i + 1}`;
      const sides = v.sides && v.sides[String(draft.count)];
      if (sides) {
        const side = Object.keys(sides).find(k => sides[k].includes(i));
        label = sides[side].length > 1 ? `Side ${side}, player ${sides[side].indexOf(i) + 1} (seat ${i + 1})` : `Side ${side} (seat ${i + 1})`;
      }
      const team = teams ? teams.findIndex(t => t.includes(i)) : -1;
      if (team >= 0) label = `Team ${"AB"[team] || team + 1}, player ${teams[team].indexOf(i) + 1} (seat ${i + 1})`;
      const inp = h("input", { id: `player-${i}`, name: `player-${i}`, value: draft.players[i] || "", placeholder: label,
        autocomplete: "off", list: known.length ? "known-players" : null });
      inp.addEventListener("input", () => { draft.players[i] = inp.value; saveDraft("new", draft); drawDealer(); drawPicks(); });
      inp.addEventListener("focus", () => { lastFocus = i; });
      names.push(h("label", { for: `player-${i}` }, label), inp);
    }
    kids.push(...names);
    // Players are people across games: a tap on an earlier player's name fills the next seat.
    if (known.length) kids.push(h("datalist", { id: "known-players" }, ...known.map(n => h("option", { value: n }))),
      h("div", { id: "player-picks" }));
    const dealerBox = h("div", { id: "dealer-box" });
    kids.push(dealerBox);
    const opts = v.options.filter(o => !o.hidden && !o.dealt_only && o.name !== "players");
    if (opts.length) {
      const det = h("details", { class: "options" }, h("summary", null, `House rules (${opts.length})`));
      const presetVals = v.presetValues[draft.preset] || {};
      for (const o of opts) {
        const id = `opt-${o.name.replace(/[^a-z0-9_-]/gi, "_")}`;
        const def = o.name in presetVals ? presetVals[o.name] : (o.defaults && draft.preset in o.defaults ? o.defaults[draft.preset] : o.default);
        const cur = o.name in draft.options ? draft.options[o.name] : def;
        let input;
        if (o.choices && o.choices.length) {
          input = h("select", { id }, ...o.choices.map((c, i) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(cur) }, (o.choice_labels && o.choice_labels[i]) || (typeof c === "string" ? c.replace(/_/g, " ") : String(c)))));
        } else if (typeof def === "boolean") {
          input = h("input", { id, type: "checkbox", checked: !!cur });
        } else if (typeof def === "number" || o.type === "int" || o.type === "number") {
          input = h("input", { id, type: "number", inputmode: "numeric", value: cur ?? "" });
        } else {
          input = h("input", { id, value: cur ?? "" });
        }
        input.addEventListener("change", () => {
          let val;
          if (input.type === "checkbox") val = input.checked;
          else if (input.tagName === "SELECT") val = JSON.parse(input.value);
          else if (input.type === "number") val = input.value === "" ? null : Number(input.value);
          else val = input.value;
          if (JSON.stringify(val) === JSON.stringify(def)) delete draft.options[o.name]; else draft.options[o.name] = val;
          saveDraft("new", draft);
        });
        const help = (o.help || "").trim();
        // the default in the same words as the choices (never an option code)
        const di = o.choices ? o.choices.findIndex(c => JSON.stringify(c) === JSON.stringify(def)) : -1;
        const defText = typeof def === "boolean" ? (def ? "on" : "off") : def === null || def === undefined ? "none"
          : di >= 0 ? ((o.choice_labels && o.choice_labels[di]) || String(def).replace(/_/g, " ")) : String(def);
        det.append(h("div", { class: "option" + (input.type === "checkbox" ? " check" : "") },
          h("label", { for: id }, o.label || optionLabel(o.name)), input,
          h("p", { class: "help" }, help + (help && !/[.!?)]$/.test(help) ? "." : "") + ` Default: ${defText}.`)));
      }
      kids.push(det);
    }
    if (remote) kids.push(hostOption(draft.remote, (on) => { draft.remote = on; saveDraft("new", draft); }));
    kids.push(err, h("button", { type: "submit", class: "btn primary", id: "start-game" }, "Start the game"));
    form.replaceChildren(...kids);
    drawDealer();
    drawPicks();
  }
  function drawPicks() {
    const box = form.querySelector("#player-picks");
    if (!box) return;
    const taken = new Set(draft.players.slice(0, draft.count).map(n => n.trim().toLowerCase()).filter(Boolean));
    const free = known.filter(n => !taken.has(n.toLowerCase())).slice(0, 30);
    box.replaceChildren(...(free.length ? [h("div", { class: "label", id: "picks-label" }, "Earlier players: tap to seat"),
      h("div", { class: "player-picks-row", role: "group", "aria-labelledby": "picks-label" }, ...free.map(n =>
        h("button", { type: "button", class: "player-pick", dataset: { name: n }, onclick: () => seat(n) }, n)))] : []));
  }
  function seat(name) {
    const names = draft.players.slice(0, draft.count);
    let i = lastFocus !== null && lastFocus < draft.count && !names[lastFocus].trim() ? lastFocus : names.findIndex(n => !n.trim());
    if (i < 0) i = draft.count - 1;
    draft.players[i] = name;
    lastFocus = null;
    saveDraft("new", draft);
    draw();
    const next = draft.players.slice(0, draft.count).findIndex(n => !n.trim());
    if (next >= 0) form.querySelector(`#player-${next}`).focus({ preventScroll: true });
  }
  function drawDealer() {
    const box = form.querySelector("#dealer-box");
    if (!box) return;
    const names = draft.players.slice(0, draft.count).map((n, i) => n.trim() || `Player ${i + 1}`);
    if (draft.dealer >= draft.count) draft.dealer = 0;
    const sel = h("select", { id: "dealer" }, ...names.map((n, i) => h("option", { value: i, selected: i === draft.dealer }, n)));
    sel.addEventListener("change", () => { draft.dealer = Number(sel.value); saveDraft("new", draft); });
    box.replaceChildren(h("label", { for: "dealer" }, "First dealer"), sel);
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const names = draft.players.slice(0, draft.count).map(n => n.trim());
    const missing = names.findIndex(n => !n);
    if (missing >= 0) { showError(err, `Type a name for player ${missing + 1}.`); form.querySelector(`#player-${missing}`).focus(); return; }
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) { showError(err, `Two players are called ${dup}: give each a different name.`); return; }
    // The player count comes from the names; the service derives the "players" option.
    const options = Object.assign({}, draft.options);
    delete options.players;
    // the options the player count sets (Gin Rummy's four: the partnership), and none that another count sets
    const v = variants.find(x => x.name === draft.variant) || variants[0];
    for (const c of v.seatChoices || []) {
      if (c.players === names.length) continue;
      for (const [k, val] of Object.entries(c.options || {})) if (JSON.stringify(options[k]) === JSON.stringify(val)) delete options[k];
    }
    Object.assign(options, (choiceOf(v, names.length) || {}).options || {});
    const body = { variant: draft.variant, players: names, options, dealer: draft.dealer };
    if (draft.preset) body.preset = draft.preset;
    const hosting = remote && draft.remote;
    if (hosting) body.remote = true;
    try {
      const res = await ctx.write("POST", "/api/v1/games", body);
      const g = res.game || res;
      clearDraft("new");
      if (hosting) { noteInvite(g); refreshRemote(); }  // the bar: waiting for the friend, or the broker away
      ctx.navigate(`#/game/${g.id}`);
    } catch (e) { showError(err, hosting ? hostError(e) : api.says(e)); }
  });
  draw();
}
