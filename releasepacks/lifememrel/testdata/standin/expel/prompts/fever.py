FEWSHOTS = ["""Question: stand-in question one (fever)
Thought 1: think
Action 1: Finish[a]""", """Question: stand-in question two
Action 1: Finish[b]"""]

SYSTEM_INSTRUCTION = """Stand-in fever instruction with Search[x], Lookup[y], Finish[z].
"""

human_instruction_template = """{instruction}Stand-in: at most {max_steps} steps.
Examples:"""
