"""One agent turn: the model calls, the tool rounds, and what bounds and retries them."""
