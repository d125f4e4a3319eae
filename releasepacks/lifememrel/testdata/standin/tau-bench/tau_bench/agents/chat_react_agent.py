# Stand-in written for the harness's tests, in the layout of the real file.
import json


class ChatReActAgent:
    def __init__(self, tools_info, wiki):
        self.prompt = wiki + "\n#Available tools\n" + json.dumps(tools_info) + REACT_INSTRUCTION


REACT_INSTRUCTION = f"""
# Stand-in instruction
Reply with a Thought line, then Action: and a JSON object such as
{{"name": {RESPOND_ACTION_NAME}, "arguments": {{"{RESPOND_ACTION_FIELD_NAME}": "hello"}}}}
"""


ACT_INSTRUCTION = f"""
# Stand-in act instruction
Reply with Action: and a JSON object such as
{{"name": {RESPOND_ACTION_NAME}, "arguments": {{"{RESPOND_ACTION_FIELD_NAME}": "hi"}}}}
"""
