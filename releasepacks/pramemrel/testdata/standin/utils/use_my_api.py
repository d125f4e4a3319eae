# Stand-in for utils/use_my_api.py.
class LocalClient:
    def call_openai(self, prompt, model=None, max_completion_tokens=None):
        return self.client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": prompt}],
            max_completion_tokens=max_completion_tokens,
        )
