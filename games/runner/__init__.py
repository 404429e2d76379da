"""The computer's turns: scheduling, search pools and the worker loop."""
