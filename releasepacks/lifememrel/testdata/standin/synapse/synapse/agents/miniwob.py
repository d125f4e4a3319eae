# Stand-in in the layout of the real file.
ENV_TO_FILTER = [
    "click-tab-2",
    "click-tab-2-hard",
    "find-word",
    "pick-shape",
    "use-autocomplete",
    "plan-trip",
]


class Agent:
    def act(self, obs: str):
        sys_message = [
            {
                "role": "system",
                "content": "You are a large language model stand-in: write agent.click_xpath(...) calls in a fenced block.",
            }
        ]
