"""The Gin-Go bot, and the legal actions of full play as far as the search finds them.

The bot melds and hits whatever it can, preferring plays whose chips shorten its own
link or break the opponent's; digs the pile when the dug card melds at once and few cards
come with it; discards what leaves the least deadwood. Going out, it lays captured jokers
where their chips help most and, when the chip supply cannot cover every capture,
forfeits the chips that help least (exactly the shortfall).
"""

from __future__ import annotations

import random
from typing import Any

from companion import board as B
from companion import cards as C
from companion.melds import JOKERS, deadwood_of_mask
from companion.games.gingo.play.candidates import candidate_hits, candidate_melds
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.rules import actions as A
from companion.games.gingo.rules.engine import GingoGame
from companion.games.gingo.rules.errors import GingoError
from companion.games.gingo.rules.state import side_of


def _chip_value(game: GingoGame, side: int, cards: list[int]) -> float:
    """How much placing ``side``'s chips for ``cards`` helps: own link distance shortened,
    the opponent's lengthened (a broken link counts most); -1 when the supply cannot cover it."""
    b = game.board.copy()
    spaces = list(dict.fromkeys(game.space(side, c) for c in cards))
    opp = 3 - side
    own0, opp0 = b.link_distance(side), b.link_distance(opp)
    sup = b.supply(side)
    new = [sp for sp in spaces if b.owner(sp) != side]
    if sup is not None and len(new) > sup:
        return -1.0
    b.place(side, spaces)
    own1, opp1 = b.link_distance(side), b.link_distance(opp)
    score = 3.0 * (own0 - own1) + 2.0 * (opp1 - opp0) + 0.3 * len(new)
    if opp0 == 0 and opp1 > 0:
        score += 20.0
    if own1 == 0:
        score += 30.0
    return score


def _best_discard(hand: list[int], keep: int | None) -> int:
    choices = [c for c in hand if c != keep] or list(hand)
    naturals = [c for c in choices if c < 52] or choices
    best: tuple[int, int] | None = None
    for c in naturals:
        rest = C.cards_mask([x for x in hand if x != c and x < 52])
        v = deadwood_of_mask(rest, JOKERS) * 100 - C.gin_value(c) if c < 52 else 10**6
        if best is None or v < best[0]:
            best = (v, c)
    assert best is not None
    return best[1]


def _meld(seat: int, cards: list[int], des: dict[int, int]) -> A.Meld:
    return A.Meld(seat, tuple(cards), tuple(des.items()))


def discard_move(play: GingoPlay, card: int) -> A.Discard:
    """The discard of ``card`` by the player to move. When it goes out, the captured
    jokers are laid where they help most and, if the chip supply cannot cover every
    capture, the chips that help least are the ones forfeited."""
    seat = play.turn
    if play.hands[seat] != [card]:
        return A.Discard(seat, card)
    game = play.table
    side = side_of(seat)
    caps = play.captured_by(seat)
    lays = game.captured_lays(seat, caps)
    chips = [c for c in caps if c < 52] + [x.card for x in lays]
    short = game.shortfall(side, chips)
    skip: tuple[int, ...] = ()
    if short:
        new = [c for c in dict.fromkeys(chips) if game.board.owner(game.space(side, c)) != side]
        new.sort(key=lambda c: _chip_value(game, side, [c]))
        skip = tuple(new[:short])
    return A.Discard(seat, card, lays or None, skip)


def _setup_move(play: GingoPlay, rng: random.Random) -> A.Setup:
    if play.reveal.chooser is None:
        return A.Setup()
    fmt = rng.choice(B.FORMATS)
    if fmt != "secrecy":
        return A.Setup(format=fmt)
    rows = {}
    for side in (1, 2):
        row = list(C.SUITS)
        rng.shuffle(row)
        rows[side] = "".join(row)
    return A.Setup(format=fmt, secret=rows)


def bot_move(play: GingoPlay, rng: random.Random | None = None) -> A.Action:
    """The bot's next action (typed) for whoever is to move."""
    rng = rng or random.Random(0)
    if play.phase == "first_dealer":  # the winner of the flip deals (the dealer may call the set-up)
        return A.ChooseDeal(play.turn, True)
    if play.phase == "setup":
        return _setup_move(play, rng)
    if play.phase == "hand_over":
        return A.NewHand()
    if play.phase != "play":
        raise GingoError("the game is over")
    seat = play.turn
    side = side_of(seat)
    hand = play.hands[seat]
    game = play.table
    if play.stage == "draw":
        pile = play.pile
        best: tuple[float, A.Action] | None = None
        for idx in range(len(pile) - 1, max(-1, len(pile) - 6), -1):
            card = pile[idx]
            taken = pile[idx:]
            trial = hand + taken
            for cards, des in candidate_melds(trial, game):
                if card not in cards or len(cards) >= len(trial):
                    continue
                cv = _chip_value(game, side, [des.get(c, c) for c in cards])
                if cv < 0:
                    continue
                score = cv + len(cards) - 0.5 * len(taken)
                if best is None or score > best[0]:
                    best = (score, A.Take(seat, card, meld=_meld(seat, cards, des)))
        for idx in range(len(pile) - 2, max(-1, len(pile) - 6), -1):
            lay = _layoff_take(play, idx)
            if lay is None:
                continue
            take, laid = lay
            score = _chip_value(game, side, laid) + len(laid) - 0.5 * (len(pile) - idx - len(laid))
            if best is None or score > best[0]:
                best = (score, take)
        if best is not None and best[0] > 1.0:
            return best[1]
        return A.Draw(seat)
    options = lay_options(play)
    if options:
        return options[0][1]
    return discard_move(play, _best_discard(hand, play.keep))


