# stand-in for the memory service
