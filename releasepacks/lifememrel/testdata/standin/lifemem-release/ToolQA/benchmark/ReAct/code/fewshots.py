TOOLQA_EASY8 = """Question: easy stand-in"""
TOOLQA_HARD3 = """Question: hard stand-in?
Thought 1: load it
Action 1: LoadDB[coffee]
Observation 1: loaded"""
