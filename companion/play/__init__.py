"""Full play: state machines that deal, take turns and score whole matches, and bots.

* :mod:`companion.play.rummy`: the rummy family (Gin Rummy, Color Gin, Ginski), one
  engine driven by each game's rule module, and ``selfplay_match``;
* :mod:`companion.play.bot`: a rummy bot that plays legally and sensibly;
* :mod:`companion.play.gingo`: Gin-Go full play and its own bot (``selfplay_game``).
"""
