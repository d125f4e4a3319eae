# stand-in
