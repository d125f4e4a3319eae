# Stand-in in the layout of the real file.
d = {
    "react_put_0": "Stand-in room.\nYour task is to: put a cup on a table.\n> take cup 1\nYou pick up the cup 1.",
    "react_put_1": "Stand-in room two.\n> put cup 1 in/on table 1\nYou put it.",
    "react_examine_0": "Stand-in: examine A.",
    "react_examine_1": "Stand-in: examine B.",
}

PREFIXES = {
            'pick_and_place': 'put',
            'look_at_obj': 'examine',
        }

FEWSHOTS = {k: [d[f'react_{v}_{i}'] for i in range(2)] for k, v in PREFIXES.items()}

SYSTEM_INSTRUCTION = """Stand-in: copy the examples' syntax."""

human_instruction_template = """{instruction}Stand-in: at most {max_steps} steps.
Two examples:"""
