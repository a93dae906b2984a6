"""ACPC protocol 2.0.0 support: a dealer on the engine and a client for our agents (docs/acpc.md)."""
