# Stand-in in the layout of the real file.
from langchain.prompts import PromptTemplate

REACT_INSTRUCTION = """Stand-in: answer with Thought, Action, Observation steps.
Skills:
{rules}
Examples:
{examples}
(END)
Question: {question}{scratchpad}"""
