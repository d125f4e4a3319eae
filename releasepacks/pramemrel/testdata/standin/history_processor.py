# Stand-in for history_processor.py.
def process_history(actions):
    return "", False
