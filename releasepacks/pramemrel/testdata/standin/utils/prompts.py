# Stand-in for utils/prompts.py with our own sentences.
prompt_for_predict = """{practice_item_simulated_input}

---- stand-in trial ----
{exp_memory_text}
Think, then answer each task. Literal braces: {{like this}}.
"""

prompt_for_reflect = """Stand-in reflect.
{exp_memory_text}
IN: {practice_item_simulated_input}
OUT: {predict_response}
TRUE: {practice_item_simulated_label}
Write 【提议】 lines."""

prompt_for_review = """Stand-in review.
{exp_memory_text}
Pool:
{proposal_text}
Reply with ```json {{"user_exp": [], "model_exp": [], "proposal": []}}```."""

prompt_for_evaluate_after_main = """Stand-in: you may use this memory.
{memory}
Now answer above."""

prompt_for_generate_perturbations = """Stand-in perturb {num_perturbations} time(s):
{history_text}"""

prompt_for_check_perturbation = """Stand-in judge.
{history_text}
D: {perturbation_desc}
X: {perturbation_details}
P:
{original_proposals_text}"""

prompt_for_generate_virtual_scenes = """Stand-in: write {num_virtual_scenes} scenes like
{real_scene_text}"""

prompt_for_check_generalization = """Stand-in options:
{options_text}
Proposals:
{proposals_text}"""
