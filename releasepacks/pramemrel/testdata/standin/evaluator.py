# Stand-in for evaluator.py.
def evaluate(prompt, exp_memory_prompt):
    if exp_memory_prompt != "":
        prompt = f"{prompt}\n\n{exp_memory_prompt}"
    return prompt
