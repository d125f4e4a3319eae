# Stand-in in the layout of the real file.
class LLMUserSimulationEnv:
    def build_system_prompt(self, instruction):
        instruction_display = (
            ("\n\nGoal: " + instruction + "\n")
            if instruction is not None
            else ""
        )
        return f"""Stand-in: play a customer.{instruction_display}
Say one line at a time; end with '###STOP###'."""
