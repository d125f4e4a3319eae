human_instruction_fewshots_template = """{instruction}

{fewshots}

(STAND-IN END)
"""

human_task_template = """Your turn.
{task}"""

RULE_TEMPLATE = dict(
    hotpotqa=HumanMessagePromptTemplate.from_template("""Stand-in rules for questions:
{rules}
"""),
    alfworld=HumanMessagePromptTemplate.from_template("""Stand-in household rules:
{rules}
"""),
    webshop=HumanMessagePromptTemplate.from_template("""
Stand-in shopping experiences:
{rules}
"""),
    fever=HumanMessagePromptTemplate.from_template("""Fixed stand-in advice without a slot."""),
)
