"""Gin-Go full play with a deck: deal, stock, spread discard pile, turns, bots, self-play.

:class:`GingoPlay` tracks every card. It owns the one Gin-Go engine,
:class:`companion.games.gingo.rules.GingoGame`, for the table (melds, chips, links, end-of-hand
resolution) and adds the hands, the stock, the discard pile (bottom first; taking a card
takes it and every card above it) and whose turn it is. It speaks to the engine in typed
actions with cards as ints (:mod:`companion.games.gingo.rules.actions`); :meth:`GingoPlay.apply`
is the JSON edge. It raises :class:`~companion.games.gingo.rules.GingoError` naming the rule for
an illegal or out-of-turn action and then leaves the state unchanged, and replays exactly:
``GingoPlay(players, options, seed)`` plus the same actions gives the same state.

Modules: ``turns`` (the state of a game in play and the turn of the player to move),
``play`` (:class:`GingoPlay`, holding that state and the turns: the deck, the deal and the
actions), ``candidates`` (melds and hits a hand can make), ``bot`` (the first bot and
``legal_actions``), ``strong`` (the seat bot: ``bot_move`` and ``bot_action`` here are its;
the normal level), ``search`` (the strong level: the normal bot's draws and discards weighed
by playing the hand out over sampled deals), ``selfplay``, ``hint`` (the strong bot's move
for a seat, in words).

Actions (``seat`` is always the player to move)
===============================================

``{"type": "choose_deal", "seat": s, "deal": true | false}``
    Only with option ``first_dealer = flip_high_chooses``: each player flipped a card
    from a shuffled 52-card deck (a tie for the highest flips again, drawn from the
    game's seed; ``first_deal`` in :meth:`GingoPlay.as_dict`), and the winner deals or
    leaves the deal to the player on their right, so they play first. Under
    ``flip_low_deals`` the lowest card deals with no choice. Then the set-up.
``{"type": "setup", "format": "normal" | "suit_for_suit" | "secrecy", "secret": {"1": "SHDC", "2": "CDHS"}}``
    The set-up reveal is read from the top of the shuffled 54-card deck (the seed turns
    cards until four suits show; jokers are in the deck for this even when they are not
    played). ``format`` may be given only when a joker came up (else it is Normal);
    ``secret`` only for Secrecy. Then the first hand is dealt.
``{"type": "draw", "seat": s}``
    Draw the top card of the stock. With the stock empty, the table melds first become
    the new stock (shuffled); the second time in a hand the hand ends with no capture.
``{"type": "take", "seat": s, "card": "7H", "meld": {"cards": [...], "designations": {...}}}``
    Dig the discard pile: take ``7H`` and every card above it, and meld ``7H`` at once
    (the meld may use cards from the hand and from the pile). Or, taking at least two
    cards, ``"hits": [{"meld": 3, "cards": ["8H"]}, {"meld": 5, "cards": ["QS"]}]``
    laying off at least two of the taken cards at once. A card taken
    this way that was not used may not be discarded this turn.
``{"type": "meld", "seat": s, "cards": [...], "designations": {...}}`` and
``{"type": "hit", "seat": s, "meld": id, "cards": [...], "designations": {...}}``
    As in table play, from the hand. A meld or hit may not leave the hand empty: a turn
    always ends with a discard. As full play knows the hand, a joker
    may not stand for a card its player holds either (as in the meld solver).
``{"type": "discard", "seat": s, "card": "KS", "jokers": {"JK2": {"meld": 3, "as": "6S"}}, "skip": ["QH"]}``
    End the turn. Discarding the last card goes out: every other hand (the partner's
    too) is captured and the table resolves the hand; ``jokers`` optionally lays
    captured jokers onto melds (default: where each joker's chip helps most; a joker
    whose only fits are cards in play, the other captured cards included, is dead).
    When the chip supply cannot cover every capture, ``skip`` names the captured cards
    whose chips are forfeited: exactly the shortfall, the player's choice.
``{"type": "new_hand"}``
    After a hand with no winner: the deal passes clockwise and a new hand is dealt.

>>> p = GingoPlay(["Ann", "Bob"], {"deal": 7}, seed=3)
>>> _ = p.apply(bot_action(p))  # the set-up
>>> len(p.hands[0]), len(p.hands[1]), p.turn
(7, 7, 1)
>>> summary = selfplay_game(1, players=2)
>>> summary["winner"] in (1, 2, None), summary["hands"] >= 1
(True, True)
"""

from __future__ import annotations

from companion.games.gingo.play.bot import discard_move, legal_actions, legal_moves
from companion.games.gingo.play.candidates import candidate_hits, candidate_melds
from companion.games.gingo.play.play import GingoPlay
from companion.games.gingo.play.selfplay import selfplay_game
# the seat bot (dealt games, self-play): the strong one; the first is gingo.bot.bot_move
from companion.games.gingo.play.strong import strong_action as bot_action
from companion.games.gingo.play.strong import strong_move as bot_move

__all__ = ["GingoPlay", "bot_action", "bot_move", "discard_move", "legal_actions", "legal_moves", "candidate_melds",
           "candidate_hits", "selfplay_game"]
