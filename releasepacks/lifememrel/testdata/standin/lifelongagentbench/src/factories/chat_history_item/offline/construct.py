def construct_offline(root_path, requirement_suffix):
    items = {
        0: {"role": "user", "content": f"""{TASK_REQUIREMENT_DICT[task_name]}{requirement_suffix}"""},
        1: {"role": "agent", "content": "OK."},
    }


def main():
    standard_requirement_suffix = """

Stand-in: here comes the question."""
