from langchain.prompts.chat import HumanMessagePromptTemplate

system_template = """Stand-in: you are {ai_name}. {instruction}"""
