"""The peer benchmark's parts: the scripted workloads, the model agent that plays them on
the fake LLM server, the two clients' drivers, and the figures taken from what the fake
served. ``tests/bench/bench_peer.py`` is the entry point."""
