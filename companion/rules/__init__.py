"""The rules machinery every game shares; each game's own rules live in its package
(``companion/games/<name>/``: Gin Rummy's ``rules``, ``match``, ``options``, ``teams`` and
``outing``; Color Gin's and Ginski's ``rules`` and ``options``; Gin-Go's ``rules`` package).

* :mod:`companion.rules.base`: what every rummy rule set hands back (a hand's result, a
  match's running score) and the surface a rummy game's rules module offers;
* :mod:`companion.rules.common`: reading hands and checking results, for the rummy rules;
* :mod:`companion.rules.declare`: the melds a player declares when ending a hand;
* :mod:`companion.rules.first_dealer`: the flip for the first deal;
* :mod:`companion.rules.tournament`: an outing's records (a tournament of pair matches).

Nothing here imports a game's package (``tests/test_layers.py`` checks it).
"""
