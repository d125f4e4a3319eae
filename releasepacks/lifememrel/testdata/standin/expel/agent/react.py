# stand-in (our own text): the shape of ReactAgent.step that is read.
class ReactAgent:
    def step(self):
        observation, reward, done = None, 0, False
        observation = "Stand-in: too many thoughts in a row."
