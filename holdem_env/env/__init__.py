"""The PettingZoo environment ``nlhe_v1`` and its Gymnasium, flat and vector wrappers."""
