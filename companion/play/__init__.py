"""Full play and the bots' shared machinery; each game's own bots live in its package
(``companion/games/<name>/``: Color Gin's ``bot`` and ``sharp``, Ginski's ``bot`` and
``search``, Gin-Go's ``play`` package with its full play and bots), and the game's
Variant picks them by level.

* :mod:`companion.play.rummy`: the rummy family (Gin Rummy, Color Gin, Ginski), one
  engine driven by each game's rules module (its shape, moves, what a player sees and
  its invariants, and its actions in ``rummy_state``, ``rummy_moves``, ``rummy_checks``,
  ``rummy_actions``);
* :mod:`companion.play.policy`: the turn's skeleton every rummy bot shares;
  :mod:`companion.play.knowledge`: what a seat knows;
* the rummy bots every game may use: :mod:`companion.play.bot` (the basic bot),
  :mod:`companion.play.strong` (gin's normal bot, which Color Gin's and Ginski's build
  on), :mod:`companion.play.sharp` (gin's strong bot, and the reading and knocking
  other bots mix in);
* :mod:`companion.play.levels`: the bots' levels; :mod:`companion.play.hints`: a rummy
  hint in words; :mod:`companion.play.deal`: the companion's deal, a shuffle anyone can
  check once the hand is over;
* :mod:`companion.play.rummy_selfplay`: ``selfplay_match``, bots playing a whole match
  (above the engine and the bots, which it drives).

Nothing here imports a game's package (``tests/test_layers.py`` checks it): a rummy
game's rules reach the engine only from its Variant, which hands the engine its rules
module; nothing here looks a game up by its name (the registry,
:mod:`companion.games.registry`, is the only map from a name to a game:
:func:`companion.games.rummy_game` builds a rummy game's engine by its name).
"""
