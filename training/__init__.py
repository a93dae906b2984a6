"""Training and evaluation: the arena, CFR, league, PPO, LBR and AIVAT (installed as ``holdem_env.training``)."""
