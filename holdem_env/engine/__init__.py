"""The rules of hold'em: cards, hand evaluation, the hand state, tables and hand records (no PettingZoo, no torch)."""
