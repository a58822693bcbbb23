"""Full play: state machines that deal, take turns and score whole matches, and bots.

* :mod:`companion.play.rummy`: the rummy family (Gin Rummy, Color Gin, Ginski), one
  engine driven by each game's rule module;
* :mod:`companion.play.bot`: a rummy bot that plays legally and sensibly;
* :mod:`companion.play.rummy_selfplay`: ``selfplay_match``, bots playing a whole match
  (above the engine and the bots, which it drives);
* :mod:`companion.games.gingo.play`: Gin-Go full play and its own bot (``selfplay_game``).
"""
