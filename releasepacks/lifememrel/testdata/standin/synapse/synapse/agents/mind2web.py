# stand-in for synapse/agents/mind2web.py, written for the harness's tests:
# only the shape the reader relies on (eval_sample's sys_message) is kept.


def eval_sample(task_id, args, sample):
    sys_message = [
        {
            "role": "system",
            "content": "Stand-in web agent. Answer with one action in backticks:\n`CLICK [id]`, `TYPE [id] [value]` or `SELECT [id] [value]`.",
        }
    ]
    return sys_message
