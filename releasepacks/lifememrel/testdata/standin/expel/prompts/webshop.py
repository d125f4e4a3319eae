# Stand-in in the layout of the real file.
FEWSHOTS = ["""Instruction:
stand-in socks under 5 dollars
[Search]

Action: search[socks]
Observation: a page"""]

SYSTEM_INSTRUCTION = """Stand-in: copy the shopping examples."""

human_instruction_template = """{instruction}Stand-in: at most {max_steps} steps.
One example:"""
