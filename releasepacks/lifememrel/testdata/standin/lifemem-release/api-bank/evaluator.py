# Stand-in in the layout of the real file.
api_call_prompt = '''
Stand-in: call tools as [Tool(k=v)]; search first with ToolSearcher.\n
'''
INSIGHT="""Stand-in insights:
    """
api_call_prompt2="Stand-in: now the task.\nUser: \n"

EXAMPLE="""User: stand-in request
    Assistant: [Finish()]"""

if __name__ == '__main__':
    message_str="Here are two examples:\n"
    message_str += "Assistant: [Finish()]\n"
    messages=[{"role": "system", "content": api_call_prompt+INSIGHT+insights+"Here're some examples:\n"+message_str+api_call_prompt2}, {'role': "user", "content": task}]
    messages.append({"role": "user", "content": "Error! No valid tool-callings to execute."})
    messages.append({"role": "user", "content": "Here's the execution result: " + api_result})
