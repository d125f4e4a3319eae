# Stand-in for z_5_practice_with_self_check.py.
import argparse


class SelfPractice:
    def __init__(self, user_id: str, max_tokens: int = 10):
        self.max_tokens = max_tokens

    def call_llm(self, prompt: str, max_retries: int = 2) -> str:
        return self.client.call_openai(prompt=prompt, max_completion_tokens=self.max_tokens)

    def format_exp_memory(self, memory, with_proposal=0, use_ind_exp=1, use_cab_exp=1) -> str:
        lines = []
        lines.append("# Stand-in memory")
        lines.append("\n## Stand-in patterns")
        if memory["user_exp"] and use_ind_exp:
            for i, exp in enumerate(memory["user_exp"], 1):
                lines.append(f"{i}. {exp}")
        else:
            lines.append("(empty)")
        lines.append("\n## Stand-in calibrations")
        if memory["model_exp"] and use_cab_exp:
            for i, exp in enumerate(memory["model_exp"], 1):
                lines.append(f"{i}. {exp}")
        else:
            lines.append("(empty)")
        if with_proposal:
            lines.append("\n## Stand-in proposals")
            for i, proposal in enumerate(memory.get("proposal", []), 1):
                lines.append(f"{i}. {proposal}")
        return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_tokens", type=int, default=1234)
