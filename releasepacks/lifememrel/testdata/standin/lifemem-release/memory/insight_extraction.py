# stand-in for the rule extraction
