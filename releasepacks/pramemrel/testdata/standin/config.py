# Stand-in for config.py.
MAX_HISTORY_TOKENS = 0
