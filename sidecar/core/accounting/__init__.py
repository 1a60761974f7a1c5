"""Counting the context: token estimates anchored on real usage, the window, the gauge and the views of it."""
