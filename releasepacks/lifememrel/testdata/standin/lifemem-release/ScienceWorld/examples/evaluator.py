# Stand-in in the layout of the real file.
SYSTEM_PROMPT="""Stand-in: you act in a science world. Write actions as <action>.
Examples:\n"""

INSIGHT="""Stand-in skills:\n"""

EXAMPLE="""User: Your task is to boil water.
Assistant: <look around>
User: A kitchen.
"""

def userConsole(args):
    message=[{"role": "user", "content": SYSTEM_PROMPT + message_str+INSIGHT + skills + "Now this is the stand-in state and task:" + ObservationTmp + TaskDescription}]
