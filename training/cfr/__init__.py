"""Counterfactual regret minimisation for two-player zero-sum extensive-form games.

(Full documentation of the game interface follows once the package is complete.)
"""
