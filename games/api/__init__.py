"""The JSON API (v1) for bots and scripts."""
