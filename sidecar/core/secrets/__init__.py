"""The API keys the sidecar holds, and their removal from everything that leaves the process."""
