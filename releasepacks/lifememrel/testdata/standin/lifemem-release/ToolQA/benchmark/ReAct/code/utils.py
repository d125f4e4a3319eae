# stand-in (our own text) for the model client
