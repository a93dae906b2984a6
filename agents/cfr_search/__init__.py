"""Heads-up subgame re-solving and, with the blueprint, the cfr-search bot."""
