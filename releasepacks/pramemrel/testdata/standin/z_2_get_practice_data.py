# Stand-in for z_2_get_practice_data.py.
import random


def get_simulated_input_single(user_profile, action_history, test_action, max_history_tokens):
    field = "x"
    if field == "search_keyword":
        question_list.append("Stand-in: which keyword?")
    return "", ""


def get_simulated_input(user_profile, history_actions, target_actions, max_history_tokens):
    simulated_input_part2 = f"## Stand-in task {task_id} ##\n{prompt_part2}\n\n"
    simulated_input = f"{simulated_input_part1}\n\n{simulated_input_part2}".strip()
    return simulated_input


def get_simulated_label(target_actions):
    summary = "\n".join(summary.split('\n')[1:])
    summary = "Stand-in answers follow; unstated means No. " + summary
    simulated_label = summary.replace("[Rec", "[Answer")
    return simulated_label


if __name__ == "__main__":
    random.seed(77)