def lay_options(play: GingoPlay) -> list[tuple[float, A.Meld | A.Hit]]:
    """The melds (or, when there is none, the hits) the player to move could lay before its
    discard, each with the bot's score (what its chips do on the board, plus its cards), best
    first: :func:`bot_move` lays the first. Empty when the bot would discard."""
    seat = play.turn
    side = side_of(seat)
    hand = play.hands[seat]
    game = play.table
    keep = play.keep
    options: list[tuple[float, A.Meld | A.Hit]] = []
    for cards, des in candidate_melds(hand, game):
        left = [c for c in hand if c not in cards]
        if not left or (keep is not None and left == [keep]):
            continue
        score = _chip_value(game, side, [des.get(c, c) for c in cards])
        if score >= 0:  # else the chip supply cannot cover it
            options.append((score + len(cards), _meld(seat, cards, des)))
    if not options:
        for mid, c, des in candidate_hits(hand, game):
            left = [x for x in hand if x != c]
            if not left or (keep is not None and left == [keep]):
                continue
            if c in C.JOKERS and len(hand) > 3:
                continue  # keep jokers for melds while the hand is big
            score = _chip_value(game, side, [des.get(c, c)])
            if score >= 0:
                options.append((score + 1, A.Hit(seat, mid, (c,), tuple(des.items()))))
    options.sort(key=lambda x: -x[0])
    return options


def bot_action(play: GingoPlay, rng: random.Random | None = None) -> dict[str, Any]:
    """The bot's next action as JSON (set-up, draw or dig, meld, hit, discard, new hand)."""
    return bot_move(play, rng).to_dict()


def _layoff_take(play: GingoPlay, idx: int) -> tuple[A.Take, list[int]] | None:
    """A dig of ``play.pile[idx:]`` using the lay-off exception: the taken cards laid off one
    by one (so a run can take the 7 and then the 8) while any fits; None unless at least two
    go down and the whole dig is legal. Returns the action and the cards laid off."""
    seat = play.turn
    taken = play.pile[idx:]
    if len(taken) < 2:
        return None
    g = play.table.copy()
    left = [c for c in taken if c < 52]
    hits: list[A.Hit] = []
    laid: list[int] = []
    progress = True
    while progress and left:
        progress = False
        for mid, c, des in candidate_hits(left, g):
            if des:
                continue
            h = A.Hit(seat, mid, (c,))
            try:
                g.perform(h)
            except GingoError:  # the chip supply runs short
                continue
            hits.append(h)
            laid.append(c)
            left.remove(c)
            progress = True
            break
    if len(laid) < 2:
        return None
    take = A.Take(seat, taken[0], hits=tuple(hits))
    return (take, laid) if _is_legal(play, take) else None


def legal_moves(play: GingoPlay) -> list[A.Action]:
    """The actions the player to move may take, as far as the candidate search finds them:
    the draw, for each depth of the pile one dig with a meld and one with the lay-off
    exception (when there is one), every natural meld, joker melds with one legal
    designation each, every single-card hit and every discard (going out with the bot's
    joker lays and forfeits)."""
    if play.phase == "first_dealer":
        return [A.ChooseDeal(play.turn, True), A.ChooseDeal(play.turn, False)]
    if play.phase == "setup":
        if play.reveal.chooser is None:
            return [A.Setup()]
        return [A.Setup(format="normal"), A.Setup(format="suit_for_suit"),
                A.Setup(format="secrecy", secret={1: "SHDC", 2: "SHDC"})]
    if play.phase == "hand_over":
        return [A.NewHand()]
    if play.phase != "play":
        return []
    seat, hand, game = play.turn, play.hands[play.turn], play.table
    out: list[A.Action] = []
    if play.stage == "draw":
        out.append(A.Draw(seat))
        pile = play.pile
        for idx, card in enumerate(pile):
            trial = hand + pile[idx:]
            for cards, des in candidate_melds(trial, game):
                if card in cards and len(cards) < len(trial):
                    take = A.Take(seat, card, meld=_meld(seat, cards, des))
                    if _is_legal(play, take):
                        out.append(take)
                        break
            lay = _layoff_take(play, idx)
            if lay is not None:
                out.append(lay[0])
        return out
    out += [_meld(seat, cards, des) for cards, des in candidate_melds(hand, game)]
    out += [A.Hit(seat, mid, (c,), tuple(des.items())) for mid, c, des in candidate_hits(hand, game)]
    out += [discard_move(play, c) for c in hand]
    return [a for a in out if _is_legal(play, a)]


def legal_actions(play: GingoPlay) -> list[dict[str, Any]]:
    """:func:`legal_moves` as JSON."""
    return [a.to_dict() for a in legal_moves(play)]


def _is_legal(play: GingoPlay, action: A.Action) -> bool:
    trial = GingoPlay.__new__(GingoPlay)
    trial.__dict__.update(play.__dict__)
    try:
        trial.perform(action)
    except GingoError:
        return False
    return True


__all__ = ["bot_move", "bot_action", "lay_options", "discard_move", "legal_moves", "legal_actions"]
