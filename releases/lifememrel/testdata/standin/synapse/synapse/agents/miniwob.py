# Stand-in in the layout of the real file.
class Agent:
    def act(self, obs: str):
        sys_message = [
            {
                "role": "system",
                "content": "You are a large language model stand-in: write agent.click_xpath(...) calls in a fenced block.",
            }
        ]
