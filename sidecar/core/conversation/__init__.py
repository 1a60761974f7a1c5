"""What a session holds: its records, the views derived from them, and what the model has seen of each file."""
