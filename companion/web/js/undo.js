// Undo that asks first, and redo: the same controls on the rummy score sheets and in
// Gin-Go. The companion keeps both as events (an undo never deletes anything), and a
// redo is offered until a new entry is made.

import * as api from "./api.js";
import { h, showError, toast } from "./ui.js";

// The buttons of the Game panel's undo row. `confirming`: the question is shown (with
// "Yes, undo" and "Keep it") instead of the Undo and Redo buttons.
// env: {g, confirming, undoWords, redoWords, ask(confirming), act(path, done)}
export function undoButtons(env) {
  const { g, confirming, undoWords, redoWords } = env;
  if (confirming) {
    return [h("p", { class: "confirm-q", id: "undo-question" }, `Undo ${undoWords}? You can redo it afterwards.`),
      h("button", { type: "button", class: "btn primary", id: "undo-yes", onclick: () => env.act(`/api/v1/games/${g.id}/undo`, `Undone: ${undoWords}`) }, "Yes, undo"),
      h("button", { type: "button", class: "btn", id: "undo-no", onclick: () => env.ask(false) }, "Keep it")];
  }
  // an older companion says nothing of what can be undone: the button stays on
  const undoable = g.undo === undefined ? { type: "entry" } : g.undo;
  const row = [h("button", { type: "button", class: "btn", id: "undo-btn", disabled: !undoable, onclick: () => {
    env.ask(true);
    const y = document.getElementById("undo-yes");
    if (y) y.focus();
  } }, "Undo last")];
  if (g.redo) {
    row.push(h("button", { type: "button", class: "btn", id: "redo-btn",
      onclick: () => env.act(`/api/v1/games/${g.id}/redo`, `Brought back: ${redoWords}`) }, `Redo ${redoWords}`));
  }
  return row;
}

// Sends an undo or a redo checked against the version on screen. env: {ctx, g, path, done,
// apply(res) (takes the answer's game, or reloads), drawAll, reload, errEl() (where a
// refusal is said)}. Another phone's write meanwhile refuses it: nothing is undone blindly.
export async function undoOrRedo(env) {
  try {
    const res = await env.ctx.write("POST", env.path, { expected_version: env.g.version });
    await env.apply(res);
    env.drawAll();
    toast(env.done);
    return res;
  } catch (e) {
    if (e instanceof api.ApiError && e.status === 409 && e.details && e.details.changes) {
      await env.reload(); env.drawAll();
      showError(env.errEl(), "Another phone changed the game just now: nothing was undone or redone. Check the game and try again.");
    } else showError(env.errEl(), api.says(e));
    return null;
  }
}
